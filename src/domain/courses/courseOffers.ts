import type { CourseStatus } from './course.ts';

/**
 * When a course may be ended or topped up (spec part 2 §4: "Repurchase and End Course are offered only
 * when sessionsRemaining is 0"). One rule for the course's decider, which enforces it, and for the
 * dashboards, which offer the buttons from the read model's counts: the two cannot disagree, so a
 * button the server would refuse is never shown (issue 24 item 2).
 */

export const COURSE_ENDED = 'This course has ended';
export const END_ONLY_WHEN_USED = 'A course can be ended only when it has no sessions remaining';
export const REPURCHASE_ALREADY_PENDING =
  'More sessions for this course are already being paid for. Finish that payment, or try again once it has expired (30 minutes).';
export const REPURCHASE_WHILE_SESSIONS_REMAIN = 'More sessions can be bought once this course has no sessions remaining';
export const REPURCHASE_BEING_PAID =
  'More sessions for this course are being paid for. Finish that payment, or end the course once it has expired (30 minutes).';

/** A course's credits as both the stream and the read model know them. */
export interface CourseCredits {
  status: CourseStatus;
  /** Credits neither booked nor used (`sessionsRemaining`). */
  left: number;
  /** Credits held by booked sessions still ahead. */
  booked: number;
  /** A repurchase of the course is being paid for. */
  repurchasePending: boolean;
}

/**
 * Why the course cannot be ended now, or null when it can. A booked session still has to happen (or
 * be cancelled): ending the course would free its place while that session holds a credit.
 */
export function endCourseRefusal(c: CourseCredits): string | null {
  if (c.status === 'inactive') return COURSE_ENDED;
  if (c.left > 0 || c.booked > 0) return END_ONLY_WHEN_USED;
  // Its credits would reopen the course after the student's slot was given up.
  if (c.repurchasePending) return REPURCHASE_BEING_PAID;
  return null;
}

/**
 * Why more sessions cannot be bought for the course now, or null when they can. Booked sessions do
 * not stand in the way: every credit is taken, so the family may buy the next package ahead.
 */
export function repurchaseRefusal(c: CourseCredits): string | null {
  if (c.status === 'inactive') return COURSE_ENDED;
  if (c.repurchasePending) return REPURCHASE_ALREADY_PENDING;
  if (c.left > 0) return REPURCHASE_WHILE_SESSIONS_REMAIN;
  return null;
}

/** The dashboards' question: is there anything the renewal panel may offer? */
export const offersRenewal = (c: CourseCredits) => endCourseRefusal(c) === null || repurchaseRefusal(c) === null;
