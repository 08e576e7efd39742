import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { projectors } from '../projectors.ts';
import { calendarSyncSummary } from './calendarSyncStatus.ts';
import { findSession, listTutorSessions } from './queries.ts';
import { sessionsProjector } from './sessionsProjector.ts';

const HOUR = 3_600_000;
const now = new Date('2026-11-23T12:00:00.000Z');
const inHours = (h: number) => new Date(now.getTime() + h * HOUR).toISOString();
const tutorId = 'cal-t1';

const booked = (sessionId: string, start: string) =>
  event(`session-${sessionId}`, 'SessionBooked', {
    sessionId,
    tutorId,
    studentId: 'st1',
    studentUserId: 'u1',
    courseId: 'c1',
    subjectId: 'math',
    subjectName: 'Math',
    start,
    end: new Date(Date.parse(start) + HOUR).toISOString(),
    durationMinutes: 60,
    notes: 'Math tutoring session',
    bookedBy: 'u1',
    bookedByRole: 'student',
    tutorTimeZone: 'America/New_York',
    studentTimeZone: 'America/Toronto',
    at: now.toISOString(),
  });
const written = (sessionId: string, start: string, at: string, meetingLink: string | null = `https://meet.google.com/${sessionId}`) =>
  event(`sessionCalendar-${sessionId}`, 'SessionCalendarEventWritten', {
    sessionId,
    tutorId,
    calendarEventId: `ev${sessionId}`,
    start,
    end: new Date(Date.parse(start) + HOUR).toISOString(),
    meetingLink,
    at,
  });

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])(
  'the calendar side of the sessions read model, batches of $batchSize',
  ({ batchSize }) => {
    let db: TestDatabase;
    let spec: ProjectionSpec;
    beforeAll(async () => {
      db = await createTestDatabase('calsync');
      await migrate(db.sql);
      spec = await projectionSpec(db.sql, projectors, { batchSize });
      expect(projectors).toContain(sessionsProjector);
    });
    afterAll(() => db.drop());

    it('shows the Meet link and event id once written, pending again after a move until the event follows', async () => {
      await spec.given(booked('s1', inHours(24)));
      expect(await calendarSyncSummary(db.sql, tutorId, now)).toEqual({
        totalSessions: 1,
        syncedSessions: 0,
        failedSessions: 0,
        pendingSessions: 1,
        lastSyncTime: null,
      });
      await spec.given(written('s1', inHours(24), inHours(0.1)));
      const [session] = await listTutorSessions(db.sql, tutorId);
      expect(session).toMatchObject({ meetingLink: 'https://meet.google.com/s1', googleCalendarEventId: 'evs1' });
      expect(await calendarSyncSummary(db.sql, tutorId, now)).toMatchObject({
        syncedSessions: 1,
        pendingSessions: 0,
        lastSyncTime: inHours(0.1),
      });

      await spec.given(
        event('session-s1', 'SessionRescheduled', {
          sessionId: 's1',
          tutorId,
          studentId: 'st1',
          previousStart: inHours(24),
          previousEnd: inHours(25),
          start: inHours(48),
          end: inHours(49),
          rescheduledBy: tutorId,
          rescheduledByRole: 'tutor',
          timeZone: 'America/New_York',
          at: inHours(0.2),
        }),
      );
      expect(await calendarSyncSummary(db.sql, tutorId, now)).toMatchObject({ syncedSessions: 0, pendingSessions: 1 });
      // A late write of the old hour does not count as the new one synced.
      await spec.given(written('s1', inHours(24), inHours(0.25)));
      expect(await calendarSyncSummary(db.sql, tutorId, now)).toMatchObject({ syncedSessions: 0, pendingSessions: 1 });
      await spec.given(written('s1', inHours(48), inHours(0.3)));
      expect(await calendarSyncSummary(db.sql, tutorId, now)).toMatchObject({
        syncedSessions: 1,
        pendingSessions: 0,
        lastSyncTime: inHours(0.3),
      });
    });

    it('counts failures; a lost event drops its link until written again; past sessions leave the card', async () => {
      await spec.given(
        booked('s2', inHours(30)),
        event('sessionCalendar-s2', 'SessionCalendarSyncFailed', {
          sessionId: 's2',
          tutorId,
          start: inHours(30),
          reason: 'forbidden',
          message: 'Calendar Permission Error',
          attempts: 1,
          at: inHours(0.4),
        }),
        booked('s3', inHours(-5)),
        booked('s4', inHours(50)),
        written('s4', inHours(50), inHours(0.5)),
        event('sessionCalendar-s4', 'SessionCalendarEventLost', { sessionId: 's4', tutorId, calendarEventId: 'evs4', at: inHours(0.6) }),
      );
      expect(await calendarSyncSummary(db.sql, tutorId, now)).toMatchObject({
        totalSessions: 3,
        syncedSessions: 1,
        failedSessions: 1,
        pendingSessions: 1,
      });
      expect(await findSession(db.sql, 's4')).not.toBeNull();
      expect((await listTutorSessions(db.sql, tutorId)).find((s) => s.id === 's4')).toMatchObject({
        meetingLink: null,
        googleCalendarEventId: null,
      });
    });

    it('a rebuild from the log yields exactly the live rows', async () => {
      const live = await spec.snapshot();
      await spec.rebuild();
      expect(await spec.snapshot()).toEqual(live);
      expect(spec.failures()).toEqual([]);
    });
  },
);
