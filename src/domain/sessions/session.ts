import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/**
 * A tutoring session (spec part 1 §3 `sessions`, part 2 §3–§4; stream `session-<id>`). Its events
 * carry everything a later reader needs without looking elsewhere: a calendar saga creates the
 * tutor's event (with a Meet link and the student invited) from `SessionBooked` alone, and a
 * cancellation records who asked, when, the start and the zones, so the 12-hour decision can be
 * explained later.
 */

export const SESSION_MINUTES = 60;
/** Spec part 1 §9: cancelling needs more than 12 hours' notice, otherwise the session counts as used. */
export const CANCELLATION_NOTICE_HOURS = 12;

export const sessionStatuses = ['scheduled', 'completed', 'cancelled'] as const;
export type SessionStatus = (typeof sessionStatuses)[number];

/**
 * Who may still move a session inside the 12-hour window (spec part 1 §9 covers postponement too):
 * the tutor or an admin, the move recorded as theirs. A family (or anyone else) is refused.
 */
export const LATE_MOVERS: readonly string[] = ['tutor', 'admin'];

/** More than 12 hours between `now` and `start`: the notice the rule asks for (11:59 and 12:00 are late). */
export const timelyNotice = (start: string, now: Date) => Date.parse(start) - now.getTime() > CANCELLATION_NOTICE_HOURS * 3_600_000;

/** rule: more than 12 hours' notice releases the credit; refundCredit: an admin releases it anyway (never once started). */
export const creditPolicies = ['rule', 'refundCredit'] as const;
export type CreditPolicy = (typeof creditPolicies)[number];

export const sessionBooked = z.object({
  sessionId: z.string(),
  tutorId: z.string(),
  studentId: z.string(),
  /** The account holding the student (whose key seals the notes). */
  studentUserId: z.string(),
  courseId: z.string(),
  subjectId: z.string(),
  /** The subject's name when booked (the default notes and the calendar event's title use it). */
  subjectName: z.string(),
  start: z.string(),
  end: z.string(),
  durationMinutes: z.number().int(),
  notes: z.string(),
  bookedBy: z.string(),
  bookedByRole: z.string(),
  tutorTimeZone: z.string(),
  studentTimeZone: z.string(),
  at: z.string(),
});
export type SessionBookedData = z.output<typeof sessionBooked>;

export const sessionCancelled = z.object({
  sessionId: z.string(),
  tutorId: z.string(),
  studentId: z.string(),
  courseId: z.string(),
  start: z.string(),
  end: z.string(),
  cancelledBy: z.string(),
  cancelledByRole: z.string(),
  reason: z.string(),
  /** Minutes between the request and the start (negative once started): what the 12-hour rule read. */
  noticeMinutes: z.number().int(),
  /** released: more than 12 hours' notice; forfeited: the session counts as used. */
  credit: z.enum(['released', 'forfeited']),
  /**
   * How the credit was decided: the 12-hour rule, or an admin giving it back whatever the notice
   * (issue 12 §2). Absent on cancellations recorded before admins could choose: the rule.
   */
  creditPolicy: z.enum(creditPolicies).optional(),
  tutorTimeZone: z.string(),
  studentTimeZone: z.string(),
  /** When the cancellation was asked for. */
  at: z.string(),
  /**
   * The account holding the student: whose key seals the reason. Absent on cancellations
   * recorded before reasons were sealed (their reason is plain in the log).
   */
  studentUserId: z.string().optional(),
  /** The student's account was deleted (erasure cancels its future sessions): nobody asked, the hour is freed. */
  byErasure: z.literal(true).optional(),
});

export const sessionCompleted = z.object({
  sessionId: z.string(),
  tutorId: z.string(),
  studentId: z.string(),
  studentUserId: z.string(),
  courseId: z.string(),
  completedBy: z.string(),
  /** The session report the student and parent see. */
  notes: z.string(),
  at: z.string(),
});

export const sessionRescheduled = z.object({
  sessionId: z.string(),
  tutorId: z.string(),
  studentId: z.string(),
  previousStart: z.string(),
  previousEnd: z.string(),
  start: z.string(),
  end: z.string(),
  rescheduledBy: z.string(),
  rescheduledByRole: z.string(),
  /** The zone the new local time was given in. */
  timeZone: z.string(),
  /**
   * Minutes between the request and the old start: what the 12-hour rule read (spec part 1 §9,
   * "cancellation or postponement"). Absent on moves recorded before the rule covered moves.
   */
  noticeMinutes: z.number().int().optional(),
  /** The move came with 12 hours' notice or less: only the tutor or an admin may make it. Absent on older moves. */
  lateNotice: z.boolean().optional(),
  /** The parties' zones when the move was decided (absent on older moves). */
  tutorTimeZone: z.string().optional(),
  studentTimeZone: z.string().optional(),
  /** When the move was decided (the clock the rule read). */
  at: z.string(),
});

const studentHolder = (d: { studentUserId: string }) => `user-${d.studentUserId}`;
/**
 * The reason is free text about the student's session, whoever typed it: sealed with the family's
 * key like the notes, so the account's erasure erases it. Older events without `studentUserId`
 * were stored plain and are read as they are.
 */
const cancellationSubject = (d: { studentUserId?: string | undefined }) => (d.studentUserId ? `user-${d.studentUserId}` : null);

export const sessionEvents = {
  SessionBooked: eventType(sessionBooked, {
    personal: { fields: ['notes'], subject: studentHolder },
    describe: (d) => `Session booked for ${d.start} (${d.durationMinutes} min)`,
  }),
  SessionCancelled: eventType(sessionCancelled, {
    personal: { fields: ['reason'], subject: cancellationSubject, auditShown: ['reason'] },
    describe: (d) =>
      d.byErasure
        ? `Session cancelled because the student's account was deleted: credit ${d.credit}`
        : `Session cancelled by the ${d.cancelledByRole} with ${d.noticeMinutes} min notice: credit ${d.credit}${
            d.creditPolicy === 'refundCredit' ? ' (refunded by an admin)' : ''
          }`,
  }),
  SessionCompleted: eventType(sessionCompleted, {
    personal: { fields: ['notes'], subject: studentHolder },
    describe: () => 'Session completed',
  }),
  SessionRescheduled: eventType(sessionRescheduled, {
    describe: (d) =>
      `Session moved from ${d.previousStart} to ${d.start} by the ${d.rescheduledByRole}${
        d.noticeMinutes === undefined ? '' : ` with ${d.noticeMinutes} min notice${d.lateNotice ? ' (inside the 12-hour window)' : ''}`
      }`,
  }),
};
export type SessionEvent = EventsOf<typeof sessionEvents>;

export interface SessionState {
  booked: SessionBookedData | null;
  status: SessionStatus;
  start: string | null;
  end: string | null;
}
export const initialSessionState: SessionState = { booked: null, status: 'scheduled', start: null, end: null };

export function evolveSession(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'SessionBooked':
      return { booked: event.data, status: 'scheduled', start: event.data.start, end: event.data.end };
    case 'SessionCancelled':
      return { ...state, status: 'cancelled' };
    case 'SessionCompleted':
      return { ...state, status: 'completed' };
    case 'SessionRescheduled':
      return { ...state, start: event.data.start, end: event.data.end };
    default:
      return state;
  }
}

export const sessionStreamId = (sessionId: string) => `session-${sessionId}`;

/** Empty notes default to "{subject} tutoring session" (spec part 2 §5). */
export const defaultNotes = (notes: string | null | undefined, subjectName: string) =>
  notes?.trim() ? notes.trim() : `${subjectName} tutoring session`;
