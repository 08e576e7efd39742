import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/**
 * A student's course in one subject (spec part 1 §3 `student_courses`) and its credit ledger: the
 * sessions it may still book change only by these events, so `sessionsRemaining` can be recomputed
 * from the log at any time and never drifts.
 */

export const courseStatuses = ['enrolled', 'active', 'inactive'] as const;
export type CourseStatus = (typeof courseStatuses)[number];

/** Paid for: the course exists with its first package's credits, awaiting a tutor. */
export const courseEnrolled = z.object({
  courseId: z.string(),
  studentId: z.string(),
  subjectId: z.string(),
  packageId: z.string(),
  purchaseId: z.string(),
  credits: z.number().int(),
  at: z.string(),
});
export const courseTutorChosen = z.object({ courseId: z.string(), tutorId: z.string(), at: z.string() });
/** The first-session step finished (booked or skipped): the course is under way. */
export const courseActivated = z.object({ courseId: z.string(), at: z.string() });
export const courseEnded = z.object({ courseId: z.string(), at: z.string() });
/** A repurchase added a package's credits. */
export const courseCreditsAdded = z.object({
  courseId: z.string(),
  packageId: z.string(),
  purchaseId: z.string(),
  credits: z.number().int(),
  at: z.string(),
});
/**
 * A refund took back the purchase's credits that no session holds (credits are spent oldest purchase
 * first, see `unusedCreditsOf`).
 */
export const courseCreditsRemoved = z.object({
  courseId: z.string(),
  purchaseId: z.string(),
  credits: z.number().int(),
  at: z.string(),
});
/** The refund that removed them failed at the payment provider: the credits are the student's again. */
export const courseCreditsRestored = courseCreditsRemoved;
/**
 * A repurchase of the course is being paid for (claimed on the course's stream before its purchase
 * starts): one at a time, and the course cannot be ended meanwhile (its credits would reopen it).
 */
export const courseRepurchasePending = z.object({ courseId: z.string(), purchaseId: z.string(), at: z.string() });
/** How a pending repurchase ended: credited, abandoned (cancelled, expired), failed, or given back by its own request. */
export const repurchaseOutcomes = ['completed', 'abandoned', 'failed', 'given_back'] as const;
export const courseRepurchaseCleared = z.object({
  courseId: z.string(),
  purchaseId: z.string(),
  outcome: z.enum(repurchaseOutcomes),
  at: z.string(),
});
/** One credit held by a booked session, until it is released, consumed or forfeited. */
const sessionCredit = z.object({ courseId: z.string(), sessionId: z.string(), at: z.string() });

export const courseEvents = {
  CourseEnrolled: eventType(courseEnrolled, { describe: (d) => `Course enrolled with ${d.credits} session(s)` }),
  CourseTutorChosen: eventType(courseTutorChosen, { describe: () => 'Tutor chosen for the course' }),
  CourseActivated: eventType(courseActivated, { describe: () => 'Course activated' }),
  CourseEnded: eventType(courseEnded, { describe: () => 'Course ended' }),
  CourseCreditsAdded: eventType(courseCreditsAdded, { describe: (d) => `${d.credits} session(s) added to the course` }),
  CourseCreditsRemoved: eventType(courseCreditsRemoved, { describe: (d) => `${d.credits} unused session(s) removed (purchase refunded)` }),
  CourseCreditsRestored: eventType(courseCreditsRestored, { describe: (d) => `${d.credits} session(s) given back (refund failed)` }),
  CourseRepurchasePending: eventType(courseRepurchasePending, { describe: () => 'More sessions for the course are being paid for' }),
  CourseRepurchaseCleared: eventType(courseRepurchaseCleared, {
    describe: (d) => `The repurchase being paid for is over (${d.outcome.replace('_', ' ')})`,
  }),
  CourseCreditReserved: eventType(sessionCredit, { describe: () => 'Session credit reserved by a booking' }),
  CourseCreditReleased: eventType(sessionCredit, { describe: () => 'Session credit released (cancelled in time)' }),
  CourseCreditConsumed: eventType(sessionCredit, { describe: () => 'Session credit used (session completed)' }),
  CourseCreditForfeited: eventType(sessionCredit, { describe: () => 'Session credit forfeited (late cancellation)' }),
};

export type CourseEvent = EventsOf<typeof courseEvents>;

