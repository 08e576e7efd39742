import { creditsOfCourse, type StudentCourse } from '@shared/courses/courseApi.ts';
import { offersRenewal as offersRenewalOf } from '@shared/courses/courseOffers.ts';

/** Spec part 2 §5: at most 4 courses; Add Course is hidden at 4 or more. */
export const MAX_COURSES = 4;

/**
 * Spec part 2 §4: Repurchase and End Course are offered only when no sessions remain (an ended course
 * offers neither), each exactly when the server accepts it (the decider's rule, courseOffers.ts).
 */
export const offersRenewal = (c: StudentCourse) => offersRenewalOf(creditsOfCourse(c));
