import { describe, expect, it } from 'vitest';
import { parseInvite } from '../../../tests/support/iCalendar.ts';
import type { SessionBookedData } from './session.ts';
import {
  calendarSequence,
  type NoticeNames,
  type NoticeReader,
  noticeFactsAt,
  reminderFactsOf,
  type SessionStreamEvent,
  sessionNoticeMail,
  sessionTimeIn,
  sessionUid,
} from './sessionNotices.ts';

const START = '2026-12-01T20:00:00.000Z';
const END = '2026-12-01T21:00:00.000Z';
const booked: SessionBookedData = {
  sessionId: 's1',
  tutorId: 'tutor-1',
  studentId: 'student-1',
  studentUserId: 'kid-1',
  courseId: 'c1',
  subjectId: 'math',
  subjectName: 'Math (Grade 10 & Under)',
  start: START,
  end: END,
  durationMinutes: 60,
  notes: 'Fractions',
  bookedBy: 'parent-1',
  bookedByRole: 'parent',
  tutorTimeZone: 'America/Vancouver',
  studentTimeZone: 'America/New_York',
  at: '2026-11-20T12:00:00.000Z',
};

let n = 0;
const recorded = (event: Omit<SessionStreamEvent, 'id' | 'recordedAt'>, at = '2026-11-20T12:00:00.000Z'): SessionStreamEvent =>
  ({ ...event, id: `e${++n}`, recordedAt: new Date(at) }) as SessionStreamEvent;

const bookedEvent = () => recorded({ type: 'SessionBooked', data: booked });
const moved = (previousStart: string, start: string, by = 'tutor-1', role = 'tutor') =>
  recorded(
    {
      type: 'SessionRescheduled',
      data: {
        sessionId: 's1',
        tutorId: 'tutor-1',
        studentId: 'student-1',
        previousStart,
        previousEnd: new Date(Date.parse(previousStart) + 3_600_000).toISOString(),
        start,
        end: new Date(Date.parse(start) + 3_600_000).toISOString(),
        rescheduledBy: by,
        rescheduledByRole: role,
        timeZone: 'America/Vancouver',
        at: '2026-11-21T12:00:00.000Z',
      },
    },
    '2026-11-21T12:00:00.000Z',
  );
const cancelled = (over: {
  start?: string;
  by?: string;
  role?: string;
  notice?: number;
  credit?: 'released' | 'forfeited';
  policy?: 'rule' | 'refundCredit';
}) =>
  recorded(
    {
      type: 'SessionCancelled',
      data: {
        sessionId: 's1',
        tutorId: 'tutor-1',
        studentId: 'student-1',
        courseId: 'c1',
        start: over.start ?? START,
        end: END,
        cancelledBy: over.by ?? 'parent-1',
        cancelledByRole: over.role ?? 'parent',
        reason: 'Exam moved',
        noticeMinutes: over.notice ?? 24 * 60,
        credit: over.credit ?? 'released',
        ...(over.policy ? { creditPolicy: over.policy } : {}),
        tutorTimeZone: 'America/Vancouver',
        studentTimeZone: 'America/New_York',
        at: '2026-11-22T12:00:00.000Z',
      },
    },
    '2026-11-22T12:00:00.000Z',
  );
const completed = (notes: string) =>
  recorded({
    type: 'SessionCompleted',
    data: {
      sessionId: 's1',
      tutorId: 'tutor-1',
      studentId: 'student-1',
      studentUserId: 'kid-1',
      courseId: 'c1',
      completedBy: 'tutor-1',
      notes,
      at: '2026-12-01T21:05:00.000Z',
    },
  });