export interface CourseState {
  exists: boolean;
  studentId: string | null;
  subjectId: string | null;
  tutorId: string | null;
  status: CourseStatus;
  /** Every credit the course ever received (purchases and repurchases). */
  totalSessions: number;
  /** Sessions holding a credit now. */
  reserved: string[];
  /** Sessions whose credit is gone: completed or forfeited. */
  used: string[];
  /** Purchases already credited (a repeated credit changes nothing). */
  purchases: string[];
  /** Each purchase's credits in the order they came, and how many a refund removed. */
  credited: CreditedPurchase[];
  /** The repurchase being paid for (its purchase id), if any: at most one at a time. */
  pendingRepurchase: string | null;
}

export interface CreditedPurchase {
  purchaseId: string;
  credits: number;
  removed: number;
}

export const initialCourseState: CourseState = {
  exists: false,
  studentId: null,
  subjectId: null,
  tutorId: null,
  status: 'enrolled',
  totalSessions: 0,
  reserved: [],
  used: [],
  purchases: [],
  credited: [],
  pendingRepurchase: null,
};

/** Credits neither reserved nor used (spec `sessionsRemaining`); never below zero by construction of the decider. */
export const sessionsRemainingOf = (state: Pick<CourseState, 'totalSessions' | 'reserved' | 'used'>) =>
  state.totalSessions - state.reserved.length - state.used.length;

/**
 * The credits of a purchase that no session has taken. Credits taken (reserved or used) are charged to
 * the oldest purchase first (a repurchase is only possible once every earlier credit is taken), so a
 * purchase's unused credits are what is left of it once the credits taken have been charged to the
 * purchases before it and then to it; a released credit frees the newest purchase's.
 */
export function unusedCreditsOf(state: Pick<CourseState, 'credited' | 'reserved' | 'used'>, purchaseId: string): number {
  const taken = state.reserved.length + state.used.length;
  let before = 0;
  for (const c of state.credited) {
    const live = c.credits - c.removed;
    if (c.purchaseId === purchaseId) return Math.max(0, Math.min(live, before + live - taken));
    before += live;
  }
  return 0;
}

const withRemoved = (credited: readonly CreditedPurchase[], purchaseId: string, removed: number) =>
  credited.map((c) => (c.purchaseId === purchaseId ? { ...c, removed } : c));

const without = (list: readonly string[], id: string) => list.filter((x) => x !== id);

export function evolveCourse(state: CourseState, event: CourseEvent): CourseState {
  switch (event.type) {
    case 'CourseEnrolled':
      return {
        ...state,
        exists: true,
        studentId: event.data.studentId,
        subjectId: event.data.subjectId,
        status: 'enrolled',
        totalSessions: event.data.credits,
        purchases: [event.data.purchaseId],
        credited: [{ purchaseId: event.data.purchaseId, credits: event.data.credits, removed: 0 }],
      };
    case 'CourseTutorChosen':
      return { ...state, tutorId: event.data.tutorId };
    case 'CourseActivated':
      return { ...state, status: 'active' };
    case 'CourseEnded':
      return { ...state, status: 'inactive' };
    case 'CourseCreditsAdded':
      return {
        ...state,
        totalSessions: state.totalSessions + event.data.credits,
        purchases: [...state.purchases, event.data.purchaseId],
        credited: [...state.credited, { purchaseId: event.data.purchaseId, credits: event.data.credits, removed: 0 }],
      };
    case 'CourseCreditsRemoved':
      return {
        ...state,
        totalSessions: state.totalSessions - event.data.credits,
        credited: withRemoved(state.credited, event.data.purchaseId, event.data.credits),
      };
    case 'CourseCreditsRestored':
      return {
        ...state,
        totalSessions: state.totalSessions + event.data.credits,
        credited: withRemoved(state.credited, event.data.purchaseId, 0),
      };
    case 'CourseRepurchasePending':
      return { ...state, pendingRepurchase: event.data.purchaseId };
    case 'CourseRepurchaseCleared':
      return state.pendingRepurchase === event.data.purchaseId ? { ...state, pendingRepurchase: null } : state;
    case 'CourseCreditReserved':
      return { ...state, reserved: [...state.reserved, event.data.sessionId] };
    case 'CourseCreditReleased':
      return { ...state, reserved: without(state.reserved, event.data.sessionId) };
    case 'CourseCreditConsumed':
    case 'CourseCreditForfeited':
      return { ...state, reserved: without(state.reserved, event.data.sessionId), used: [...state.used, event.data.sessionId] };
    default:
      return state;
  }
}

export const courseStreamId = (courseId: string) => `course-${courseId}`;
