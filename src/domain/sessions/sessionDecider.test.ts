import { describe, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import type { SessionBookedData, SessionEvent } from './session.ts';
import {
  CANCEL_REASON_REQUIRED,
  CANCEL_REASON_TOO_LONG,
  COMPLETE_TOO_EARLY,
  MOVE_AFTER_START,
  MOVE_TOO_LATE,
  REFUND_AFTER_START,
  SESSION_CANCELLED,
  SESSION_COMPLETED,
  SESSION_EXISTS,
  SESSION_NOT_FOUND,
  type SessionCommand,
  sessionDecider,
} from './sessionDecider.ts';
import { SLOT_TAKEN, type TutorScheduleEvent } from './tutorSchedule.ts';
import { type TutorScheduleCommand, tutorScheduleDecider } from './tutorScheduleDecider.ts';

const START = '2026-05-04T14:00:00.000Z';
const END = '2026-05-04T15:00:00.000Z';
const BOOKED_AT = '2026-05-01T10:00:00.000Z';
const at = (iso: string) => ({ now: new Date(iso), actorId: 'user-1', actorRole: 'student' });

const booking: Omit<SessionBookedData, 'at'> = {
  sessionId: 's1',
  tutorId: 't1',
  studentId: 'st1',
  studentUserId: 'u1',
  courseId: 'c1',
  subjectId: 'math',
  subjectName: 'Math',
  start: START,
  end: END,
  durationMinutes: 60,
  notes: 'Math tutoring session',
  bookedBy: 'u1',
  bookedByRole: 'student',
  tutorTimeZone: 'America/New_York',
  studentTimeZone: 'Europe/London',
};
const booked: SessionEvent = { type: 'SessionBooked', data: { ...booking, at: BOOKED_AT } };
const spec = deciderSpec(sessionDecider);
const cancel = (now: string): SessionCommand => ({ type: 'CancelSession', data: { sessionId: 's1', reason: 'ill' }, metadata: at(now) });
const cancelled = (now: string, noticeMinutes: number, credit: 'released' | 'forfeited'): SessionEvent => ({
  type: 'SessionCancelled',
  data: {
    sessionId: 's1',
    tutorId: 't1',
    studentId: 'st1',
    courseId: 'c1',
    start: START,
    end: END,
    cancelledBy: 'user-1',
    cancelledByRole: 'student',
    reason: 'ill',
    noticeMinutes,
    credit,
    tutorTimeZone: 'America/New_York',
    studentTimeZone: 'Europe/London',
    at: new Date(now).toISOString(),
    studentUserId: 'u1',
  },
});

const admin = (iso: string) => ({ now: new Date(iso), actorId: 'admin-1', actorRole: 'admin' });
const onBehalf = (now: string, creditPolicy: 'rule' | 'refundCredit', reason = '  Tutor is ill  '): SessionCommand => ({
  type: 'CancelSessionOnBehalf',
  data: { sessionId: 's1', reason, creditPolicy },
  metadata: admin(now),
});
const cancelledByAdmin = (now: string, noticeMinutes: number, credit: 'released' | 'forfeited', creditPolicy: 'rule' | 'refundCredit') => {
  const event = cancelled(now, noticeMinutes, credit);
  if (event.type !== 'SessionCancelled') throw new Error('unreachable');
  return {
    ...event,
    data: { ...event.data, cancelledBy: 'admin-1', cancelledByRole: 'admin', reason: 'Tutor is ill', creditPolicy },
  } satisfies SessionEvent;
};

describe('an admin cancelling on anyone’s behalf', () => {
  it('applies the 12-hour rule by default and records the choice and the trimmed reason', () => {
    spec
      .given([booked])
      .when(onBehalf('2026-05-04T01:59:00.000Z', 'rule'))
      .thenEvents([cancelledByAdmin('2026-05-04T01:59:00.000Z', 721, 'released', 'rule')]);
    spec
      .given([booked])
      .when(onBehalf('2026-05-04T02:00:00.000Z', 'rule'))
      .thenEvents([cancelledByAdmin('2026-05-04T02:00:00.000Z', 720, 'forfeited', 'rule')]);
  });

  it('refunds the credit when the admin chooses to, even an hour before the start', () => {
    spec
      .given([booked])
      .when(onBehalf('2026-05-04T13:00:00.000Z', 'refundCredit'))
      .thenEvents([cancelledByAdmin('2026-05-04T13:00:00.000Z', 60, 'released', 'refundCredit')]);
  });

  it('refuses a cancelled or completed session (409), an unknown one (404), and a missing or long reason', () => {
    const done: SessionEvent = {
      type: 'SessionCompleted',
      data: {
        sessionId: 's1',
        tutorId: 't1',
        studentId: 'st1',
        studentUserId: 'u1',
        courseId: 'c1',
        completedBy: 't1',
        notes: 'ok',
        at: END,
      },
    };
    spec
      .given([booked, cancelled('2026-05-01T12:00:00.000Z', 4000, 'released')])
      .when(onBehalf('2026-05-02T00:00:00.000Z', 'rule'))
      .thenThrows(SESSION_CANCELLED, 'conflict');
    spec.given([booked, done]).when(onBehalf('2026-05-05T00:00:00.000Z', 'rule')).thenThrows(SESSION_COMPLETED, 'conflict');
    spec.given([]).when(onBehalf('2026-05-02T00:00:00.000Z', 'rule')).thenThrows(SESSION_NOT_FOUND, 'not_found');
    spec
      .given([booked])
      .when(onBehalf('2026-05-02T00:00:00.000Z', 'rule', '   '))
      .thenThrows(CANCEL_REASON_REQUIRED, 'invalid');
    spec
      .given([booked])
      .when(onBehalf('2026-05-02T00:00:00.000Z', 'rule', 'x'.repeat(501)))
      .thenThrows(CANCEL_REASON_TOO_LONG, 'invalid');
  });
});

describe('the 12-hour rule covers moves (spec part 1 §9: "cancellation or postponement")', () => {
  const NEW_START = '2026-05-12T14:00:00.000Z';
  const NEW_END = '2026-05-12T15:00:00.000Z';
  const who = {
    student: { actorId: 'user-1', actorRole: 'student' },
    parent: { actorId: 'parent-1', actorRole: 'parent' },
    tutor: { actorId: 't1', actorRole: 'tutor' },
    admin: { actorId: 'admin-1', actorRole: 'admin' },
    system: { actorId: null, actorRole: null },
  } as const;
  const move = (now: string, by: keyof typeof who, start = NEW_START, end = NEW_END): SessionCommand => ({
    type: 'RescheduleSession',
    data: { sessionId: 's1', start, end, timeZone: 'America/Toronto' },
    metadata: { now: new Date(now), ...who[by] },
  });
  const moved = (now: string, by: 'student' | 'parent' | 'tutor' | 'admin', noticeMinutes: number, lateNotice: boolean): SessionEvent => ({
    type: 'SessionRescheduled',
    data: {
      sessionId: 's1',
      tutorId: 't1',
      studentId: 'st1',
      previousStart: START,
      previousEnd: END,
      start: NEW_START,
      end: NEW_END,
      rescheduledBy: who[by].actorId,
      rescheduledByRole: who[by].actorRole,
      timeZone: 'America/Toronto',
      noticeMinutes,
      lateNotice,
      tutorTimeZone: 'America/New_York',
      studentTimeZone: 'Europe/London',
      at: new Date(now).toISOString(),
    },
  });

  it('a family moves a session 12:01 before its start; the event records who, when, the old start, the notice and the zones', () => {
    spec
      .given([booked])
      .when(move('2026-05-04T01:59:00.000Z', 'student'))
      .thenEvents([moved('2026-05-04T01:59:00.000Z', 'student', 721, false)]);
    spec
      .given([booked])
      .when(move('2026-05-04T01:59:00.000Z', 'parent'))
      .thenEvents([moved('2026-05-04T01:59:00.000Z', 'parent', 721, false)]);
  });

  it('a family’s move with 12 hours’ notice or less is refused, saying what they can do instead', () => {
    for (const now of ['2026-05-04T02:00:00.000Z', '2026-05-04T02:01:00.000Z', '2026-05-04T12:15:00.000Z']) {
      spec.given([booked]).when(move(now, 'student')).thenThrows(MOVE_TOO_LATE, 'conflict');
      spec.given([booked]).when(move(now, 'parent')).thenThrows(MOVE_TOO_LATE, 'conflict');
    }
    // Nobody but the tutor or an admin moves late: a move without an actor is refused too.
    spec.given([booked]).when(move('2026-05-04T12:15:00.000Z', 'system')).thenThrows(MOVE_TOO_LATE, 'conflict');
  });

  it('the attack: 1 h 45 min before the start, moved 8 days out then cancelled — the move is refused, so the cancellation forfeits', () => {
    const now = '2026-05-04T12:15:00.000Z';
    spec.given([booked]).when(move(now, 'student')).thenThrows(MOVE_TOO_LATE, 'conflict');
    spec
      .given([booked])
      .when(cancel(now))
      .thenEvents([cancelled(now, 105, 'forfeited')]);
  });

  it('the tutor or an admin may still move a late session: recorded as theirs, inside the window', () => {
    spec
      .given([booked])
      .when(move('2026-05-04T12:15:00.000Z', 'tutor'))
      .thenEvents([moved('2026-05-04T12:15:00.000Z', 'tutor', 105, true)]);
    spec
      .given([booked])
      .when(move('2026-05-04T13:59:00.000Z', 'admin'))
      .thenEvents([moved('2026-05-04T13:59:00.000Z', 'admin', 1, true)]);
  });

  it('nobody moves a session once it has started', () => {
    for (const by of ['student', 'parent', 'tutor', 'admin'] as const) {
      spec.given([booked]).when(move(START, by)).thenThrows(MOVE_AFTER_START, 'conflict');
      spec.given([booked]).when(move('2026-05-04T14:30:00.000Z', by)).thenThrows(MOVE_AFTER_START, 'conflict');
    }
  });

  it('the window reads the current start: a session the tutor moved later is the family’s to move again with notice', () => {
    const byTutor = moved('2026-05-04T12:15:00.000Z', 'tutor', 105, true);
    spec
      .given([booked, byTutor])
      .when(move('2026-05-05T10:00:00.000Z', 'student', '2026-05-13T14:00:00.000Z', '2026-05-13T15:00:00.000Z'))
      .thenEvents([
        {
          type: 'SessionRescheduled',
          data: {
            ...(moved('2026-05-05T10:00:00.000Z', 'student', 10_320, false).data as Extract<
              SessionEvent,
              { type: 'SessionRescheduled' }
            >['data']),
            previousStart: NEW_START,
            previousEnd: NEW_END,
            start: '2026-05-13T14:00:00.000Z',
            end: '2026-05-13T15:00:00.000Z',
          },
        },
      ]);
  });

  it('a retried move (already at the new start) changes nothing, even once the window has closed', () => {
    const byStudent = moved('2026-05-01T12:00:00.000Z', 'student', 4440, false);
    spec.given([booked, byStudent]).when(move('2026-05-12T13:00:00.000Z', 'student')).thenNothing();
  });

  it('once started, a cancellation never gives the credit back: an admin’s refund is refused, the rule counts it used', () => {
    spec.given([booked]).when(onBehalf(START, 'refundCredit')).thenThrows(REFUND_AFTER_START, 'conflict');
    spec.given([booked]).when(onBehalf('2026-05-04T14:20:00.000Z', 'refundCredit')).thenThrows(REFUND_AFTER_START, 'conflict');
    spec
      .given([booked])
      .when(onBehalf(START, 'rule'))
      .thenEvents([cancelledByAdmin(START, 0, 'forfeited', 'rule')]);
    spec
      .given([booked])
      .when(cancel('2026-05-04T14:20:00.000Z'))
      .thenEvents([cancelled('2026-05-04T14:20:00.000Z', -20, 'forfeited')]);
  });
});

describe('session decider', () => {
  it('books a session with everything a calendar event needs; the same booking again changes nothing, another is refused', () => {
    spec
      .given([])
      .when({ type: 'BookSession', data: booking, metadata: at(BOOKED_AT) })
      .thenEvents([booked]);
    spec
      .given([booked])
      .when({ type: 'BookSession', data: booking, metadata: at(BOOKED_AT) })
      .thenNothing();
    spec
      .given([booked])
      .when({ type: 'BookSession', data: { ...booking, start: END }, metadata: at(BOOKED_AT) })
      .thenThrows(SESSION_EXISTS, 'conflict');
  });

  it('12-hour rule: cancelling 12:01 before the start releases the credit', () => {
    spec
      .given([booked])
      .when(cancel('2026-05-04T01:59:00.000Z'))
      .thenEvents([cancelled('2026-05-04T01:59:00.000Z', 721, 'released')]);
  });

  it('12-hour rule: cancelling 11:59 before the start forfeits it (the session counts as used); exactly 12:00 too', () => {
    spec
      .given([booked])
      .when(cancel('2026-05-04T02:01:00.000Z'))
      .thenEvents([cancelled('2026-05-04T02:01:00.000Z', 719, 'forfeited')]);
    spec
      .given([booked])
      .when(cancel('2026-05-04T02:00:00.000Z'))
      .thenEvents([cancelled('2026-05-04T02:00:00.000Z', 720, 'forfeited')]);
  });

  it('the rule reads the rescheduled start', () => {
    const moved: SessionEvent = {
      type: 'SessionRescheduled',
      data: {
        sessionId: 's1',
        tutorId: 't1',
        studentId: 'st1',
        previousStart: START,
        previousEnd: END,
        start: '2026-05-05T14:00:00.000Z',
        end: '2026-05-05T15:00:00.000Z',
        rescheduledBy: 't1',
        rescheduledByRole: 'tutor',
        timeZone: 'America/New_York',
        at: BOOKED_AT,
      },
    };
    const now = '2026-05-04T14:00:00.000Z';
    const event = cancelled(now, 1440, 'released');
    spec
      .given([booked, moved])
      .when(cancel(now))
      .thenEvents([
        { ...event, data: { ...event.data, start: '2026-05-05T14:00:00.000Z', end: '2026-05-05T15:00:00.000Z' } } as SessionEvent,
      ]);
  });

  it('a cancelled session is not cancelled twice, nor completed; an unknown one is not found', () => {
    const c = cancelled('2026-05-01T00:00:00.000Z', 0, 'released');
    spec.given([booked, c]).when(cancel('2026-05-02T00:00:00.000Z')).thenNothing();
    spec
      .given([booked, c])
      .when({ type: 'CompleteSession', data: { sessionId: 's1', notes: '' }, metadata: at(START) })
      .thenThrows(SESSION_CANCELLED, 'conflict');
    spec.given([]).when(cancel(START)).thenThrows(SESSION_NOT_FOUND, 'not_found');
  });

  it('completes only at or after the start', () => {
    spec
      .given([booked])
      .when({ type: 'CompleteSession', data: { sessionId: 's1', notes: 'x' }, metadata: at('2026-05-04T13:59:59.999Z') })
      .thenThrows(COMPLETE_TOO_EARLY, 'conflict');
    spec
      .given([booked])
      .when({ type: 'CompleteSession', data: { sessionId: 's1', notes: 'Worked on limits.' }, metadata: { ...at(START), actorId: 't1' } })
      .thenEvents([
        {
          type: 'SessionCompleted',
          data: {
            sessionId: 's1',
            tutorId: 't1',
            studentId: 'st1',
            studentUserId: 'u1',
            courseId: 'c1',
            completedBy: 't1',
            notes: 'Worked on limits.',
            at: START,
          },
        },
      ]);
  });
});

describe('tutor schedule decider: one session per hour', () => {
  const schedule = deciderSpec(tutorScheduleDecider);
  const claim = (sessionId: string, start: string, end: string, slotFree = true): TutorScheduleCommand => ({
    type: 'ClaimHour',
    data: { tutorId: 't1', sessionId, start, end, slotFree },
    metadata: at(BOOKED_AT),
  });
  const held = (sessionId: string, start: string, end: string): TutorScheduleEvent => ({
    type: 'TutorHourClaimed',
    data: { tutorId: 't1', sessionId, start, end, at: BOOKED_AT },
  });

  it('claims a free hour; the same session claiming it again changes nothing', () => {
    schedule
      .given([])
      .when(claim('s1', START, END))
      .thenEvents([held('s1', START, END)]);
    schedule
      .given([held('s1', START, END)])
      .when(claim('s1', START, END))
      .thenNothing();
  });

  it('refuses an hour another session holds, or overlaps, with the clear message', () => {
    schedule
      .given([held('s1', START, END)])
      .when(claim('s2', START, END))
      .thenThrows(SLOT_TAKEN, 'conflict');
    schedule
      .given([held('s1', START, END)])
      .when(claim('s2', '2026-05-04T14:30:00.000Z', '2026-05-04T15:30:00.000Z'))
      .thenThrows(SLOT_TAKEN, 'conflict');
    schedule
      .given([held('s1', START, END)])
      .when(claim('s2', END, '2026-05-04T16:00:00.000Z'))
      .thenEvents([held('s2', END, '2026-05-04T16:00:00.000Z')]);
  });

  it('refuses an hour that is not one of the tutor’s free slots', () => {
    schedule
      .given([])
      .when(claim('s1', START, END, false))
      .thenThrows(SLOT_TAKEN, 'conflict');
  });

  it('a released hour is free again; releasing what is not held changes nothing', () => {
    const released: TutorScheduleEvent = {
      type: 'TutorHourReleased',
      data: { tutorId: 't1', sessionId: 's1', start: START, end: END, reason: 'compensation', at: BOOKED_AT },
    };
    schedule
      .given([held('s1', START, END)])
      .when({ type: 'ReleaseHour', data: { tutorId: 't1', sessionId: 's1', reason: 'compensation' }, metadata: at(BOOKED_AT) })
      .thenEvents([released]);
    schedule
      .given([held('s1', START, END), released])
      .when(claim('s2', START, END))
      .thenEvents([held('s2', START, END)]);
    schedule
      .given([])
      .when({ type: 'ReleaseHour', data: { tutorId: 't1', sessionId: 's1', reason: 'cancelled' }, metadata: at(BOOKED_AT) })
      .thenNothing();
  });

  it('a session claiming another hour moves (a reschedule): its old hour does not block it', () => {
    schedule
      .given([held('s1', START, END)])
      .when(claim('s1', '2026-05-04T14:30:00.000Z', '2026-05-04T15:30:00.000Z'))
      .thenEvents([held('s1', '2026-05-04T14:30:00.000Z', '2026-05-04T15:30:00.000Z')]);
  });
});
