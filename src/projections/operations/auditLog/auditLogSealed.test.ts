import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/database.ts';
import { migrate } from '../../../adapters/db/migrate.ts';
import { ERASED, PersonalDataVault } from '../../../adapters/personalData/personalDataVault.ts';
import { event, type ProjectionSpec, projectionSpec } from '../../kit/projectionSpec.ts';
import { auditLogProjector } from './auditLogProjector.ts';
import { auditTrailOf } from './queries.ts';

const cancelledBy = (sessionId: string, studentUserId: string | null, reason: string) =>
  event(
    `session-${sessionId}`,
    'SessionCancelled',
    {
      sessionId,
      tutorId: 't1',
      studentId: 'st1',
      courseId: 'c1',
      start: '2026-05-04T14:00:00.000Z',
      end: '2026-05-04T15:00:00.000Z',
      cancelledBy: 'u1',
      cancelledByRole: 'student',
      reason,
      noticeMinutes: 2000,
      credit: 'released',
      tutorTimeZone: 'America/New_York',
      studentTimeZone: 'America/New_York',
      at: '2026-05-03T00:00:00.000Z',
      ...(studentUserId ? { studentUserId } : {}),
    },
    { metadata: { actorId: 'u1', actorRole: 'student' } },
  );

describe('audit log: a cancellation reason', () => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  let vault: PersonalDataVault;
  beforeAll(async () => {
    db = await createTestDatabase('auditsealed');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [auditLogProjector]);
    vault = new PersonalDataVault(db.sql);
  });
  afterAll(() => db.drop());

  it('is shown while the family key exists, "[erased]" after; the table never holds it in plain text', async () => {
    const family = randomUUID();
    await vault.keysFor([`user-${family}`]);
    const sessionId = randomUUID();
    await spec.given(cancelledBy(sessionId, family, 'Violin exam in Halifax'));

    const [row] = await auditTrailOf(db.sql, 'session', sessionId);
    expect(row?.new_values?.reason).toBe('Violin exam in Halifax');
    const raw = await db.sql`SELECT new_values::text AS v FROM audit_logs WHERE entity_id = ${sessionId}
                             UNION ALL SELECT fields::text FROM audit_field_values WHERE stream_id = ${`session-${sessionId}`}`;
    for (const r of raw) expect(r.v).not.toContain('Violin');

    await vault.shred(`user-${family}`);
    const [after] = await auditTrailOf(db.sql, 'session', sessionId);
    expect(after?.new_values?.reason).toBe(ERASED);
  });

  it('is sealed the same on every rebuild (a rebuilt audit log equals the live one), and still opens', async () => {
    const family = randomUUID();
    await vault.keysFor([`user-${family}`]);
    const seal = (seed: string) => vault.sealWithExistingKey(`user-${family}`, ['Violin exam'], [seed]);
    const [first] = (await seal('event-1/reason')) ?? [];
    const [again] = (await seal('event-1/reason')) ?? [];
    const [other] = (await seal('event-2/reason')) ?? [];
    expect(first).toBeDefined();
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    const opened = await vault.decryptAll([first as string, other as string]);
    expect([opened.get(first as string), opened.get(other as string)]).toEqual(['Violin exam', 'Violin exam']);
  });

  it('of a family already erased when the row is made reads as erased', async () => {
    const sessionId = randomUUID();
    await spec.given(cancelledBy(sessionId, randomUUID(), 'Dentist appointment'));
    const [row] = await auditTrailOf(db.sql, 'session', sessionId);
    expect(row?.new_values?.reason).toBe(ERASED);
  });
});
