import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import {
  type CourseEvent,
  type CourseState,
  evolveCourse,
  initialCourseState,
  type repurchaseOutcomes,
  sessionsRemainingOf,
  unusedCreditsOf,
} from './course.ts';
import { COURSE_ENDED, type CourseCredits, endCourseRefusal, repurchaseRefusal } from './courseOffers.ts';

export {
  COURSE_ENDED,
  END_ONLY_WHEN_USED,
  REPURCHASE_ALREADY_PENDING,
  REPURCHASE_BEING_PAID,
  REPURCHASE_WHILE_SESSIONS_REMAIN,
} from './courseOffers.ts';

/** Spec part 2 §8. */
export const COURSE_NOT_FOUND = 'Could not find your course enrollment. Please contact support.';
export const COURSE_EXISTS = 'This course was already created by another purchase';
export const NO_SESSIONS_REMAINING = 'No sessions remaining in this course';
export const TUTOR_NOT_CHOSEN = 'Choose a tutor for this course first';
export const TUTOR_NOT_QUALIFIED = 'This tutor is not available for this subject';
export const NO_CREDIT_HELD = 'This session holds no credit of the course';
export const PURCHASE_NOT_CREDITED = "This purchase's sessions are not on the course yet. Please try again in a moment.";
export const NOTHING_UNUSED = 'Every session of this purchase is used or booked: there is nothing left to refund';

type Ref = { courseId: string };
type SessionRef = Ref & { sessionId: string };
export type CourseCommand =
  | Command<'EnrollCourse', Ref & { studentId: string; subjectId: string; packageId: string; purchaseId: string; credits: number }>
  /** `tutorQualified`: the tutor is approved, active and teaches the subject (a fact the command layer reads). */
  | Command<'ChooseCourseTutor', Ref & { tutorId: string; tutorQualified: boolean }>
  | Command<'ActivateCourse', Ref>
  | Command<'EndCourse', Ref>
  | Command<'AddCourseCredits', Ref & { packageId: string; purchaseId: string; credits: number }>
  /** A refund: the purchase's unused credits leave the ledger (how many is decided here, on the stream). */
  | Command<'RemovePurchaseCredits', Ref & { purchaseId: string }>
  /** The refund failed: the removed credits come back. */
  | Command<'RestorePurchaseCredits', Ref & { purchaseId: string }>
  /** A repurchase is about to start: claimed here first, so one repurchase at a time is paid for, and none of an ended course. */
  | Command<'MarkRepurchasePending', Ref & { purchaseId: string }>
  /** The repurchase ended (credited, abandoned, failed) or its request gave the claim back; only that purchase's mark is cleared. */
  | Command<'ClearRepurchase', Ref & { purchaseId: string; outcome: (typeof repurchaseOutcomes)[number] }>
  | Command<'ReserveCredit', SessionRef>
  | Command<'ReleaseCredit', SessionRef>
  | Command<'ConsumeCredit', SessionRef>
  | Command<'ForfeitCredit', SessionRef>;

function existing(state: CourseState): CourseState {
  if (!state.exists) throw new DomainError(COURSE_NOT_FOUND, 'not_found');
  return state;
}

/** The stream's ledger as the offers rule reads it (the read model gives the same counts). */
export const creditsOf = (state: CourseState): CourseCredits => ({
  status: state.status,
  left: sessionsRemainingOf(state),
  booked: state.reserved.length,
  repurchasePending: state.pendingRepurchase !== null,
});

function positiveCredits(credits: number) {
  if (!Number.isInteger(credits) || credits < 1) throw new DomainError('A package adds at least one session', 'invalid');
}

/** A held credit leaves the reserve for good (completed or forfeited); a second report of it changes nothing. */
function settle(type: 'CourseCreditConsumed' | 'CourseCreditForfeited') {
  return ({ data, metadata: { now } }: Command<string, SessionRef>, state: CourseState): CourseEvent[] => {
    existing(state);
    if (state.used.includes(data.sessionId)) return [];
    if (!state.reserved.includes(data.sessionId)) throw new DomainError(NO_CREDIT_HELD, 'conflict');
    return [{ type, data: { courseId: data.courseId, sessionId: data.sessionId, at: now.toISOString() } }];
  };
}

/**
 * The course's lifecycle (enrolled → active → inactive, spec part 2 §4) and its credit ledger.
 * A booking reserves a credit only while one is free, so concurrent bookings on one course
 * (serialised by the stream's expected revision) can never take more credits than were bought.
 */
