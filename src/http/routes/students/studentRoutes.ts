import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type StudentArea, studentArea } from '../../../commands/accounts/studentArea.ts';
import { STUDENT_NOT_FOUND } from '../../../domain/accounts/studentDecider.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { mayAccessStudent } from '../../../domain/students/accountHolder.ts';
import {
  type StudentDashboard,
  type StudentInfo,
  type StudentSessions,
  studentDashboardSchema,
  studentInfoSchema,
} from '../../../domain/students/studentApi.ts';
import type { StudentRecord } from '../../../projections/accounts/queries.ts';
import type { System } from '../../../system.ts';
import { FORBIDDEN, type Principal, principalOf } from '../../kit/auth.ts';
import { requireStudentAccess } from '../../kit/studentAccess.ts';

const id = z.string().min(1).max(100);
const messageSchema = z.object({ message: z.string() });

/**
 * The student a dashboard request is about: a view-only login's own (naming another is a 403);
 * else the one named (404 unknown, 403 someone else's); else the caller's first student (404 none).
 */
async function dashboardStudent(area: StudentArea, principal: Principal, asked: string | undefined): Promise<StudentRecord> {
  let studentId: string | null;
  if (principal.role === 'student_secondary') {
    if (asked && asked !== principal.studentId) throw new DomainError(FORBIDDEN, 'forbidden');
    studentId = principal.studentId;
  } else studentId = asked ?? (await area.firstStudentOf(principal.userId));
  const student = studentId ? await area.student(studentId) : null;
  // The route admits family logins only: reading is holding the student, or being their view-only login.
  return requireStudentAccess(principal, studentId ?? '', student, 'read');
}

/** Who may read a student's info page: 404 unknown; the student, their parent, their view-only login, an admin, a tutor of theirs. */
async function infoAccess(
  area: StudentArea,
  principal: Principal,
  studentId: string,
): Promise<{ student: StudentRecord; taught: ReadonlySet<string> | null }> {
  const student = await area.student(studentId);
  if (!student) throw new DomainError(STUDENT_NOT_FOUND, 'not_found');
  if (mayAccessStudent(principal, studentId, student, 'read')) return { student, taught: null };
  if (principal.role === 'tutor') {
    const taught = await area.coursesTaughtBy(studentId, principal.userId);
    if (taught.length > 0) return { student, taught: new Set(taught) };
  }
  throw new DomainError(FORBIDDEN, 'forbidden');
}

/**
 * The student area's reads (spec part 2 §2, §3, §7): the dashboard payload and the student info
 * page, from the student area's reads (src/commands/accounts/studentArea.ts) over the
 * `studentSessions` port (the sessions read model's query, given by src/http/app.ts).
 */
export const studentRoutes =
  ({ sql, studentSessions }: Pick<System, 'sql'> & { studentSessions: StudentSessions }): FastifyPluginAsyncZod =>
  async (app) => {
    const area = studentArea({ sql, studentSessions });

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
        const student = await dashboardStudent(area, principal, request.query.studentId);
        return {
          ...(await area.dashboard(student)),
          userRole: principal.role,
          canPurchase: mayAccessStudent(principal, student.id, student, 'act'),
          isSubAccount: principal.role === 'student_secondary',
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
        const { student, taught } = await infoAccess(area, principalOf(request), request.params.studentId);
        return area.info(student, taught);
      },
    );
  };
