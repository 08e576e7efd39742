import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInvite } from '../../../tests/support/iCalendar.ts';
import {
  appendBookedSession,
  appendCancelled,
  appendRescheduled,
  hourFromNow,
  registeredParent,
  registeredStudent,
} from '../../../tests/support/sessions.ts';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { approvedTutor } from '../../../tests/support/tutors.ts';
import type { RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import { sessionUid } from '../../domain/sessions/sessionNotices.ts';
import { waitForProjections } from '../../projections/runner/projectionRunner.ts';
import {
  type ReminderJob,
  reminderId,
  SESSION_REMINDER_QUEUE,
  sendSessionReminder,
  sessionReminderReactor,
  sessionTimeIn,
} from './sessionReminders.ts';

const HOUR = 3_600_000;
const booked = (sessionId: string, start: Date, at = new Date()) =>
  ({
    id: randomUUID(),
    type: 'SessionBooked',
    streamId: `session-${sessionId}`,
    revision: 0,
    position: '0',
    recordedAt: at,
    metadata: {},
    // The reactor parses what it is given: a booking as the log holds one.
    data: {
      sessionId: sessionId,
      tutorId: 't1',
      studentId: 'st1',
      studentUserId: 'u1',
      courseId: 'c1',
      subjectId: 'sub1',
      subjectName: 'Math',
      start: start.toISOString(),
      end: new Date(start.getTime() + 3_600_000).toISOString(),
      durationMinutes: 60,
      notes: '',
      bookedBy: 'u1',
      bookedByRole: 'parent',
      tutorTimeZone: 'America/Toronto',
      studentTimeZone: 'America/Toronto',
      at: new Date().toISOString(),
    },
  }) satisfies RecordedEvent;

describe('reminder jobs', () => {
  it('books a reminder a day and an hour before the start, each waiting until its time', () => {
    const start = new Date(Date.now() + 72 * HOUR);
    const jobs = sessionReminderReactor.jobsFor(booked('s1', start));
    expect(jobs.map((j) => [j.data.kind, j.startAfter?.getTime()])).toEqual([
      ['day', start.getTime() - 24 * HOUR],
      ['hour', start.getTime() - HOUR],
    ]);
    expect(jobs.every((j) => j.queue === SESSION_REMINDER_QUEUE)).toBe(true);
    // the same event replayed books the same jobs
    expect(sessionReminderReactor.jobsFor(booked('s1', start)).map((j) => j.id)).toEqual(jobs.map((j) => j.id));
  });

  it('leaves out a reminder whose time passed when the session was booked', () => {
    expect(sessionReminderReactor.jobsFor(booked('s2', new Date(Date.now() + 5 * HOUR))).map((j) => j.data.kind)).toEqual(['hour']);
    expect(sessionReminderReactor.jobsFor(booked('s3', new Date(Date.now() + 30 * 60_000)))).toEqual([]);
  });

  it('writes the time in the reader’s zone, daylight saving included', () => {
    expect(sessionTimeIn('2026-12-01T20:00:00.000Z', 'America/New_York')).toBe('Tuesday, December 1, 2026 at 3:00 PM (EST)');
    expect(sessionTimeIn('2026-07-01T19:00:00.000Z', 'America/Toronto')).toBe('Wednesday, July 1, 2026 at 3:00 PM (EDT)');
  });
});

describe('sending reminders', () => {
  let system: TestSystem;
  let parentId: string;
  let studentId: string;
  let tutorId: string;

  beforeAll(async () => {
    system = await createTestSystem('all');
    ({ userId: parentId } = await registeredParent(system, 'rem-parent'));
    ({ studentId } = await registeredStudent(system, 'rem-kid', { parentId }));
    ({ tutorId } = await approvedTutor(system, 'rem-tutor', { firstName: 'Maya', lastName: 'Okafor' }));
    expect(await waitForProjections(system.sql, ['users', 'students'], await system.store.committedPosition(), 30_000)).toBe(true);
  }, 60_000);
  afterAll(() => system.dispose());

  /** The reminders in the dev mailbox (registration mails aside). */
  const mailsTo = async (address: string) =>
    ((await system.mailer.mailbox?.list({ to: address })) ?? []).filter((m) => m.subject.startsWith('Reminder:'));

  const parties = () => ({ tutorId, studentId, studentUserId: studentId });
  const deps = () => ({ sql: system.sql, store: system.store, mailer: system.mailer, mailFrom: system.config.MAIL_FROM });

  it('mails the parent and the tutor once, however often the job runs; a moved or cancelled session drops its reminder', async () => {
    const start = new Date(hourFromNow(72));
    const sessionId = await appendBookedSession(system.store, parties(), start.toISOString(), { tutorTimeZone: 'America/Toronto' });
    const day: ReminderJob = { sessionId, start: start.toISOString(), kind: 'day' };

    expect(await sendSessionReminder(deps(), day)).toBe('sent');
    expect(await sendSessionReminder(deps(), day)).toBe('sent');
    const toParent = await mailsTo('rem-parent@example.com');
    expect(toParent).toHaveLength(1);
    expect(toParent[0]?.subject).toBe('Reminder: your Topmark session is tomorrow');
    expect(toParent[0]?.text).toContain('the Math (Grade 10 & Under) session starts tomorrow');
    // with the session's calendar file as it is (the same UID as its other notices)
    expect(parseInvite(toParent[0]?.attachments[0]?.content ?? '')).toMatchObject({
      method: 'REQUEST',
      uid: sessionUid(sessionId),
      sequence: 0,
      start: start.toISOString(),
    });
    expect(await mailsTo('student-rem-kid@example.com')).toHaveLength(0);
    expect(await mailsTo('tutor-rem-tutor@example.com').then((m) => m.length)).toBe(1);

    // The reactor booked both reminders of that start in the queue, to run at their times.
    const queued = async () =>
      system.sql<{ id: string; start_after: Date }[]>`
        SELECT id, start_after FROM pgboss.job WHERE name = ${SESSION_REMINDER_QUEUE} AND data->>'sessionId' = ${sessionId}`;
    await expect.poll(async () => (await queued()).length, { timeout: 20_000 }).toBe(2);
    expect((await queued()).map((j) => j.id).sort()).toEqual([reminderId(day), reminderId({ ...day, kind: 'hour' })].sort());

    const moved = new Date(start.getTime() + 24 * HOUR).toISOString();
    await appendRescheduled(system.store, { ...parties(), sessionId }, start.toISOString(), moved, 0);
    expect(await sendSessionReminder(deps(), { ...day, kind: 'hour' })).toBe('moved');
    await expect.poll(async () => (await queued()).length, { timeout: 20_000 }).toBe(4);
    expect(await sendSessionReminder(deps(), { sessionId, start: moved, kind: 'hour' })).toBe('sent');
    const moved1h = (await mailsTo('rem-parent@example.com')).find((m) => m.subject.includes('one hour'));
    expect(parseInvite(moved1h?.attachments[0]?.content ?? '')).toMatchObject({ sequence: 1, start: moved });
    expect((await mailsTo('rem-parent@example.com')).map((m) => m.subject).sort()).toEqual([
      'Reminder: your Topmark session is tomorrow',
      'Reminder: your Topmark session starts in one hour',
    ]);

    await appendCancelled(system.store, { ...parties(), sessionId }, moved, 1);
    expect(await sendSessionReminder(deps(), { sessionId, start: moved, kind: 'day' })).toBe('gone');
    expect(await mailsTo('rem-parent@example.com')).toHaveLength(2);
  }, 60_000);
});
