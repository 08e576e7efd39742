import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { type SessionBookedData, type SessionEvent, sessionEvents } from './session.ts';
import { type SessionCommand, sessionDecider } from './sessionDecider.ts';

const START = '2026-05-04T14:00:00.000Z';
const END = '2026-05-04T15:00:00.000Z';
const booking: SessionBookedData = {
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
  notes: 'Bring the worksheet',
  bookedBy: 'u1',
  bookedByRole: 'student',
  tutorTimeZone: 'America/New_York',
  studentTimeZone: 'Europe/London',
  at: '2026-05-01T10:00:00.000Z',
};
const booked: SessionEvent = { type: 'SessionBooked', data: booking };
const spec = deciderSpec(sessionDecider);
const system = (iso: string) => ({ now: new Date(iso), actorId: null, actorRole: 'system' });
const erase = (now: string): SessionCommand => ({ type: 'CancelSessionForErasure', data: { sessionId: 's1' }, metadata: system(now) });

describe('a session when its family is erased', () => {
  it('still ahead (even inside 12 hours): cancelled by the system, the credit released, the erasure and the family named', () => {
    spec
      .given([booked])
      .when(erase('2026-05-04T10:00:00.000Z'))
      .thenEvents([
        {
          type: 'SessionCancelled',
          data: {
            sessionId: 's1',
            tutorId: 't1',
            studentId: 'st1',
            courseId: 'c1',
            start: START,
            end: END,
            cancelledBy: 'system',
            cancelledByRole: 'system',
            reason: '',
            noticeMinutes: 240,
            credit: 'released',
            tutorTimeZone: 'America/New_York',
            studentTimeZone: 'Europe/London',
            at: '2026-05-04T10:00:00.000Z',
            studentUserId: 'u1',
            byErasure: true,
          },
        },
      ]);
  });

  it('started, over, completed or cancelled: left as it is', () => {
    spec.given([booked]).when(erase(START)).thenNothing();
    spec.given([booked]).when(erase('2026-05-05T00:00:00.000Z')).thenNothing();
    const completed: SessionEvent = {
      type: 'SessionCompleted',
      data: {
        sessionId: 's1',
        tutorId: 't1',
        studentId: 'st1',
        studentUserId: 'u1',
        courseId: 'c1',
        completedBy: 't1',
        notes: '',
        at: END,
      },
    };
    spec.given([booked, completed]).when(erase('2026-05-03T00:00:00.000Z')).thenNothing();
    spec.given([]).when(erase('2026-05-03T00:00:00.000Z')).thenNothing();
  });

  it('a cancellation reason is sealed with the family key; an old event without the family is read plain', () => {
    const definition = sessionEvents.SessionCancelled;
    expect(definition.personal?.fields).toEqual(['reason']);
    expect(definition.personal?.subject({ studentUserId: 'u1' } as never)).toBe('user-u1');
    expect(definition.personal?.subject({} as never)).toBeNull();
  });
});