const parent: NoticeReader = { id: 'parent-1', email: 'pat@example.com', firstName: 'Pat', side: 'family', timeZone: 'America/New_York' };
const tutor: NoticeReader = { id: 'tutor-1', email: 'maya@example.com', firstName: 'Maya', side: 'tutor', timeZone: 'America/Vancouver' };
const names: NoticeNames = { tutor: 'Maya Okafor', student: 'Sam Student', people: new Map([['parent-1', 'Pat Parent']]) };
const options = { organizer: { name: 'Topmark', email: 'no-reply@topmark.example' }, dashboardUrl: 'https://topmark.example/dashboard' };

const mailOf = (stream: SessionStreamEvent[], eventId: string, reader: NoticeReader, readerNames: NoticeNames = names) => {
  const facts = noticeFactsAt(stream, eventId);
  if (!facts) throw new Error('no facts');
  return sessionNoticeMail(facts, reader, readerNames, options);
};

describe('session notices', () => {
  it('counts the changes of a session: booked 0, each move +1, the cancellation +1; a completion changes nothing', () => {
    const b = bookedEvent();
    const m1 = moved(START, '2026-12-02T20:00:00.000Z');
    const m2 = moved('2026-12-02T20:00:00.000Z', '2026-12-03T20:00:00.000Z');
    const c = cancelled({ start: '2026-12-03T20:00:00.000Z' });
    const stream = [b, m1, m2, c];
    expect([b, m1, m2, c].map((e) => noticeFactsAt(stream, e.id)?.sequence)).toEqual([0, 1, 2, 3]);
    expect(calendarSequence([b, m1, completed('ok')])).toBe(1);
    // each notice is of its own event: the booking's notice keeps the booked hour
    expect(noticeFactsAt(stream, b.id)).toMatchObject({ start: START, change: { kind: 'booked' } });
    expect(noticeFactsAt(stream, m2.id)).toMatchObject({
      start: '2026-12-03T20:00:00.000Z',
      change: { previousStart: '2026-12-02T20:00:00.000Z' },
    });
    expect(noticeFactsAt(stream, 'unknown')).toBeNull();
  });

  it('booked: the family and the tutor, each in their own zone, with an invitation (REQUEST, SEQUENCE 0)', () => {
    const b = bookedEvent();
    const toParent = mailOf([b], b.id, parent);
    expect(toParent.subject).toMatch(/^Session booked: Math \(Grade 10 & Under\), Tue, Dec 1, 3:00\sPM EST$/);
    expect(toParent.text).toContain('Hi Pat,');
    expect(toParent.text).toContain('You booked a Math (Grade 10 & Under) session with Maya Okafor.');
    expect(toParent.text).toContain(`When: ${sessionTimeIn(START, 'America/New_York')}`);
    expect(toParent.text).toContain('(EST)');
    expect(toParent.text).toContain('cancelling 12 hours or less before the start uses the session');

    const toTutor = mailOf([b], b.id, tutor);
    expect(toTutor.subject).toMatch(/12:00\sPM PST$/);
    expect(toTutor.text).toContain('Pat Parent booked a Math (Grade 10 & Under) session with you for Sam Student.');
    expect(toTutor.text).toContain(`When: ${sessionTimeIn(START, 'America/Vancouver')}`);
    expect(toTutor.text).not.toContain('cancelling 12 hours');

    expect(toParent.calendar).toMatchObject({
      filename: 'topmark-session.ics',
      contentType: 'text/calendar; charset=utf-8; method=REQUEST',
    });
    const invite = parseInvite(toParent.calendar.content);
    expect(invite).toMatchObject({
      method: 'REQUEST',
      uid: sessionUid('s1'),
      sequence: 0,
      status: 'CONFIRMED',
      start: START,
      end: END,
      stamp: '2026-11-20T12:00:00.000Z',
      summary: 'Topmark: Math (Grade 10 & Under) with Maya Okafor',
      organizer: 'mailto:no-reply@topmark.example',
      attendees: ['mailto:pat@example.com'],
    });
    // the tutor's file names the student and invites only the tutor
    expect(parseInvite(toTutor.calendar.content)).toMatchObject({
      uid: sessionUid('s1'),
      summary: 'Topmark: Math (Grade 10 & Under) with Sam Student',
      attendees: ['mailto:maya@example.com'],
    });
  });

  it('rescheduled twice: old and new time in the reader’s zone, SEQUENCE 2, same UID', () => {
    const b = bookedEvent();
    const m1 = moved(START, '2026-12-02T20:00:00.000Z');
    const m2 = moved('2026-12-02T20:00:00.000Z', '2026-12-03T17:30:00.000Z');
    const stream = [b, m1, m2];
    const toParent = mailOf(stream, m2.id, parent);
    expect(toParent.subject).toMatch(/^Session moved: Math \(Grade 10 & Under\), now Thu, Dec 3, 12:30\sPM EST$/);
    expect(toParent.text).toContain('Your tutor, Maya Okafor, moved the Math (Grade 10 & Under) session to a new time.');
    expect(toParent.text).toContain(`Was: ${sessionTimeIn('2026-12-02T20:00:00.000Z', 'America/New_York')}`);
    expect(toParent.text).toContain(`Now: ${sessionTimeIn('2026-12-03T17:30:00.000Z', 'America/New_York')}`);
    expect(toParent.text).toContain('moves the session in your calendar');
    const toTutor = mailOf(stream, m2.id, tutor);
    expect(toTutor.text).toContain('You moved the Math (Grade 10 & Under) session with Sam Student to a new time.');
    expect(toTutor.text).toContain(`Now: ${sessionTimeIn('2026-12-03T17:30:00.000Z', 'America/Vancouver')}`);
    const invite = parseInvite(toParent.calendar.content);
    expect(invite).toMatchObject({ method: 'REQUEST', uid: sessionUid('s1'), sequence: 2, start: '2026-12-03T17:30:00.000Z' });
    expect(parseInvite(mailOf(stream, m1.id, parent).calendar.content).sequence).toBe(1);
  });

  it('cancelled: who cancelled, the credit in plain words under the 12-hour rule, and a CANCEL above the last SEQUENCE', () => {
    const b = bookedEvent();
    const m1 = moved(START, '2026-12-02T20:00:00.000Z');
    const timely = cancelled({ start: '2026-12-02T20:00:00.000Z', notice: 13 * 60 });
    const stream = [b, m1, timely];
    const toParent = mailOf(stream, timely.id, parent);
    expect(toParent.subject).toMatch(/^Session cancelled: Math \(Grade 10 & Under\), Wed, Dec 2, 3:00\sPM EST$/);
    expect(toParent.text).toContain('You cancelled the Math (Grade 10 & Under) session with Maya Okafor.');
    expect(toParent.text).toContain('Reason given: Exam moved');
    expect(toParent.text).toContain('more than 12 hours before the start, so the session credit is back in your course');
    expect(toParent.text).toContain('removes the session from your calendar');
    expect(toParent.text).not.toContain('Google Meet link');
    const toTutor = mailOf(stream, timely.id, tutor);
    expect(toTutor.text).toContain('Pat Parent cancelled the Math (Grade 10 & Under) session with Sam Student.');
    expect(toTutor.text).toContain('so the family gets the session credit back');

    expect(toParent.calendar).toMatchObject({
      filename: 'topmark-session-cancelled.ics',
      contentType: 'text/calendar; charset=utf-8; method=CANCEL',
    });
    const cancel = parseInvite(toParent.calendar.content);
    expect(cancel).toMatchObject({ method: 'CANCEL', uid: sessionUid('s1'), status: 'CANCELLED', start: '2026-12-02T20:00:00.000Z' });
    expect(cancel.sequence).toBeGreaterThanOrEqual(parseInvite(mailOf(stream, m1.id, parent).calendar.content).sequence);
    expect(cancel.sequence).toBe(2);

    const late = cancelled({ by: 'tutor-1', role: 'tutor', notice: 5 * 60, credit: 'forfeited' });
    const lateParent = mailOf([b, late], late.id, parent).text;
    expect(lateParent).toContain('Your tutor, Maya Okafor, cancelled the Math (Grade 10 & Under) session.');
    expect(lateParent).toContain(
      '12 hours or less before the start, so under the 12-hour rule the session counts as used: the credit does not come back.',
    );
    expect(mailOf([b, late], late.id, tutor).text).toContain('You cancelled the Math (Grade 10 & Under) session with Sam Student.');
    expect(mailOf([b, late], late.id, tutor).text).toContain('paid to you like a session you taught');

    const byAdmin = cancelled({ by: 'admin-1', role: 'admin', notice: 60, credit: 'released', policy: 'refundCredit' });
    const adminParent = mailOf([b, byAdmin], byAdmin.id, parent).text;
    expect(adminParent).toContain('A Topmark administrator cancelled the Math (Grade 10 & Under) session with Maya Okafor.');
    expect(adminParent).toContain('but Topmark gave the session credit back to your course');
    expect(mailOf([b, byAdmin], byAdmin.id, tutor).text).toContain('but Topmark gave the family the session credit back');
  });

  it('completed: the tutor’s report goes to the family only', () => {
    const b = bookedEvent();
    const done = completed('Worked on fractions; next: decimals.\nPractise 3 exercises.');
    const toParent = mailOf([b, done], done.id, parent);
    expect(toParent.subject).toMatch(/^Session report: Math \(Grade 10 & Under\)/);
    expect(toParent.text).toContain('Maya Okafor marked the Math (Grade 10 & Under) session as completed.');
    expect(toParent.text).toContain("Your tutor's report:\nWorked on fractions; next: decimals.\nPractise 3 exercises.");
    const toTutor = mailOf([b, done], done.id, tutor);
    expect(toTutor.subject).toMatch(/^Session completed: /);
    expect(toTutor.text).toContain('You marked the Math (Grade 10 & Under) session with Sam Student as completed.');
    expect(toTutor.text).not.toContain('fractions');
    expect(toTutor.calendar.content).not.toContain('fractions');
    expect(toParent.calendar.content).not.toContain('fractions');
    // the event stays in the calendars as it was
    expect(parseInvite(toParent.calendar.content)).toMatchObject({ method: 'REQUEST', sequence: 0, status: 'CONFIRMED' });
  });

  it('reminders: the session as it is now, with its current SEQUENCE; none for a moved or closed session', () => {
    const b = bookedEvent();
    const m1 = moved(START, '2026-12-02T20:00:00.000Z');
    const facts = reminderFactsOf([b, m1], '2026-12-02T20:00:00.000Z', 'day');
    expect(facts).toMatchObject({ sequence: 1, start: '2026-12-02T20:00:00.000Z' });
    if (!facts) throw new Error('no facts');
    const mail = sessionNoticeMail(facts, parent, names, options);
    expect(mail.subject).toBe('Reminder: your Topmark session is tomorrow');
    expect(mail.text).toContain('the Math (Grade 10 & Under) session starts tomorrow');
    expect(parseInvite(mail.calendar.content)).toMatchObject({ method: 'REQUEST', sequence: 1 });
    expect(reminderFactsOf([b, m1], START, 'day')).toBeNull();
    expect(reminderFactsOf([b, cancelled({})], START, 'hour')).toBeNull();
  });

  it('falls back to plain words when a name is unknown (a deleted account)', () => {
    const b = bookedEvent();
    const unknown: NoticeNames = { tutor: null, student: null, people: new Map() };
    expect(mailOf([b], b.id, parent, unknown).text).toContain('You booked a Math (Grade 10 & Under) session with your tutor.');
    expect(mailOf([b], b.id, tutor, unknown).text).toContain("The student's parent booked a Math (Grade 10 & Under) session with you.");
  });
});
