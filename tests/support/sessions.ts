import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../src/adapters/eventstore/eventStore.ts';
import { registerAccount } from '../../src/commands/accounts/registerUser.ts';
import { commandContext } from '../../src/commands/kit/commandContext.ts';
import type { System } from '../../src/system.ts';

const HOUR = 3_600_000;

export interface RegisteredStudent {
  userId: string;
  studentId: string;
  /** `tm_session=…` for the student's requests. */
  cookie: string;
}

/** A verified local student account with its profile (Grade 10), signed in; `parentId` makes it a parent's child. */
export async function registeredStudent(
  system: Pick<System, 'accounts' | 'signIns' | 'clock'>,
  n: string,
  options: { parentId?: string; firstName?: string; lastName?: string } = {},
): Promise<RegisteredStudent> {
  const { userId, studentId } = await registerAccount(
    system.accounts,
    {
      username: `student-${n}`,
      email: `student-${n}@example.com`,
      firstName: options.firstName ?? 'Sam',
      lastName: options.lastName ?? `Student${n}`,
      password: 'secret123',
      role: 'student',
      phone: null,
      authProvider: 'local',
      googleId: null,
      emailVerified: true,
      termsAccepted: { version: '1.0', ip: null },
      student: { grade: 'Grade 10', isUniversityStudent: false },
      ...(options.parentId ? { parentId: options.parentId } : {}),
    },
    commandContext({ now: system.clock.now() }),
  );
  if (!studentId) throw new Error('no student profile');
  return { userId, studentId, cookie: `tm_session=${(await system.signIns.create(userId, 'student')).token}` };
}

/** A verified local parent account (no student of their own yet): `registeredStudent(…, { parentId })` adds one. */
export async function registeredParent(
  system: Pick<System, 'accounts' | 'clock'>,
  n: string,
  name: { firstName?: string; lastName?: string; email?: string } = {},
): Promise<{ userId: string; email: string }> {
  const email = name.email ?? `${n}@example.com`;
  const { userId } = await registerAccount(
    system.accounts,
    {
      username: n,
      email,
      firstName: name.firstName ?? 'Pat',
      lastName: name.lastName ?? 'Parent',
      role: 'parent',
      student: null,
      password: 'secret123',
      phone: null,
      authProvider: 'local',
      googleId: null,
      emailVerified: true,
      termsAccepted: { version: '1.0', ip: null },
    },
    commandContext({ now: system.clock.now() }),
  );
  return { userId, email };
}

/** The next whole hour `hoursAhead` from now, as an ISO instant. */
export function hourFromNow(hoursAhead: number): string {
  const at = new Date(Date.now() + hoursAhead * HOUR);
  at.setUTCMinutes(0, 0, 0);
  return at.toISOString();
}

const endOf = (start: string) => new Date(Date.parse(start) + HOUR).toISOString();

export interface SessionParties {
  tutorId: string;
  studentId: string;
  studentUserId: string;
}

/**
 * A session as booking records it, appended straight to its stream: for the read models and sagas
 * that follow sessions, without the booking process (which `sessionRoutes.test.ts` covers).
 */
export async function appendBookedSession(
  store: EventStore,
  parties: SessionParties,
  start: string,
  details: { subjectName?: string; notes?: string; tutorTimeZone?: string; studentTimeZone?: string } = {},
): Promise<string> {
  const sessionId = randomUUID();
  await store.append(
    `session-${sessionId}`,
    [
      {
        id: randomUUID(),
        type: 'SessionBooked',
        metadata: {},
        data: {
          sessionId,
          ...parties,
          courseId: randomUUID(),
          subjectId: 'math',
          subjectName: details.subjectName ?? 'Math (Grade 10 & Under)',
          start,
          end: endOf(start),
          durationMinutes: 60,
          notes: details.notes ?? 'Fractions',
          bookedBy: parties.studentUserId,
          bookedByRole: 'student',
          tutorTimeZone: details.tutorTimeZone ?? 'America/Toronto',
          studentTimeZone: details.studentTimeZone ?? 'America/New_York',
          at: new Date().toISOString(),
        },
      },
    ],
    'no_stream',
  );
  return sessionId;
}

/** The session moved from `previousStart` to `start` by its tutor; `revision` is the session stream's last. */
export async function appendRescheduled(
  store: EventStore,
  parties: SessionParties & { sessionId: string },
  previousStart: string,
  start: string,
  revision: number,
): Promise<void> {
  await store.append(
    `session-${parties.sessionId}`,
    [
      {
        id: randomUUID(),
        type: 'SessionRescheduled',
        metadata: {},
        data: {
          sessionId: parties.sessionId,
          tutorId: parties.tutorId,
          studentId: parties.studentId,
          previousStart,
          previousEnd: endOf(previousStart),
          start,
          end: endOf(start),
          rescheduledBy: parties.tutorId,
          rescheduledByRole: 'tutor',
          timeZone: 'America/Toronto',
          at: new Date().toISOString(),
        },
      },
    ],
    { exact: revision },
  );
}

/** The session cancelled by its student with more than 12 hours' notice (the credit released). */
export async function appendCancelled(
  store: EventStore,
  parties: SessionParties & { sessionId: string },
  start: string,
  revision: number,
): Promise<void> {
  await store.append(
    `session-${parties.sessionId}`,
    [
      {
        id: randomUUID(),
        type: 'SessionCancelled',
        metadata: {},
        data: {
          sessionId: parties.sessionId,
          tutorId: parties.tutorId,
          studentId: parties.studentId,
          courseId: randomUUID(),
          start,
          end: endOf(start),
          cancelledBy: parties.studentUserId,
          cancelledByRole: 'student',
          reason: 'Exam moved',
          noticeMinutes: Math.floor((Date.parse(start) - Date.now()) / 60_000),
          credit: 'released',
          tutorTimeZone: 'America/Toronto',
          studentTimeZone: 'America/New_York',
          at: new Date().toISOString(),
        },
      },
    ],
    { exact: revision },
  );
}
