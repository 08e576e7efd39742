import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendBookedSession, hourFromNow, registeredStudent } from '../../../../tests/support/sessions.ts';
import { createTestSystem, type TestSystem } from '../../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor } from '../../../../tests/support/tutors.ts';
import { sessionEventIdOf } from '../../../commands/sessions/sessionCalendarSync.ts';
import { SESSION_EVENTS_ARE_READ_ONLY } from '../../../commands/tutors/calendarEvents.ts';
import { sendInviteAnswerSchema, syncCalendarAnswerSchema, syncStatusSchema } from '../../../domain/sessions/sessionCalendarApi.ts';
import { NO_CALENDAR_EVENT } from '../../../domain/sessions/sessionCalendarDecider.ts';
import { calendarEventListSchema } from '../../../domain/tutors/calendarEventsApi.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { buildApp } from '../../app.ts';

/** The sync card's calls and Send Invite, on the sandbox calendar; no workers run, so only these calls sync. */
let system: TestSystem;
let app: FastifyInstance;
let tutor: ApprovedTutor;
let otherTutor: ApprovedTutor;
let studentCookie: string;
let studentId: string;
let studentUserId: string;

beforeAll(async () => {
  system = await createTestSystem('projector');
  app = await buildApp(system, { logger: false });
  tutor = await approvedTutor(system, 'sync-routes');
  otherTutor = await approvedTutor(system, 'sync-other');
  const student = await registeredStudent(system, 'sync-routes');
  ({ studentId, userId: studentUserId, cookie: studentCookie } = student);
}, 60_000);
afterAll(async () => {
  await app?.close();
  await system?.dispose();
});

const caughtUp = async () =>
  expect(await waitForProjections(system.sql, ['sessions'], await system.store.committedPosition(), 30_000)).toBe(true);

async function book(hoursAhead: number): Promise<string> {
  const sessionId = await appendBookedSession(system.store, { tutorId: tutor.tutorId, studentId, studentUserId }, hourFromNow(hoursAhead));
  await caughtUp();
  return sessionId;
}

const call = (method: 'GET' | 'POST', url: string, cookie: string) => app.inject({ method, url, headers: { cookie } });

describe('calendar sync over HTTP', () => {
  it('reports the sync card, syncs on demand, then sends the invitation with the Meet link', async () => {
    const sessionId = await book(48);
    const before = syncStatusSchema.parse((await call('GET', `/api/tutor/${tutor.tutorId}/sync-status`, tutor.cookie)).json());
    expect(before).toEqual({ totalSessions: 1, syncedSessions: 0, failedSessions: 0, pendingSessions: 1, lastSyncTime: null });

    const synced = await call('POST', `/api/tutor/${tutor.tutorId}/sync-calendar`, tutor.cookie);
    expect(synced.statusCode, synced.body).toBe(200);
    expect(syncCalendarAnswerSchema.parse(synced.json())).toEqual({ success: true, updatedSessions: 1, errors: [] });
    await caughtUp();
    const after = syncStatusSchema.parse((await call('GET', `/api/tutor/${tutor.tutorId}/sync-status`, tutor.cookie)).json());
    expect(after).toMatchObject({ totalSessions: 1, syncedSessions: 1, pendingSessions: 0 });
    expect(after.lastSyncTime).toEqual(expect.any(String));
    // Nothing left to do: a second sync changes nothing.
    expect((await call('POST', `/api/tutor/${tutor.tutorId}/sync-calendar`, tutor.cookie)).json()).toMatchObject({ updatedSessions: 0 });

    // The session's event shows in the tutor's calendar as the session, read-only: only Topmark moves it.
    const eventId = sessionEventIdOf(sessionId, 0);
    const listed = await call('GET', `/api/tutor/calendar/events?to=${encodeURIComponent(hourFromNow(96))}`, tutor.cookie);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(calendarEventListSchema.parse(listed.json()).items).toEqual([
      expect.objectContaining({ id: eventId, kind: 'session', readOnly: true }),
    ]);
    const removal = await app.inject({ method: 'DELETE', url: `/api/tutor/calendar/events/${eventId}`, headers: { cookie: tutor.cookie } });
    expect(removal.statusCode, removal.body).toBe(409);
    expect(removal.json().message).toBe(SESSION_EVENTS_ARE_READ_ONLY);

    const invited = await call('POST', `/api/sessions/${sessionId}/send-invite`, tutor.cookie);
    expect(invited.statusCode, invited.body).toBe(200);
    expect(sendInviteAnswerSchema.parse(invited.json()).meetingLink).toMatch(/^https:\/\/meet\.sandbox\.topmark\.invalid\//);
  });

  it('refuses another tutor, a student and unknown ids; no event yet is a 409 with the spec’s hint', async () => {
    const sessionId = await book(72);
    expect((await call('GET', `/api/tutor/${tutor.tutorId}/sync-status`, otherTutor.cookie)).statusCode).toBe(403);
    expect((await call('POST', `/api/tutor/${tutor.tutorId}/sync-calendar`, otherTutor.cookie)).statusCode).toBe(403);
    expect((await call('POST', `/api/sessions/${sessionId}/send-invite`, otherTutor.cookie)).statusCode).toBe(403);
    expect((await call('GET', `/api/tutor/${tutor.tutorId}/sync-status`, studentCookie)).statusCode).toBe(403);
    expect((await call('GET', `/api/tutor/${randomUUID()}/sync-status`, tutor.cookie)).statusCode).toBe(404);
    expect((await call('POST', `/api/sessions/${randomUUID()}/send-invite`, tutor.cookie)).statusCode).toBe(404);
    const early = await call('POST', `/api/sessions/${sessionId}/send-invite`, tutor.cookie);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(NO_CALENDAR_EVENT);
  });
});
