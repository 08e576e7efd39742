import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordCourseEnded, recordCourseTutorChosen } from '../../../commands/accounts/enrollment.ts';
import { courseHandlers } from '../../../commands/courses/courseHandlers.ts';
import { courseLedger } from '../../../commands/courses/courseLedger.ts';
import { activateCourse, chooseCourseTutor, endCourse } from '../../../commands/courses/courseLifecycle.ts';
import type { CommandContext } from '../../../commands/kit/commandContext.ts';
import { stepOf } from '../../../commands/kit/processStep.ts';
import { SCHEDULE_ATTEMPTS, sessionHandlers } from '../../../commands/sessions/sessionHandlers.ts';
import { cancelSession } from '../../../commands/sessions/sessionLifecycle.ts';
import { enrollmentStatusSchema, type StudentCourse, studentCourseSchema } from '../../../domain/courses/courseApi.ts';
import { COURSE_NOT_FOUND } from '../../../domain/courses/courseDecider.ts';
import { courseTutorStatusSchema } from '../../../domain/courses/courseTutorApi.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { findStudent } from '../../../projections/accounts/queries.ts';
import { enrollmentStatus, findCourse, findStudentCourse, listStudentCourses } from '../../../projections/courses/queries.ts';
import { upcomingSessionIdsWithTutor } from '../../../projections/sessions/queries.ts';
import { listedTutorsBySubject } from '../../../projections/tutors/queries.ts';
import type { System } from '../../../system.ts';
import { principalOf } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';
import { studentAccess } from '../../kit/studentAccess.ts';

/** Who may read a student's courses: the student, their parent or account holder, their view-only login, an admin. */
const readers = { roles: ['admin', 'student', 'parent', 'student_secondary'] } as const;
/** Who may change them: the student or their parent; a view-only login never. */
const writers = { roles: ['student', 'parent'] } as const;
const courseModels = ['student_courses'] as const;

const id = z.string().min(1).max(100);
const messageSchema = z.object({ message: z.string() });
/** Why a departed tutor's sessions were cancelled (the cancellation's recorded reason, in its notices). */
export const TUTOR_LEFT_REASON = 'The tutor is no longer available; the family chose another tutor and the session was given back.';

