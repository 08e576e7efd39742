import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { courseStreamId } from '../../domain/courses/course.ts';
import { courseDecider } from '../../domain/courses/courseDecider.ts';
import { type CommandContext, deterministicUuid } from '../kit/commandContext.ts';
import { commandHandler } from '../kit/handleCommand.ts';

/** The command handlers of the courses feature: a student's course and its credit ledger (stream `course-<id>`). */
export function courseHandlers(store: EventStore) {
  return { courses: commandHandler(store, courseDecider, courseStreamId) };
}
export type CourseHandlers = ReturnType<typeof courseHandlers>;

/** The course a first purchase creates: its id derives from the purchase, so a replayed purchase finds the same course. */
export const courseIdForPurchase = (purchaseId: string) => deterministicUuid(`course/${purchaseId}`);

/** Creates the paid course with its package's credits, awaiting a tutor; the same purchase again changes nothing. */
export function enrollCourse(
  handlers: CourseHandlers,
  input: { courseId: string; studentId: string; subjectId: string; packageId: string; purchaseId: string; credits: number },
  ctx: CommandContext,
) {
  return handlers.courses.handle(input.courseId, { type: 'EnrollCourse', data: input }, ctx);
}

/** A repurchase's credits (spec part 2 §4): keyed by the purchase, so however often it is reported the course gets them once. */
export function addCourseCredits(
  handlers: CourseHandlers,
  input: { courseId: string; packageId: string; purchaseId: string; credits: number },
  ctx: CommandContext,
) {
  return handlers.courses.handle(input.courseId, { type: 'AddCourseCredits', data: input }, ctx);
}
