import type { Sql } from '../../adapters/db/db.ts';
import { listDirectory } from '../../projections/tutors/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import type { CourseHandlers } from './courseHandlers.ts';

/**
 * The student picks the course's tutor. The fact the decider needs (the tutor is in the public
 * directory and teaches the course's subject) comes from the tutors read model.
 */
export async function chooseCourseTutor(
  handlers: CourseHandlers,
  sql: Sql,
  input: { courseId: string; tutorId: string },
  ctx: CommandContext,
) {
  const course = await handlers.courses.load(input.courseId);
  const tutorQualified =
    course.subjectId !== null && (await listDirectory(sql, { tutorId: input.tutorId, subjectId: course.subjectId })).length > 0;
  return handlers.courses.handle(input.courseId, { type: 'ChooseCourseTutor', data: { ...input, tutorQualified } }, ctx);
}

/** The first-session step finished (booked or skipped): the course is under way. */
export function activateCourse(handlers: CourseHandlers, input: { courseId: string }, ctx: CommandContext) {
  return handlers.courses.handle(input.courseId, { type: 'ActivateCourse', data: input }, ctx);
}

/** The student ends a course whose sessions are all used. */
export function endCourse(handlers: CourseHandlers, input: { courseId: string }, ctx: CommandContext) {
  return handlers.courses.handle(input.courseId, { type: 'EndCourse', data: input }, ctx);
}
