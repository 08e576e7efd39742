import type { repurchaseOutcomes } from '../../domain/courses/course.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import type { CourseHandlers } from './courseHandlers.ts';

/**
 * A repurchase's claim on its course (stream `course-<id>`): recorded before the purchase starts, so
 * of two repurchases started at once (two tabs, different idempotency keys) one is paid for and the
 * other refused, and the course cannot be ended while one is being paid (the decider refuses both).
 * `maxAttempts`: concurrent repurchases and an End Course race on the course's stream.
 */
export function markRepurchasePending(handlers: CourseHandlers, input: { courseId: string; purchaseId: string }, ctx: CommandContext) {
  return handlers.courses.handle(input.courseId, { type: 'MarkRepurchasePending', data: input }, ctx, { maxAttempts: 10 });
}

/** The repurchase is over (or its request gave the claim back): clears that purchase's mark only, once (nothing when not pending). */
export function clearRepurchase(
  handlers: CourseHandlers,
  input: { courseId: string; purchaseId: string; outcome: (typeof repurchaseOutcomes)[number] },
  ctx: CommandContext,
) {
  return handlers.courses.handle(input.courseId, { type: 'ClearRepurchase', data: input }, ctx, { maxAttempts: 10 });
}

/** Whether the course's stream holds the purchase's mark. */
export async function holdsRepurchase(handlers: CourseHandlers, input: { courseId: string; purchaseId: string }) {
  return (await handlers.courses.load(input.courseId)).pendingRepurchase === input.purchaseId;
}
