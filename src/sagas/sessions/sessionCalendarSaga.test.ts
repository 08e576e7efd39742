import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGoogleCalendarServer } from '../../../tests/fakes/fakeGoogleCalendarServer.ts';
import {
  appendBookedSession,
  appendCancelled,
  appendRescheduled,
  hourFromNow,
  registeredStudent,
} from '../../../tests/support/sessions.ts';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor } from '../../../tests/support/tutors.ts';
import { CalendarError, type CalendarEvent } from '../../adapters/calendar/calendarPort.ts';
import { GoogleCalendar } from '../../adapters/calendar/google/googleCalendar.ts';
import { commandContext } from '../../commands/kit/commandContext.ts';
import { resyncTutorCalendar, sessionEventIdOf, syncSessionCalendar } from '../../commands/sessions/sessionCalendarSync.ts';
import { openTutorCalendar } from '../../commands/tutors/tutorCalendar.ts';
import { sessionCalendarStreamId } from '../../domain/sessions/sessionCalendar.ts';
import { waitForProjections } from '../../projections/runner/projectionRunner.ts';
import { CALENDAR_RETRY_LIMIT } from './sessionCalendarSaga.ts';

/**
 * The calendar saga against a local server speaking Google Calendar's wire format, with the
 * provider failing on purpose. The system runs projections but no workers: the test plays the
 * queue, calling the job the way pg-boss would (retry counts included).
 */
const oauthClient = { clientId: 'client-123.apps.googleusercontent.com', clientSecret: 'GOCSPX-secret' };
const HOUR = 3_600_000;
let fake: FakeGoogleCalendarServer;
let system: TestSystem;
let tutor: ApprovedTutor;
let studentId: string;
let studentUserId: string;

beforeAll(async () => {
  fake = await FakeGoogleCalendarServer.start(oauthClient);
  system = await createTestSystem(
    'projector',
    {},
    { calendar: new GoogleCalendar({ oauthClient, rootUrl: fake.rootUrl, tokenUrl: fake.tokenUrl }) },
  );
  tutor = await approvedTutor(system, 'cal-saga');
  const tokens = fake.addUser(tutor.email);
  await system.accounts.handlers.users.handle(
    tutor.userId,
    {
      type: 'LinkGoogleAccount',
      data: {
        userId: tutor.userId,
        googleId: 'google-tutor-cal-saga',
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        tokenExpiry: tokens.expiresAt.toISOString(),
        emailVerifiedByProvider: true,
        matchedBy: 'google',
      },
    },
    commandContext({ now: system.clock.now() }),
  );
  ({ studentId, userId: studentUserId } = await registeredStudent(system, 'cal-saga'));
}, 60_000);
afterAll(async () => {
  await system?.dispose();
  await fake?.close();
});

const calendar = async () => (await openTutorCalendar(system, tutor.tutorId)).calendar;
/** The saga's ports: the system's, with the tutor's calendar opened as the saga opens it. */
const deps = () => ({
  sql: system.sql,
  store: system.store,
  openCalendar: async (id: string) => (await openTutorCalendar(system, id)).calendar,
  clock: system.clock,
});
const sessionEvents = async (sessionId: string): Promise<CalendarEvent[]> =>
  (await calendar()).listEvents({
    from: new Date(Date.now() - 24 * HOUR).toISOString(),
    to: new Date(Date.now() + 40 * 24 * HOUR).toISOString(),
    privateProperty: { key: 'topmarkSessionId', value: sessionId },
  });
const typesOf = async (sessionId: string) => (await system.store.readStream(sessionCalendarStreamId(sessionId))).map((e) => e.type);

const nextHour = (daysAhead: number) => hourFromNow(daysAhead * 24);

const parties = () => ({ tutorId: tutor.tutorId, studentId, studentUserId });
const book = (start: string) => appendBookedSession(system.store, parties(), start, { subjectName: 'Chemistry', notes: 'Stoichiometry' });

/** Runs the job as pg-boss would: again after each retryable failure, with the retry count. */
async function runJob(sessionId: string) {
  for (let retryCount = 0; ; retryCount++) {
    try {
      return { outcome: await syncSessionCalendar(deps(), sessionId, { retryCount, retryLimit: CALENDAR_RETRY_LIMIT }), retryCount };
    } catch (error) {
      expect(error).toBeInstanceOf(CalendarError);
      expect((error as CalendarError).retryable).toBe(true);
      if (retryCount >= CALENDAR_RETRY_LIMIT) throw error;
    }
  }
}

const unavailable = (status: number) => ({ path: /\/events/, status, body: { error: { code: status, message: 'Backend Error' } } });

