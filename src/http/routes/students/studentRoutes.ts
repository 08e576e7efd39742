import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Sql } from '../../../adapters/db/db.ts';
import { STUDENT_NOT_FOUND } from '../../../domain/accounts/studentDecider.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { mayAccessStudent } from '../../../domain/students/accountHolder.ts';
import {
  type CourseProgress,
  courseSessionCounts,
  recentSessions,
  type Student,
  type StudentDashboard,
  type StudentInfo,
  type StudentSessions,
  studentDashboardSchema,
  studentInfoSchema,
} from '../../../domain/students/studentApi.ts';
import { coursesTaughtBy, findStudent, type StudentRecord, studentIdsHeldBy } from '../../../projections/accounts/queries.ts';
import { listStudentCourses } from '../../../projections/courses/queries.ts';
import { purchasesOfStudent } from '../../../projections/purchases/queries.ts';
import type { System } from '../../../system.ts';
import { FORBIDDEN, type Principal, principalOf } from '../../kit/auth.ts';
import { requireStudentAccess } from '../../kit/studentAccess.ts';

const id = z.string().min(1).max(100);
const messageSchema = z.object({ message: z.string() });

const studentView = (s: StudentRecord): Student => ({
  id: s.id,
  userId: s.userId,
  firstName: s.firstName,
  lastName: s.lastName,
  grade: s.grade,
  schoolYearStartMonth: s.schoolYearStartMonth,
  isUniversityStudent: s.isUniversityStudent,
  notes: s.notes,
});

/**
 * The student a dashboard request is about: a view-only login's own (naming another is a 403);
 * else the one named (404 unknown, 403 someone else's); else the caller's first student (404 none).
 */
async function dashboardStudent(sql: Sql, principal: Principal, asked: string | undefined): Promise<StudentRecord> {
  let studentId: string | null;
  if (principal.role === 'student_secondary') {
    if (asked && asked !== principal.studentId) throw new DomainError(FORBIDDEN, 'forbidden');
    studentId = principal.studentId;
  } else studentId = asked ?? (await studentIdsHeldBy(sql, principal.userId))[0] ?? null;
  const student = studentId ? await findStudent(sql, studentId) : null;
  // The route admits family logins only: reading is holding the student, or being their view-only login.
  return requireStudentAccess(principal, studentId ?? '', student, 'read');
}

/** Who may read a student's info page: 404 unknown; the student, their parent, their view-only login, an admin, a tutor of theirs. */
async function infoAccess(
  sql: Sql,
  principal: Principal,
  studentId: string,
): Promise<{ student: StudentRecord; taught: ReadonlySet<string> | null }> {
  const student = await findStudent(sql, studentId);
  if (!student) throw new DomainError(STUDENT_NOT_FOUND, 'not_found');
  if (mayAccessStudent(principal, studentId, student, 'read')) return { student, taught: null };
  if (principal.role === 'tutor') {
    const taught = await coursesTaughtBy(sql, studentId, principal.userId);
    if (taught.length > 0) return { student, taught: new Set(taught) };
  }
  throw new DomainError(FORBIDDEN, 'forbidden');
}

/**
 * The student area's reads (spec part 2 §2, §3, §7): the dashboard payload and the student info
 * page. Sessions come through the `studentSessions` port (the sessions read model's query, given
 * by src/http/app.ts); courses and purchases from their read models.
 */
export const studentRoutes =
  ({ sql, studentSessions }: Pick<System, 'sql'> & { studentSessions: StudentSessions }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/student/dashboard',
      {
        config: { roles: ['student', 'parent', 'student_secondary'] },
        schema: {
          tags: ['students'],
          summary:
            "The student dashboard: the student, their sessions, purchases and courses, the caller's role, whether they may buy (not a view-only login); a parent names the student with ?studentId=",
          querystring: z.object({ studentId: id.optional() }),
          response: { 200: studentDashboardSchema, 403: messageSchema, 404: messageSchema },
        },
      },
      async (request): Promise<StudentDashboard> => {
        const principal = principalOf(request);
        const student = await dashboardStudent(sql, principal, request.query.studentId);
        const [sessions, purchases, courses] = await Promise.all([
          studentSessions(student.id),
          purchasesOfStudent(sql, student.id),
          listStudentCourses(sql, student.id),
        ]);
        const isSubAccount = principal.role === 'student_secondary';
        return {
          student: studentView(student),
          sessions,
          purchases,
          courses,
          userRole: principal.role,
          canPurchase: mayAccessStudent(principal, student.id, student, 'act'),
          isSubAccount,
        };
      },
    );

    app.get(
      '/api/student/info/:studentId',
      {
        config: { roles: ['admin', 'tutor', 'parent', 'student', 'student_secondary'] },
        schema: {
          tags: ['students'],
          summary:
            'The student info page: the student, academic progress per course, packages and purchases, the five most recent sessions (a tutor sees only the courses they teach, no purchases)',
          params: z.object({ studentId: id }),
          response: { 200: studentInfoSchema, 403: messageSchema, 404: messageSchema },
        },
      },
      async (request): Promise<StudentInfo> => {
        const principal = principalOf(request);
        const { student, taught } = await infoAccess(sql, principal, request.params.studentId);
        const [allSessions, allCourses, purchases] = await Promise.all([
          studentSessions(student.id),
          listStudentCourses(sql, student.id),
          taught ? Promise.resolve([]) : purchasesOfStudent(sql, student.id),
        ]);
        // A tutor sees what they teach: those courses and their sessions, not the rest nor what was paid.
        const courses = taught ? allCourses.filter((c) => taught.has(c.id)) : allCourses;
        const sessions = taught ? allSessions.filter((s) => s.courseId !== null && taught.has(s.courseId)) : allSessions;
        const progress: CourseProgress[] = courses.map((c) => {
          const counts = courseSessionCounts(c, sessions);
          return {
            courseId: c.id,
            subject: c.subject,
            status: c.status,
            tutor: c.tutor,
            totalSessions: c.totalSessions,
            usedSessions: c.sessionsUsed,
            bookedSessions: c.sessionsBooked,
            remainingSessions: counts.remaining,
            completedSessions: counts.completed,
            upcomingSessions: counts.upcoming,
          };
        });
        const sum = (pick: (p: CourseProgress) => number) => progress.reduce((total, p) => total + pick(p), 0);
        return {
          student: studentView(student),
          progress: {
            courses: progress,
            totalSessions: sum((p) => p.totalSessions),
            usedSessions: sum((p) => p.usedSessions),
            bookedSessions: sum((p) => p.bookedSessions),
            remainingSessions: sum((p) => p.remainingSessions),
            completedSessions: sum((p) => p.completedSessions),
            upcomingSessions: sum((p) => p.upcomingSessions),
          },
          courses,
          purchases,
          recentSessions: recentSessions(sessions),
        };
      },
    );
  };
