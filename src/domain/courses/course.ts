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
/** One credit held by a booked session, until it is released, consumed or forfeited. */
const sessionCredit = z.object({ courseId: z.string(), sessionId: z.string(), at: z.string() });

export const courseEvents = {
  CourseEnrolled: eventType(courseEnrolled, { describe: (d) => `Course enrolled with ${d.credits} session(s)` }),
  CourseTutorChosen: eventType(courseTutorChosen, { describe: () => 'Tutor chosen for the course' }),
  CourseActivated: eventType(courseActivated, { describe: () => 'Course activated' }),
  CourseEnded: eventType(courseEnded, { describe: () => 'Course ended' }),
  CourseCreditsAdded: eventType(courseCreditsAdded, { describe: (d) => `${d.credits} session(s) added to the course` }),
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
};

/** Credits neither reserved nor used (spec `sessionsRemaining`); never below zero by construction of the decider. */
export const sessionsRemainingOf = (state: Pick<CourseState, 'totalSessions' | 'reserved' | 'used'>) =>
  state.totalSessions - state.reserved.length - state.used.length;

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
      };
    case 'CourseTutorChosen':
      return { ...state, tutorId: event.data.tutorId };
    case 'CourseActivated':
      return { ...state, status: 'active' };
    case 'CourseEnded':
      return { ...state, status: 'inactive' };
    case 'CourseCreditsAdded':
      return { ...state, totalSessions: state.totalSessions + event.data.credits, purchases: [...state.purchases, event.data.purchaseId] };
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
