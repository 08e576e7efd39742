import type { CommandContext } from '../kit/commandContext.ts';
import { retriedClaim } from '../kit/retriedClaim.ts';
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

/**
 * A checkout request's claim of the slot, safe to retry after its compensation gave the slot back:
 * answered "already handled" from the stream, the retried step would let the payment go on with
 * no slot held (past the 4-course and one-course-per-subject rules), so the claim is made again
 * under the next step name (`retriedClaim`). The compensation releases under
 * `release-enrollment` + the returned suffix.
 */
export async function claimEnrollmentOnce(
  handlers: Students,
  input: { studentId: string; subjectId: string; purchaseId: string; gradeTierId: string },
  step: (name: string) => CommandContext,
): Promise<{ suffix: string }> {
  const { suffix } = await retriedClaim(
    step,
    'claim-enrollment',
    (ctx) => claimEnrollment(handlers, input, ctx),
    async () => (await handlers.students.load(input.studentId)).enrollments.some((e) => e.purchaseId === input.purchaseId),
  );
  return { suffix };
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
