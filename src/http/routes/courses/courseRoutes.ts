import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { enrollmentStatusSchema, studentCourseSchema } from '../../../domain/courses/courseApi.ts';
import { courseTutorStatusSchema } from '../../../domain/courses/courseTutorApi.ts';
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

/** A student's courses: listing, the enrolment status, the tutor choice, activation and the end of a course. */
export const courseRoutes =
  ({ sql, courses }: Pick<System, 'sql' | 'courses'>): FastifyPluginAsyncZod =>
  async (app) => {
    /** The account-holder rule: 404 unknown, 403 someone else's; a view-only login reads only its own student and never writes. */
    const checkAccess = studentAccess(courses.studentHolders);

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
        } else studentId = await courses.firstStudentOf(principal.userId);
        return courses.enrollmentStatus(studentId);
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
        return courses.studentCourses(request.params.id);
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
        return courses.courseTutors(request.params.id);
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
        return { id: (await courses.courseInSubject(studentId, subjectId)).id };
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
          const courseId = (await courses.courseInSubject(studentId, subjectId)).id;
          const body = request.body;
          const { position } =
            'tutorId' in body
              ? await courses.chooseTutor({ studentId, subjectId, courseId, tutorId: body.tutorId }, ctx)
              : await courses.activate(courseId, ctx);
          await readYourWrites(sql, courseModels, position);
          return { status: 200, body: await courses.courseView(studentId, courseId) };
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
          const course = await courses.course(request.params.id);
          await checkAccess(principalOf(request), course.studentId, 'act');
          // Refused (409) while a repurchase is being paid for: the course's stream holds its mark (the decider).
          const { position } = await courses.end(course, ctx);
          await readYourWrites(sql, courseModels, position);
          return { status: 200, body: await courses.courseView(course.studentId, course.id) };
        }),
    );
  };
