import type { CommandContext } from '../kit/commandContext.ts';
import type { AccountHandlers } from './accountDeps.ts';

type Students = Pick<AccountHandlers, 'students'>;

/**
 * Checkouts of one student race for their course slots on the student's stream: each lost race
 * re-reads and decides again, so at most 4 claims ever stand, whatever the concurrency.
 */
export const ENROLLMENT_ATTEMPTS = 40;

/** Holds a course slot for the purchase (spec part 2 §5 rules); the same purchase again changes nothing. */
export function claimEnrollment(
  handlers: Students,
  input: { studentId: string; subjectId: string; purchaseId: string; gradeTierId: string },
  ctx: CommandContext,
) {
  return handlers.students.handle(input.studentId, { type: 'ClaimEnrollment', data: input }, ctx, { maxAttempts: ENROLLMENT_ATTEMPTS });
}

/** The payment failed or was abandoned: frees the claimed slot (nothing if it was not claimed). */
export function releaseEnrollment(handlers: Students, input: { studentId: string; purchaseId: string }, ctx: CommandContext) {
  return handlers.students.handle(input.studentId, { type: 'ReleaseEnrollment', data: input }, ctx, { maxAttempts: ENROLLMENT_ATTEMPTS });
}

/**
 * The course was created for the purchase: the claim becomes a course awaiting its tutor.
 * `subjectId` lets a course whose claim was already released (a late payment) take its slot still.
 */
export function confirmEnrollment(
  handlers: Students,
  input: { studentId: string; purchaseId: string; courseId: string; subjectId?: string },
  ctx: CommandContext,
) {
  return handlers.students.handle(input.studentId, { type: 'ConfirmEnrollment', data: input }, ctx, { maxAttempts: ENROLLMENT_ATTEMPTS });
}

/** The course has its tutor: it no longer blocks a new enrolment. */
export function recordCourseTutorChosen(handlers: Students, input: { studentId: string; courseId: string }, ctx: CommandContext) {
  return handlers.students.handle(input.studentId, { type: 'RecordCourseTutorChosen', data: input }, ctx, {
    maxAttempts: ENROLLMENT_ATTEMPTS,
  });
}

/** The course ended: its slot is free. */
export function recordCourseEnded(handlers: Students, input: { studentId: string; courseId: string }, ctx: CommandContext) {
  return handlers.students.handle(input.studentId, { type: 'RecordCourseEnded', data: input }, ctx, { maxAttempts: ENROLLMENT_ATTEMPTS });
}