describe('the session calendar saga on Google', () => {
  it('gets through 500s, a 429 and a 503: one event with a Meet link and the student invited, recorded once', async () => {
    const sessionId = await book(nextHour(3));
    fake.failures.push(unavailable(500), unavailable(429), unavailable(503), unavailable(500));
    const { outcome, retryCount } = await runJob(sessionId);
    expect(outcome).toBe('written');
    expect(retryCount).toBeGreaterThan(0);
    const events = await sessionEvents(sessionId);
    expect(events).toHaveLength(1);
    expect(events[0]?.id).toBe(sessionEventIdOf(sessionId, 0));
    expect(events[0]?.meetingLink).toMatch(/^https:\/\/meet\.google\.com\//);
    expect(events[0]?.attendees.map((a) => a.email)).toEqual(['student-cal-saga@example.com']);
    expect(await typesOf(sessionId)).toEqual(['SessionCalendarEventWritten']);
    // The job again (a replayed event, a duplicate delivery): nothing more.
    expect((await runJob(sessionId)).outcome).toBe('unchanged');
    expect(await sessionEvents(sessionId)).toHaveLength(1);
  });

  it('five deliveries of the same job at once still make one event', async () => {
    const sessionId = await book(nextHour(4));
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => runJob(sessionId).then((r) => r.outcome)));
    expect(outcomes).toContain('written');
    expect(await sessionEvents(sessionId)).toHaveLength(1);
    expect((await typesOf(sessionId)).filter((t) => t === 'SessionCalendarEventWritten')).toHaveLength(1);
  });

  it('moves the event with a rescheduled session and deletes it with a cancelled one', async () => {
    const start = nextHour(5);
    const sessionId = await book(start);
    await runJob(sessionId);
    const moved = nextHour(6);
    await appendRescheduled(system.store, { ...parties(), sessionId }, start, moved, 0);
    expect((await runJob(sessionId)).outcome).toBe('written');
    const [event] = await sessionEvents(sessionId);
    expect(event && 'dateTime' in event.start && Date.parse(event.start.dateTime)).toBe(Date.parse(moved));
    await appendCancelled(system.store, { ...parties(), sessionId }, moved, 1);
    expect((await runJob(sessionId)).outcome).toBe('removed');
    expect(await sessionEvents(sessionId)).toEqual([]);
    expect(await typesOf(sessionId)).toEqual(['SessionCalendarEventWritten', 'SessionCalendarEventWritten', 'SessionCalendarEventRemoved']);
  });

  it('records a failure the tutor must mend at once, and an outage once its retries are spent', async () => {
    const forbidden = await book(nextHour(7));
    fake.failures.push({
      path: /\/events/,
      status: 403,
      body: {
        error: { code: 403, message: 'You need to have writer access to this calendar.', errors: [{ reason: 'requiredAccessLevel' }] },
      },
    });
    expect((await runJob(forbidden)).outcome).toBe('failed');
    const [failed] = await system.store.readStream(sessionCalendarStreamId(forbidden));
    expect(failed?.type).toBe('SessionCalendarSyncFailed');
    expect((failed?.data as { message: string } | undefined)?.message).toContain('writer access');

    const outage = await book(nextHour(8));
    for (let i = 0; i <= CALENDAR_RETRY_LIMIT + 1; i++) fake.failures.push(unavailable(500));
    expect((await runJob(outage)).outcome).toBe('failed');
    expect(await typesOf(outage)).toEqual(['SessionCalendarSyncFailed']);
    fake.failures.length = 0;
  });

  it('the resync recreates an event deleted in the calendar and flags one moved there', async () => {
    const deleted = await book(nextHour(9));
    const movedThere = await book(nextHour(10));
    await runJob(deleted);
    await runJob(movedThere);
    expect(await waitForProjections(system.sql, ['sessions'], await system.store.committedPosition(), 30_000)).toBe(true);
    const cal = await calendar();
    await cal.deleteEvent(sessionEventIdOf(deleted, 0));
    const elsewhere = new Date(Date.parse(nextHour(10)) + 2 * HOUR).toISOString();
    await cal.updateEvent(sessionEventIdOf(movedThere, 0), {
      start: { dateTime: elsewhere, timeZone: 'America/Toronto' },
      end: { dateTime: new Date(Date.parse(elsewhere) + HOUR).toISOString(), timeZone: 'America/Toronto' },
    });

    const result = await resyncTutorCalendar(deps(), tutor.tutorId);
    expect(result.errors).toEqual([]);
    expect(result.updatedSessions).toBeGreaterThanOrEqual(1);
    const recreated = await sessionEvents(deleted);
    expect(recreated.map((e) => e.id)).toEqual([sessionEventIdOf(deleted, 1)]);
    expect(await typesOf(deleted)).toEqual(['SessionCalendarEventWritten', 'SessionCalendarEventLost', 'SessionCalendarEventWritten']);
    expect(await typesOf(movedThere)).toEqual(['SessionCalendarEventWritten', 'SessionCalendarEventMoved']);
    // Once flagged, a move is not flagged again.
    await resyncTutorCalendar(deps(), tutor.tutorId);
    expect(await typesOf(movedThere)).toEqual(['SessionCalendarEventWritten', 'SessionCalendarEventMoved']);
  });
});
