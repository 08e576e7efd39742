import type { calendar_v3 } from '@googleapis/calendar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGoogleCalendarServer } from '../../../tests/fakes/fakeGoogleCalendarServer.ts';
import { appendBookedSession, appendCancelled, hourFromNow, registeredStudent } from '../../../tests/support/sessions.ts';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor } from '../../../tests/support/tutors.ts';
import { GoogleCalendar } from '../../adapters/calendar/google/googleCalendar.ts';
import { commandContext } from '../../commands/kit/commandContext.ts';
import { ERASED_EVENT_DESCRIPTION, eraseSessionCalendar } from '../../commands/sessions/sessionCalendarErasure.ts';
import { sessionEventIdOf, syncSessionCalendar } from '../../commands/sessions/sessionCalendarSync.ts';
import { openTutorCalendar } from '../../commands/tutors/tutorCalendar.ts';
import { waitForProjections } from '../../projections/runner/projectionRunner.ts';

/**
 * The erasure's calendar job against a local server speaking Google Calendar's wire format: the
 * family leaves every event of their sessions through the API (events.patch: attendees,
 * summary, description), the cancelled copy Google keeps of a deleted event included.
 */
const oauthClient = { clientId: 'client-123.apps.googleusercontent.com', clientSecret: 'GOCSPX-secret' };
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
  tutor = await approvedTutor(system, 'cal-erasure');
  const tokens = fake.addUser(tutor.email);
  await system.accounts.handlers.users.handle(
    tutor.userId,
    {
      type: 'LinkGoogleAccount',
      data: {
        userId: tutor.userId,
        googleId: 'google-tutor-cal-erasure',
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        tokenExpiry: tokens.expiresAt.toISOString(),
        emailVerifiedByProvider: true,
        matchedBy: 'google',
      },
    },
    commandContext({ now: system.clock.now() }),
  );
  ({ studentId, userId: studentUserId } = await registeredStudent(system, 'cal-erasure', { firstName: 'Wilhelmina' }));
  if (!(await waitForProjections(system.sql, ['users', 'students'], await system.store.committedPosition(), 30_000)))
    throw new Error('the read models did not catch up');
}, 60_000);
afterAll(async () => {
  await system?.dispose();
  await fake?.close();
});

const deps = () => ({
  sql: system.sql,
  store: system.store,
  openCalendar: async (id: string) => (await openTutorCalendar(system, id)).calendar,
  clock: system.clock,
});
/** What the provider stores under the event's id, deleted events included (the API hides them). */
const stored = (sessionId: string): calendar_v3.Schema$Event | undefined =>
  (fake as unknown as { calendars: Map<string, { events: Map<string, calendar_v3.Schema$Event> }> }).calendars
    .get(tutor.email)
    ?.events.get(sessionEventIdOf(sessionId, 0));
const parties = () => ({ tutorId: tutor.tutorId, studentId, studentUserId });
const book = (start: string) =>
  appendBookedSession(system.store, parties(), start, { subjectName: 'Chemistry', notes: 'Saffron titration' });

describe('the erased family leaves Google Calendar', () => {
  it('a past event is kept without them; a cancelled one is deleted without them, whether the saga deleted it first or not', async () => {
    const past = await book(hourFromNow(-48));
    const ahead = await book(hourFromNow(72));
    const deletedFirst = await book(hourFromNow(96));
    for (const id of [past, ahead, deletedFirst]) expect(await syncSessionCalendar(deps(), id)).toBe('written');
    for (const id of [past, ahead, deletedFirst]) {
      expect(stored(id)?.attendees?.map((a) => a.email)).toEqual(['student-cal-erasure@example.com']);
      expect(stored(id)?.description).toContain('Saffron titration');
    }
    // Both future sessions are cancelled by the erasure; the saga deletes one before the erasure job runs.
    await appendCancelled(system.store, { ...parties(), sessionId: ahead }, hourFromNow(72), 0);
    await appendCancelled(system.store, { ...parties(), sessionId: deletedFirst }, hourFromNow(96), 0);
    expect(await syncSessionCalendar(deps(), deletedFirst)).toBe('removed');
    expect(stored(deletedFirst)?.status).toBe('cancelled');
    expect(stored(deletedFirst)?.attendees).toHaveLength(1);

    for (const id of [past, ahead, deletedFirst]) expect(await eraseSessionCalendar(deps(), id)).toBe(1);
    // Again (a retried job): nothing fails, nothing comes back.
    for (const id of [past, ahead, deletedFirst]) await eraseSessionCalendar(deps(), id);
    // The saga's own job after the erasure's: the event stays deleted.
    expect(await syncSessionCalendar(deps(), ahead)).toBe('removed');

    expect(stored(past)).toMatchObject({ status: 'confirmed', attendees: [], description: ERASED_EVENT_DESCRIPTION });
    for (const id of [ahead, deletedFirst]) {
      expect(stored(id)).toMatchObject({ status: 'cancelled', attendees: [], description: ERASED_EVENT_DESCRIPTION });
    }
    expect(JSON.stringify([stored(past), stored(ahead), stored(deletedFirst)])).not.toMatch(/Saffron|Wilhelmina|student-cal-erasure/);
  });

  it('a session whose event was never written: nothing to do, no call made', async () => {
    const never = await book(hourFromNow(120));
    const before = fake.calendarRequests().length;
    expect(await eraseSessionCalendar(deps(), never)).toBe(0);
    expect(fake.calendarRequests().length).toBe(before);
  });
});
