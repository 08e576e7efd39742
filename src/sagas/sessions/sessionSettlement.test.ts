import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyHours } from '../../../tests/support/calendarTime.ts';
import { type RegisteredStudent, registeredStudent } from '../../../tests/support/sessions.ts';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import type { RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import { courseHandlers, enrollCourse } from '../../commands/courses/courseHandlers.ts';
import { courseLedger } from '../../commands/courses/courseLedger.ts';
import { commandContext } from '../../commands/kit/commandContext.ts';
import { bookSession } from '../../commands/sessions/booking.ts';
import type { SessionPorts } from '../../commands/sessions/ports.ts';
import { sessionHandlers } from '../../commands/sessions/sessionHandlers.ts';
import { cancelSession, completeSession } from '../../commands/sessions/sessionLifecycle.ts';
import { sessionsRemainingOf } from '../../domain/courses/course.ts';
import {
  SESSION_SETTLEMENT_QUEUE,
  SETTLEMENT_DELAY_MS,
  type SessionSettlementJob,
  sessionSettlementReactor,
  settleClosedSession,
} from './sessionSettlement.ts';

const NY = 'America/New_York';
const HOUR = 3_600_000;

let system: TestSystem;
let sam: RegisteredStudent;
let courseId: string;
const tutorId = randomUUID();

beforeAll(async () => {
  // No projector and no worker: the tests run the settlement job themselves, when they choose.
  system = await createTestSystem('cli');
  sam = await registeredStudent(system, 'settle');
  courseId = randomUUID();
  const { courses } = courseHandlers(system.store);
  const ctx = () => commandContext({ actorRole: 'system', now: system.clock.now() });
  await enrollCourse(
    { courses },
    { courseId, studentId: sam.studentId, subjectId: 'math', packageId: 'pkg', purchaseId: `buy-${courseId}`, credits: 8 },
    ctx(),
  );
  await courses.handle(courseId, { type: 'ChooseCourseTutor', data: { courseId, tutorId, tutorQualified: true } }, ctx());
  await courses.handle(courseId, { type: 'ActivateCourse', data: { courseId } }, ctx());
});
afterAll(async () => system.dispose());

const handlers = () => sessionHandlers(system.store);
const ports = (): SessionPorts => ({
  courses: courseLedger(system.store, { maxAttempts: 25 }),
  // Every day 08:00–20:00 New York time, nothing busy in the calendar.
  tutor: async () => ({ exists: true, timeZone: NY }),
  calendarTime: dailyHours(NY),
});

/** 10:00 New York time, `days` ahead. */
const startIn = (days: number) =>
  Temporal.Now.zonedDateTimeISO(NY).toPlainDate().add({ days }).toPlainDateTime({ hour: 10 }).toZonedDateTime(NY).toInstant().toString();

const course = () => courseHandlers(system.store).courses.load(courseId);
const held = async () => Object.keys((await handlers().schedules.load(tutorId)).held);
const eventsOf = async (streamId: string) => (await system.store.readStream(streamId)).length;
/** How many events the course's ledger and the tutor's schedule hold: what a settlement appends to. */
const settlementStreams = async () => [await eventsOf(`course-${courseId}`), await eventsOf(`tutorSchedule-${tutorId}`)];

async function booked(days: number): Promise<{ sessionId: string; start: string }> {
  const start = startIn(days);
  const { sessionId } = await bookSession(
    handlers(),
    ports(),
    {
      tutorId,
      courseId,
      studentId: sam.studentId,
      studentUserId: sam.userId,
      studentTimeZone: NY,
      subjectName: 'Math',
      start,
      notes: null,
    },
    commandContext({ actorId: sam.userId, actorRole: 'student', now: system.clock.now() }),
  );
  return { sessionId, start };
}

/** The session's closing event, as the reactor receives it. */
async function closingEvent(sessionId: string): Promise<RecordedEvent> {
  const closing = (await system.store.readStream(`session-${sessionId}`)).find(
    (e) => e.type === 'SessionCancelled' || e.type === 'SessionCompleted',
  );
  if (!closing) throw new Error(`session ${sessionId} was never closed`);
  return closing;
}

/** The reactor's job for the session's closing event. */
async function settlementJob(sessionId: string): Promise<SessionSettlementJob> {
  const [job] = sessionSettlementReactor.jobsFor(await closingEvent(sessionId));
  if (!job) throw new Error('no settlement job');
  return job.data as unknown as SessionSettlementJob;
}

describe('the settlement job after a request that died once the session was closed', () => {
  it('gives back the credit and frees the hour of a session cancelled in time, once', async () => {
    // Given a booked session, cancelled three days ahead by a request that died before settling
    const { sessionId, start } = await booked(3);
    const free = sessionsRemainingOf(await course());
    const cancelledAt = new Date(Date.parse(start) - 3 * 24 * HOUR);
    await handlers().sessions.handle(
      sessionId,
      { type: 'CancelSession', data: { sessionId, reason: 'Exam moved' } },
      commandContext({ actorId: sam.userId, actorRole: 'student', now: cancelledAt }),
    );
    expect((await course()).reserved).toContain(sessionId);
    expect(await held()).toContain(sessionId);

    // The reactor books one job, a minute after the cancellation, for the credit the event decided
    const closing = await closingEvent(sessionId);
    const jobs = sessionSettlementReactor.jobsFor(closing);
    expect(jobs.map((j) => [j.queue, j.startAfter?.getTime()])).toEqual([
      [SESSION_SETTLEMENT_QUEUE, closing.recordedAt.getTime() + SETTLEMENT_DELAY_MS],
    ]);
    expect(jobs[0]?.data).toMatchObject({ sessionId, tutorId, courseId, credit: 'released', eventId: closing.id });
    expect(sessionSettlementReactor.jobsFor(closing).map((j) => j.id)).toEqual(jobs.map((j) => j.id));

    // When the job runs, the credit comes back and the hour is free
    const job = jobs[0]?.data as unknown as SessionSettlementJob;
    expect(await settleClosedSession(system.store, job, system.clock.now())).not.toBeNull();
    expect((await course()).reserved).not.toContain(sessionId);
    expect(sessionsRemainingOf(await course())).toBe(free + 1);
    expect(await held()).not.toContain(sessionId);

    // Then running it again (a retried job: the same command ids) appends nothing
    const before = await settlementStreams();
    await settleClosedSession(system.store, job, system.clock.now());
    expect(await settlementStreams()).toEqual(before);
  });

  it('forfeits the credit of a late cancellation and frees the hour', async () => {
    // Given a session cancelled two hours before its start by a request that died before settling
    const { sessionId, start } = await booked(4);
    await handlers().sessions.handle(
      sessionId,
      { type: 'CancelSession', data: { sessionId, reason: 'Sick' } },
      commandContext({ actorId: sam.userId, actorRole: 'student', now: new Date(Date.parse(start) - 2 * HOUR) }),
    );
    const job = await settlementJob(sessionId);
    expect(job.credit).toBe('forfeited');
    const free = sessionsRemainingOf(await course());

    // When the job runs, the credit counts as used and the hour is free
    await settleClosedSession(system.store, job, system.clock.now());
    const after = await course();
    expect(after.reserved).not.toContain(sessionId);
    expect(after.used).toContain(sessionId);
    expect(sessionsRemainingOf(after)).toBe(free);
    expect(await held()).not.toContain(sessionId);
  });

  it('uses the credit of a session completed by a request that died before settling', async () => {
    // Given a session its tutor completed, the credit still reserved
    const { sessionId, start } = await booked(5);
    await handlers().sessions.handle(
      sessionId,
      { type: 'CompleteSession', data: { sessionId, notes: 'Fractions done' } },
      commandContext({ actorId: tutorId, actorRole: 'tutor', now: new Date(Date.parse(start) + HOUR) }),
    );
    expect((await course()).reserved).toContain(sessionId);
    const job = await settlementJob(sessionId);
    expect(job.credit).toBe('consumed');

    // When the job runs, the credit is used
    await settleClosedSession(system.store, job, system.clock.now());
    const after = await course();
    expect(after.reserved).not.toContain(sessionId);
    expect(after.used).toContain(sessionId);
    const before = await settlementStreams();
    await settleClosedSession(system.store, job, system.clock.now());
    expect(await settlementStreams()).toEqual(before);
  });
});

describe('the settlement job after a request that settled', () => {
  it('appends nothing after a cancellation, an admin’s cancellation on someone’s behalf or a completion', async () => {
    // Given sessions closed by the whole process (credit and hour settled by the request)
    const cancelled = await booked(6);
    await cancelSession(
      handlers(),
      ports(),
      { sessionId: cancelled.sessionId, reason: 'Exam moved' },
      commandContext({ actorId: sam.userId, actorRole: 'student', now: new Date(Date.parse(cancelled.start) - 2 * 24 * HOUR) }),
    );
    const onBehalf = await booked(7);
    await cancelSession(
      handlers(),
      ports(),
      { sessionId: onBehalf.sessionId, reason: 'Tutor away', onBehalf: { creditPolicy: 'refundCredit' } },
      commandContext({ actorId: 'admin', actorRole: 'admin', now: new Date(Date.parse(onBehalf.start) - HOUR) }),
    );
    const completed = await booked(8);
    await completeSession(
      handlers(),
      ports(),
      { sessionId: completed.sessionId, notes: 'Done' },
      commandContext({ actorId: tutorId, actorRole: 'tutor', now: new Date(Date.parse(completed.start) + HOUR) }),
    );
    const state = await course();
    expect(state.reserved).not.toContain(cancelled.sessionId);
    expect(state.reserved).not.toContain(onBehalf.sessionId);
    expect(state.used).toContain(completed.sessionId);
    expect(await held()).not.toContain(cancelled.sessionId);

    // When their settlement jobs run, then nothing is appended
    const before = await settlementStreams();
    for (const { sessionId } of [cancelled, onBehalf, completed]) {
      expect(await settleClosedSession(system.store, await settlementJob(sessionId), system.clock.now())).toBeNull();
    }
    expect(await settlementStreams()).toEqual(before);
  });

  it('books no job for the other events of a session', async () => {
    const { sessionId } = await booked(9);
    const [bookedEvent] = await system.store.readStream(`session-${sessionId}`);
    if (!bookedEvent) throw new Error('no booking recorded');
    expect(sessionSettlementReactor.jobsFor(bookedEvent)).toEqual([]);
  });
});