/** A student's courses: listing, the enrolment status, the tutor choice, activation and the end of a course. */
export const courseRoutes =
  ({ sql, store, accounts }: Pick<System, 'sql' | 'store' | 'accounts'>): FastifyPluginAsyncZod =>
  async (app) => {
    const handlers = courseHandlers(store);
    /** The account-holder rule: 404 unknown, 403 someone else's; a view-only login reads only its own student and never writes. */
    const checkAccess = studentAccess((studentId) => findStudent(sql, studentId));

    const sessions = sessionHandlers(store);
    const sessionPorts = { courses: courseLedger(store, { maxAttempts: SCHEDULE_ATTEMPTS }) };

    /**
     * Choosing another tutor because the course's tutor left (no longer listed for the subject):
     * the sessions still booked with them are cancelled with their credits given back (the family
     * did not cancel; their tutor went), so the new tutor can be booked with them. A tutor still
     * listed keeps their sessions: nothing is cancelled on a change of mind.
     */
    async function releaseDepartedTutorSessions(courseId: string, subjectId: string, chosen: string, ctx: CommandContext) {
      const [current] = await sql<{ tutor_id: string | null }[]>`SELECT tutor_id FROM student_courses WHERE id = ${courseId}`;
      const previous = current?.tutor_id ?? null;
      if (!previous || previous === chosen) return;
      if ((await listedTutorsBySubject(sql, [subjectId])).get(subjectId)?.includes(previous)) return;
      const step = stepOf(ctx);
      for (const sessionId of await upcomingSessionIdsWithTutor(sql, courseId, previous, ctx.now)) {
        await cancelSession(
          sessions,
          sessionPorts,
          { sessionId, reason: TUTOR_LEFT_REASON, onBehalf: { creditPolicy: 'refundCredit' } },
          step(`departed-${sessionId}`),
        );
      }
    }

    const courseView = async (studentId: string, courseId: string): Promise<StudentCourse> => {
      const course = (await listStudentCourses(sql, studentId)).find((c) => c.id === courseId);
      if (!course) throw new DomainError(COURSE_NOT_FOUND, 'not_found');
      return course;
    };

    app.get(
      '/api/student/enrollment-status',
      {
        config: { roles: ['student', 'parent', 'student_secondary'] },
        schema: {
          tags: ['courses'],
          summary: "Whether the caller's student may enrol in a new course, and the courses awaiting a tutor (display only)",
          querystring: z.object({ studentId: id.optional() }),
          response: { 200: enrollmentStatusSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const asked = request.query.studentId;
        let studentId: string | null;
        if (principal.role === 'student_secondary') studentId = principal.studentId;
        else if (asked) {
          await checkAccess(principal, asked, 'read');
          studentId = asked;
        } else {
          const [own] = await sql<{ id: string }[]>`
            SELECT id FROM students WHERE user_id = ${principal.userId} OR parent_id = ${principal.userId} ORDER BY created_at LIMIT 1`;
          studentId = own?.id ?? null;
        }
        if (!studentId) return { canEnrollInNewCourse: false, pendingTutorSelections: [] };
        return enrollmentStatus(sql, studentId);
      },
    );

    app.get(
      '/api/student/:id/courses',
      {
        config: readers,
        schema: {
          tags: ['courses'],
          summary: "A student's courses with subject, package, grade tier, tutor and the sessions remaining",
          params: z.object({ id }),
          response: { 200: z.array(studentCourseSchema) },
        },
      },
      async (request) => {
        await checkAccess(principalOf(request), request.params.id, 'read');
        return listStudentCourses(sql, request.params.id);
      },
    );

    app.get(
      '/api/student/:id/course-tutors',
      {
        config: readers,
        schema: {
          tags: ['courses'],
          summary:
            "For each open course: whether its tutor has left, and how many listed tutors teach its subject (the dashboard's way out)",
          params: z.object({ id }),
          response: { 200: z.array(courseTutorStatusSchema) },
        },
      },
      async (request) => {
        await checkAccess(principalOf(request), request.params.id, 'read');
        const open = (await listStudentCourses(sql, request.params.id)).filter((c) => c.status !== 'inactive');
        const listed = await listedTutorsBySubject(sql, [...new Set(open.map((c) => c.subjectId))]);
        return open.map((c) => {
          const tutors = listed.get(c.subjectId) ?? [];
          return { courseId: c.id, tutorLeft: c.tutorId !== null && !tutors.includes(c.tutorId), tutorsAvailable: tutors.length };
        });
      },
    );

    app.post(
      '/api/student-courses/lookup',
      {
        config: readers,
        schema: {
          tags: ['courses'],
          summary: "The id of the student's course in a subject (the open one, else the latest)",
          body: z.object({ studentId: id, subjectId: id }),
          response: { 200: z.object({ id: z.string() }), 404: messageSchema },
        },
      },
      async (request) => {
        const { studentId, subjectId } = request.body;
        await checkAccess(principalOf(request), studentId, 'read');
        const course = await findStudentCourse(sql, studentId, subjectId);
        if (!course) throw new DomainError(COURSE_NOT_FOUND, 'not_found');
        return { id: course.id };
      },
    );

    app.patch(
      '/api/student-courses/:studentId/:subjectId',
      {
        config: writers,
        schema: {
          tags: ['courses'],
          summary: "Choose the course's tutor ({tutorId, status: enrolled}) or start it after the first-session step ({status: active})",
          params: z.object({ studentId: id, subjectId: id }),
          body: z.union([
            z.object({ tutorId: id, status: z.literal('enrolled') }).strict(),
            z.object({ status: z.literal('active') }).strict(),
          ]),
          response: { 200: studentCourseSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { studentId, subjectId } = request.params;
          await checkAccess(principalOf(request), studentId, 'act');
          const course = await findStudentCourse(sql, studentId, subjectId);
          if (!course) throw new DomainError(COURSE_NOT_FOUND, 'not_found');
          const courseId = course.id;
          const body = request.body;
          let position: Awaited<ReturnType<typeof activateCourse>>['position'];
          if ('tutorId' in body) {
            await releaseDepartedTutorSessions(courseId, subjectId, body.tutorId, ctx);
            ({ position } = await chooseCourseTutor(handlers, sql, { courseId, tutorId: body.tutorId }, ctx));
            // The student's stream learns the course has its tutor: it no longer blocks a new enrolment.
            await recordCourseTutorChosen(accounts.handlers, { studentId, courseId }, stepOf(ctx)('student'));
          } else {
            ({ position } = await activateCourse(handlers, { courseId }, ctx));
          }
          await readYourWrites(sql, courseModels, position);
          return { status: 200, body: await courseView(studentId, courseId) };
        }),
    );

    app.patch(
      '/api/student-courses/:id/end',
      {
        config: writers,
        schema: {
          tags: ['courses'],
          summary: 'End a course whose sessions are all used (not while more sessions for it are being paid for)',
          params: z.object({ id }),
          body: z.object({ status: z.literal('inactive') }).strict(),
          response: { 200: studentCourseSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const course = await findCourse(sql, request.params.id);
          if (!course) throw new DomainError(COURSE_NOT_FOUND, 'not_found');
          await checkAccess(principalOf(request), course.studentId, 'act');
          // Refused (409) while a repurchase is being paid for: the course's stream holds its mark (the decider).
          const { position } = await endCourse(handlers, { courseId: course.id }, ctx);
          // The slot is free for a new enrolment.
          await recordCourseEnded(accounts.handlers, { studentId: course.studentId, courseId: course.id }, stepOf(ctx)('student'));
          await readYourWrites(sql, courseModels, position);
          return { status: 200, body: await courseView(course.studentId, course.id) };
        }),
    );
  };
