import { type Command, type CommandMetadata, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import {
  type CreditPolicy,
  evolveSession,
  initialSessionState,
  LATE_MOVERS,
  type SessionBookedData,
  type SessionEvent,
  type SessionState,
  timelyNotice,
} from './session.ts';

export const SESSION_NOT_FOUND = 'Session not found';
/** Spec part 2 §4 (the toast "Cannot Complete Session"). */
export const COMPLETE_TOO_EARLY = 'Session can only be marked as completed at or after the scheduled time.';
export const SESSION_CANCELLED = 'This session was cancelled';
export const SESSION_COMPLETED = 'This session is already completed';
export const CANCEL_REASON_MAX = 500;
export const CANCEL_REASON_REQUIRED = 'Please give a reason for cancelling';
export const CANCEL_REASON_TOO_LONG = `A reason must be at most ${CANCEL_REASON_MAX} characters`;
export const SESSION_EXISTS = 'This session was already booked with other details';
/**
 * A family's move with 12 hours' notice or less (spec part 1 §9: "cancellation or postponement
 * needs more than 12 hours' notice, otherwise the session counts as used"): what they can do instead.
 */
export const MOVE_TOO_LATE =
  'This session starts in 12 hours or less, so it can no longer be rescheduled (moving or cancelling needs more than 12 hours’ notice). You can cancel it instead (the session then counts as used) and book a new time.';
export const MOVE_AFTER_START = 'This session has already started, so it can no longer be moved.';
export const REFUND_AFTER_START =
  'This session has already started, so its credit can no longer be given back. Cancel it under the 12-hour rule instead (the session counts as used).';

export type SessionCommand =
  | Command<'BookSession', Omit<SessionBookedData, 'at'>>
  | Command<'CancelSession', { sessionId: string; reason: string }>
  /**
   * An admin cancels on anyone's behalf (issue 12 §2): a reason is required, an already closed
   * session is refused (409) rather than answered as done, and `refundCredit` gives the credit back
   * whatever the notice.
   */
  | Command<'CancelSessionOnBehalf', { sessionId: string; reason: string; creditPolicy: CreditPolicy }>
  /**
   * The student's account was deleted: a session still ahead is cancelled by the system, its credit
   * released (the course goes with the account) and its hour freed; one started, over or closed is
   * left as it is.
   */
  | Command<'CancelSessionForErasure', { sessionId: string }>
  | Command<'CompleteSession', { sessionId: string; notes: string }>
  | Command<'RescheduleSession', { sessionId: string; start: string; end: string; timeZone: string }>;

function booked(state: SessionState): SessionBookedData {
  if (!state.booked) throw new DomainError(SESSION_NOT_FOUND, 'not_found');
  return state.booked;
}

function open(state: SessionState): SessionBookedData {
  const session = booked(state);
  if (state.status === 'cancelled') throw new DomainError(SESSION_CANCELLED, 'conflict');
  if (state.status === 'completed') throw new DomainError(SESSION_COMPLETED, 'conflict');
  return session;
}

const sameBooking = (a: Omit<SessionBookedData, 'at'>, b: SessionBookedData) =>
  a.tutorId === b.tutorId && a.studentId === b.studentId && a.courseId === b.courseId && Date.parse(a.start) === Date.parse(b.start);

const MINUTE_MS = 60_000;

/** The cancellation of an open session; the 12-hour rule decides the credit unless an admin refunds it. */
function cancellation(
  state: SessionState,
  data: { sessionId: string; reason: string },
  /** null: the party's own cancellation (no choice to record); otherwise the admin's choice. */
  creditPolicy: CreditPolicy | null,
  { now, actorId, actorRole }: CommandMetadata,
): SessionEvent {
  const session = open(state);
  const start = state.start ?? session.start;
  const noticeMinutes = Math.floor((Date.parse(start) - now.getTime()) / MINUTE_MS);
  // More than 12 hours' notice gives the credit back; anything later counts as used (spec part 1 §9).
  const timely = timelyNotice(start, now);
  // Once the session has started nothing gives its credit back, an admin's refund included: a
  // cancellation then can only count it as used.
  if (creditPolicy === 'refundCredit' && now.getTime() >= Date.parse(start)) throw new DomainError(REFUND_AFTER_START, 'conflict');
  return {
    type: 'SessionCancelled',
    data: {
      sessionId: data.sessionId,
      tutorId: session.tutorId,
      studentId: session.studentId,
      courseId: session.courseId,
      start,
      end: state.end ?? session.end,
      cancelledBy: actorId ?? 'system',
      cancelledByRole: actorRole ?? 'system',
      reason: data.reason,
      noticeMinutes,
      credit: timely || creditPolicy === 'refundCredit' ? 'released' : 'forfeited',
      // Only an admin's choice is recorded; a party's cancellation keeps the shape it always had.
      ...(creditPolicy ? { creditPolicy } : {}),
      tutorTimeZone: session.tutorTimeZone,
      studentTimeZone: session.studentTimeZone,
      at: now.toISOString(),
      // Whose key seals the reason: the family's, so that their erasure erases it.
      studentUserId: session.studentUserId,
    },
  };
}

/**
 * A session's life: booked → completed (by the tutor, at or after the start) | cancelled (the
 * 12-hour rule decides whether the credit comes back) ; rescheduling keeps it upcoming. Who may
 * do what is checked by the caller (ownership needs read models); the time rules live here.
 */
export const decideSession = decideWith<SessionCommand, SessionEvent, SessionState>({
  BookSession: ({ data, metadata: { now } }, state) => {
    if (state.booked) {
      if (sameBooking(data, state.booked)) return [];
      throw new DomainError(SESSION_EXISTS, 'conflict');
    }
    return [{ type: 'SessionBooked', data: { ...data, at: now.toISOString() } }];
  },

  CancelSession: ({ data, metadata }, state) => {
    if (state.status === 'cancelled') return [];
    return [cancellation(state, data, null, metadata)];
  },

  CancelSessionOnBehalf: ({ data, metadata }, state) => {
    const reason = data.reason.trim();
    if (!reason) throw new DomainError(CANCEL_REASON_REQUIRED, 'invalid');
    if (reason.length > CANCEL_REASON_MAX) throw new DomainError(CANCEL_REASON_TOO_LONG, 'invalid');
    return [cancellation(state, { sessionId: data.sessionId, reason }, data.creditPolicy, metadata)];
  },

  CancelSessionForErasure: ({ data, metadata }, state) => {
    if (state.status !== 'scheduled' || !state.booked) return [];
    if (metadata.now.getTime() >= Date.parse(state.start ?? state.booked.start)) return [];
    const cancelled = cancellation(state, { sessionId: data.sessionId, reason: '' }, null, metadata);
    if (cancelled.type !== 'SessionCancelled') return [];
    return [{ ...cancelled, data: { ...cancelled.data, credit: 'released', byErasure: true } }];
  },

  CompleteSession: ({ data, metadata: { now, actorId } }, state) => {
    if (state.status === 'completed') return [];
    const session = open(state);
    if (now.getTime() < Date.parse(state.start ?? session.start)) throw new DomainError(COMPLETE_TOO_EARLY, 'conflict');
    return [
      {
        type: 'SessionCompleted',
        data: {
          sessionId: data.sessionId,
          tutorId: session.tutorId,
          studentId: session.studentId,
          studentUserId: session.studentUserId,
          courseId: session.courseId,
          completedBy: actorId ?? 'system',
          notes: data.notes,
          at: now.toISOString(),
        },
      },
    ];
  },

  /**
   * The 12-hour rule covers moves (spec part 1 §9 "cancellation or postponement"): otherwise a late
   * move far out, then a timely cancellation, would give back a credit the rule says is used. With
   * 12 hours' notice or less only the tutor or an admin may move it (recorded as theirs); once it
   * has started nobody does.
   */
  RescheduleSession: ({ data, metadata: { now, actorId, actorRole } }, state) => {
    const session = open(state);
    const previousStart = state.start ?? session.start;
    // A retried move (already at the new start) is done, whatever the clock says now.
    if (Date.parse(previousStart) === Date.parse(data.start)) return [];
    if (now.getTime() >= Date.parse(previousStart)) throw new DomainError(MOVE_AFTER_START, 'conflict');
    const lateNotice = !timelyNotice(previousStart, now);
    if (lateNotice && !LATE_MOVERS.includes(actorRole ?? '')) throw new DomainError(MOVE_TOO_LATE, 'conflict');
    return [
      {
        type: 'SessionRescheduled',
        data: {
          sessionId: data.sessionId,
          tutorId: session.tutorId,
          studentId: session.studentId,
          previousStart,
          previousEnd: state.end ?? session.end,
          start: data.start,
          end: data.end,
          rescheduledBy: actorId ?? 'system',
          rescheduledByRole: actorRole ?? 'system',
          timeZone: data.timeZone,
          noticeMinutes: Math.floor((Date.parse(previousStart) - now.getTime()) / MINUTE_MS),
          lateNotice,
          tutorTimeZone: session.tutorTimeZone,
          studentTimeZone: session.studentTimeZone,
          at: now.toISOString(),
        },
      },
    ];
  },
});

export const sessionDecider: Decider<SessionCommand, SessionEvent, SessionState> = {
  initialState: initialSessionState,
  evolve: evolveSession,
  decide: decideSession,
};