export const decideCourse = decideWith<CourseCommand, CourseEvent, CourseState>({
  EnrollCourse: ({ data, metadata: { now } }, state) => {
    if (state.exists) {
      if (state.purchases.includes(data.purchaseId)) return [];
      throw new DomainError(COURSE_EXISTS, 'conflict');
    }
    positiveCredits(data.credits);
    return [{ type: 'CourseEnrolled', data: { ...data, at: now.toISOString() } }];
  },

  ChooseCourseTutor: ({ data, metadata: { now } }, state) => {
    existing(state);
    if (state.status === 'inactive') throw new DomainError(COURSE_ENDED, 'conflict');
    if (!data.tutorQualified) throw new DomainError(TUTOR_NOT_QUALIFIED, 'unprocessable');
    if (state.tutorId === data.tutorId) return [];
    return [{ type: 'CourseTutorChosen', data: { courseId: data.courseId, tutorId: data.tutorId, at: now.toISOString() } }];
  },

  ActivateCourse: ({ data, metadata: { now } }, state) => {
    existing(state);
    if (state.status === 'active') return [];
    if (state.status === 'inactive') throw new DomainError(COURSE_ENDED, 'conflict');
    if (!state.tutorId) throw new DomainError(TUTOR_NOT_CHOSEN, 'conflict');
    return [{ type: 'CourseActivated', data: { courseId: data.courseId, at: now.toISOString() } }];
  },

  EndCourse: ({ data, metadata: { now } }, state) => {
    existing(state);
    if (state.status === 'inactive') return [];
    // The rule the dashboards offer End Course by (courseOffers.ts).
    const refusal = endCourseRefusal(creditsOf(state));
    if (refusal) throw new DomainError(refusal, 'conflict');
    return [{ type: 'CourseEnded', data: { courseId: data.courseId, at: now.toISOString() } }];
  },

  AddCourseCredits: ({ data, metadata: { now } }, state) => {
    existing(state);
    if (state.purchases.includes(data.purchaseId)) return [];
    positiveCredits(data.credits);
    // Paid for: credited even on an ended course, which the repurchase brings back into use.
    const at = now.toISOString();
    const events: CourseEvent[] = [{ type: 'CourseCreditsAdded', data: { ...data, at } }];
    if (state.status === 'inactive') events.push({ type: 'CourseActivated', data: { courseId: data.courseId, at } });
    // The repurchase being paid for is over: credited once, so cleared once.
    if (state.pendingRepurchase === data.purchaseId)
      events.push({
        type: 'CourseRepurchaseCleared',
        data: { courseId: data.courseId, purchaseId: data.purchaseId, outcome: 'completed', at },
      });
    return events;
  },

  MarkRepurchasePending: ({ data, metadata: { now } }, state) => {
    existing(state);
    // The same repurchase again (a retried request), or one already credited: nothing to claim.
    if (state.pendingRepurchase === data.purchaseId || state.purchases.includes(data.purchaseId)) return [];
    // The rule the dashboards offer Repurchase by (courseOffers.ts).
    const refusal = repurchaseRefusal(creditsOf(state));
    if (refusal) throw new DomainError(refusal, 'conflict');
    return [{ type: 'CourseRepurchasePending', data: { courseId: data.courseId, purchaseId: data.purchaseId, at: now.toISOString() } }];
  },

  // Idempotent by state: only the pending purchase's own end clears the mark, once.
  ClearRepurchase: ({ data, metadata: { now } }, state) =>
    existing(state).pendingRepurchase === data.purchaseId
      ? [{ type: 'CourseRepurchaseCleared', data: { ...data, at: now.toISOString() } }]
      : [],

  RemovePurchaseCredits: ({ data, metadata: { now } }, state) => {
    const credited = existing(state).credited.find((c) => c.purchaseId === data.purchaseId);
    if (!credited) throw new DomainError(PURCHASE_NOT_CREDITED, 'conflict');
    // Removed already (a retried or concurrent refund): the first removal stands.
    if (credited.removed > 0) return [];
    const credits = unusedCreditsOf(state, data.purchaseId);
    if (credits < 1) throw new DomainError(NOTHING_UNUSED, 'conflict');
    return [
      { type: 'CourseCreditsRemoved', data: { courseId: data.courseId, purchaseId: data.purchaseId, credits, at: now.toISOString() } },
    ];
  },

  RestorePurchaseCredits: ({ data, metadata: { now } }, state) => {
    const credited = existing(state).credited.find((c) => c.purchaseId === data.purchaseId);
    if (!credited || credited.removed === 0) return [];
    return [
      {
        type: 'CourseCreditsRestored',
        data: { courseId: data.courseId, purchaseId: data.purchaseId, credits: credited.removed, at: now.toISOString() },
      },
    ];
  },

  ReserveCredit: ({ data, metadata: { now } }, state) => {
    existing(state);
    if (state.reserved.includes(data.sessionId) || state.used.includes(data.sessionId)) return [];
    if (state.status === 'inactive') throw new DomainError(COURSE_ENDED, 'conflict');
    if (!state.tutorId) throw new DomainError(TUTOR_NOT_CHOSEN, 'conflict');
    if (sessionsRemainingOf(state) < 1) throw new DomainError(NO_SESSIONS_REMAINING, 'conflict');
    return [{ type: 'CourseCreditReserved', data: { ...data, at: now.toISOString() } }];
  },

  // A compensation or a timely cancellation: releasing what is not held changes nothing.
  ReleaseCredit: ({ data, metadata: { now } }, state) =>
    existing(state).reserved.includes(data.sessionId) ? [{ type: 'CourseCreditReleased', data: { ...data, at: now.toISOString() } }] : [],

  ConsumeCredit: settle('CourseCreditConsumed'),
  ForfeitCredit: settle('CourseCreditForfeited'),
});

export const courseDecider: Decider<CourseCommand, CourseEvent, CourseState> = {
  initialState: initialCourseState,
  evolve: evolveCourse,
  decide: decideCourse,
};
