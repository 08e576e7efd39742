import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore, Position } from '../../adapters/eventstore/eventStore.ts';
import type { StudentCourse } from '../../domain/courses/courseApi.ts';
import { COURSE_NOT_FOUND } from '../../domain/courses/courseDecider.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import type { CreditPolicy } from '../../domain/sessions/session.ts';
import { findStudent, studentIdsHeldBy } from '../../projections/accounts/queries.ts';
import { courseTutorId, enrollmentStatus, findCourse, findStudentCourse, listStudentCourses } from '../../projections/courses/queries.ts';
import { upcomingSessionIdsWithTutor } from '../../projections/sessions/queries.ts';
import { listedTutorsBySubject } from '../../projections/tutors/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { stepOf } from '../kit/processStep.ts';
import { courseHandlers } from './courseHandlers.ts';
import { activateCourse, chooseCourseTutor, endCourse } from './courseLifecycle.ts';

/** Why a departed tutor's sessions were cancelled (the cancellation's recorded reason, in its notices). */
export const TUTOR_LEFT_REASON = 'The tutor is no longer available; the family chose another tutor and the session was given back.';

/**
 * What the courses feature needs, given by system.ts: the store and the read models, and what
 * other features own — cancelling a session (sessions) and the student's record of their courses
 * (accounts: a course with its tutor, or ended, no longer blocks a new enrolment).
 */
export interface CoursesModuleDeps {
  sql: Sql;
  store: EventStore;
  cancelSession(
    sessionId: string,
    input: { reason: string; onBehalf: { creditPolicy: CreditPolicy } },
    ctx: CommandContext,
  ): Promise<unknown>;
  students: {
    tutorChosen(input: { studentId: string; courseId: string }, ctx: CommandContext): Promise<unknown>;
    courseEnded(input: { studentId: string; courseId: string }, ctx: CommandContext): Promise<unknown>;
  };
}

/**
 * The student courses feature, built once by system.ts: a student's courses and their tutors'
 * standing, the enrolment status, and the course's lifecycle (choosing its tutor, activating it,
 * ending it). Who may do what is the routes' part (the account-holder rule over `studentHolders`);
 * every write answers the position its read-your-writes waits for.
 */
export function coursesModule(deps: CoursesModuleDeps) {
  const { sql, store, students } = deps;
  const handlers = courseHandlers(store);

  /**
   * Choosing another tutor because the course's tutor left (no longer listed for the subject):
   * the sessions still booked with them are cancelled with their credits given back (the family
   * did not cancel; their tutor went), so the new tutor can be booked with them. A tutor still
   * listed keeps their sessions: nothing is cancelled on a change of mind.
   */
  async function releaseDepartedTutorSessions(courseId: string, subjectId: string, chosen: string, ctx: CommandContext) {
    const previous = await courseTutorId(sql, courseId);
    if (!previous || previous === chosen) return;
    if ((await listedTutorsBySubject(sql, [subjectId])).get(subjectId)?.includes(previous)) return;
    const step = stepOf(ctx);
    for (const sessionId of await upcomingSessionIdsWithTutor(sql, courseId, previous, ctx.now)) {
      await deps.cancelSession(
        sessionId,
        { reason: TUTOR_LEFT_REASON, onBehalf: { creditPolicy: 'refundCredit' } },
        step(`departed-${sessionId}`),
      );
    }
  }

  /** The student's course in a subject (the open one, else the latest); a 404 when none. */
  const courseInSubject = async (studentId: string, subjectId: string) => {
    const course = await findStudentCourse(sql, studentId, subjectId);
    if (!course) throw new DomainError(COURSE_NOT_FOUND, 'not_found');
    return course;
  };

  return {
    /** The student's account holders (null for an unknown or erased student), for the account-holder rule. */
    studentHolders: (studentId: string) => findStudent(sql, studentId),
    /** The first student profile `userId` holds (their own, or a child's), or null. */
    firstStudentOf: async (userId: string): Promise<string | null> => (await studentIdsHeldBy(sql, userId))[0] ?? null,
    /** Whether the student may enrol in a new course, and the courses awaiting a tutor (display only); nothing for no student. */
    enrollmentStatus: async (studentId: string | null) =>
      studentId ? enrollmentStatus(sql, studentId) : { canEnrollInNewCourse: false, pendingTutorSelections: [] },

    /** The student's courses with subject, package, grade tier, tutor and the sessions remaining. */
    studentCourses: (studentId: string) => listStudentCourses(sql, studentId),
    /** For each open course: whether its tutor has left, and how many listed tutors teach its subject. */
    async courseTutors(studentId: string) {
      const open = (await listStudentCourses(sql, studentId)).filter((c) => c.status !== 'inactive');
      const listed = await listedTutorsBySubject(sql, [...new Set(open.map((c) => c.subjectId))]);
      return open.map((c) => {
        const tutors = listed.get(c.subjectId) ?? [];
        return { courseId: c.id, tutorLeft: c.tutorId !== null && !tutors.includes(c.tutorId), tutorsAvailable: tutors.length };
      });
    },
    courseInSubject,
    /** One course's owner and ledger state; a 404 when unknown. */
    async course(courseId: string) {
      const course = await findCourse(sql, courseId);
      if (!course) throw new DomainError(COURSE_NOT_FOUND, 'not_found');
      return course;
    },
    /** One course as its student's list shows it (after the write's read-your-writes); a 404 when it is not there. */
    async courseView(studentId: string, courseId: string): Promise<StudentCourse> {
      const course = (await listStudentCourses(sql, studentId)).find((c) => c.id === courseId);
      if (!course) throw new DomainError(COURSE_NOT_FOUND, 'not_found');
      return course;
    },

    /**
     * The student chooses the course's tutor: a departed tutor's booked sessions are given back
     * first, and the student's stream learns the course has its tutor (it no longer blocks a new enrolment).
     */
    async chooseTutor(
      input: { studentId: string; subjectId: string; courseId: string; tutorId: string },
      ctx: CommandContext,
    ): Promise<{ position: Position | null }> {
      const { studentId, subjectId, courseId, tutorId } = input;
      await releaseDepartedTutorSessions(courseId, subjectId, tutorId, ctx);
      const { position } = await chooseCourseTutor(handlers, sql, { courseId, tutorId }, ctx);
      await students.tutorChosen({ studentId, courseId }, stepOf(ctx)('student'));
      return { position };
    },
    /** The first-session step finished (booked or skipped): the course is under way. */
    activate: (courseId: string, ctx: CommandContext) => activateCourse(handlers, { courseId }, ctx),
    /**
     * Ends a course whose sessions are all used (409 while a repurchase is being paid for: the
     * course's stream holds its mark); the student's slot is free for a new enrolment.
     */
    async end(course: { id: string; studentId: string }, ctx: CommandContext): Promise<{ position: Position | null }> {
      const { position } = await endCourse(handlers, { courseId: course.id }, ctx);
      await students.courseEnded({ studentId: course.studentId, courseId: course.id }, stepOf(ctx)('student'));
      return { position };
    },
  };
}

export type CoursesModule = ReturnType<typeof coursesModule>;
