import { randomUUID } from 'node:crypto';
import { commandContext } from '../../src/commands/kit/commandContext.ts';
import { changeTutorRate } from '../../src/commands/tutors/changeTutorRate.ts';
import { tutorHandlers } from '../../src/commands/tutors/tutorHandlers.ts';
import type { System } from '../../src/system.ts';
import { appendBookedSession } from '../support/sessions.ts';

/** The ended period the payouts journey approves: no other journey books this far back. */
export const E2E_PAYOUT_DAY = '2025-01-06';

/**
 * One demo tutor at 45.00 an hour with two sessions held on January 6th and 7th, 2025 (appended
 * as booking and completion record them: the API books only future hours).
 */
export async function seedPayoutPeriod(system: Pick<System, 'sql' | 'store' | 'clock'>): Promise<void> {
  const [tutor] = await system.sql<{ id: string }[]>`SELECT id FROM tutors ORDER BY id LIMIT 1`;
  if (!tutor) throw new Error('no demo tutor to pay');
  await changeTutorRate(
    tutorHandlers(system.store),
    { tutorId: tutor.id, hourlyRateCents: 4500, effectiveFrom: new Date('2024-12-01T05:00:00Z'), reason: 'Demo rate' },
    commandContext({ actorRole: 'admin', now: system.clock.now() }),
  );
  const parties = { tutorId: tutor.id, studentId: 'e2e-payout-student', studentUserId: 'e2e-payout-student' };
  for (const start of ['2025-01-06T15:00:00.000Z', '2025-01-07T15:00:00.000Z']) {
    const sessionId = await appendBookedSession(system.store, parties, start);
    await system.store.append(
      `session-${sessionId}`,
      [
        {
          id: randomUUID(),
          type: 'SessionCompleted',
          metadata: {},
          data: { sessionId, ...parties, courseId: 'e2e', completedBy: tutor.id, notes: 'Held', at: start },
        },
      ],
      'any',
    );
  }
}
