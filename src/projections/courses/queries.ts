import type { Sql } from '../../adapters/db/db.ts';
import type { CourseStatus } from '../../domain/courses/course.ts';
import type { EnrollmentStatus, StudentCourse } from '../../domain/courses/courseApi.ts';

/** The courses read model's queries: a student's courses with their subject, package, tier and tutor. */

interface CourseRead {
  id: string;
  student_id: string;
  subject_id: string;
  package_id: string;
  tutor_id: string | null;
  purchase_id: string;
  status: CourseStatus;
  total_sessions: number;
  reserved_sessions: number;
  used_sessions: number;
  sessions_remaining: number;
  pending_repurchase_id: string | null;
  created_at: Date;
  subject_name: string | null;
  package_name: string | null;
  package_sessions: number | null;
  tier_id: string | null;
  tier_name: string | null;
  tutor_first_name: string | null;
  tutor_last_name: string | null;
}

/** A student's courses, oldest first. */
export async function listStudentCourses(sql: Sql, studentId: string): Promise<StudentCourse[]> {
  const rows = await sql<CourseRead[]>`
    SELECT c.id, c.student_id, c.subject_id, c.package_id, c.tutor_id, c.purchase_id, c.status, c.total_sessions,
      c.reserved_sessions, c.used_sessions, c.sessions_remaining, c.pending_repurchase_id, c.created_at, s.name AS subject_name, p.name AS package_name, p.session_count AS package_sessions,
      p.grade_tier_id AS tier_id, p.grade_tier_name AS tier_name, u.first_name AS tutor_first_name, u.last_name AS tutor_last_name
    FROM student_courses c
      LEFT JOIN subjects s ON s.id = c.subject_id
      LEFT JOIN packages p ON p.id = c.package_id
      LEFT JOIN tutors t ON t.id = c.tutor_id
      LEFT JOIN users u ON u.id = t.user_id
    WHERE c.student_id = ${studentId}
    ORDER BY c.created_at, c.id`;
  return rows.map((r) => ({
    id: r.id,
    studentId: r.student_id,
    subjectId: r.subject_id,
    packageId: r.package_id,
    status: r.status,
    totalSessions: r.total_sessions,
    sessionsRemaining: r.sessions_remaining,
    sessionsBooked: r.reserved_sessions,
    sessionsUsed: r.used_sessions,
    repurchasePending: r.pending_repurchase_id !== null,
    subject: { id: r.subject_id, name: r.subject_name ?? r.subject_id },
    package: { id: r.package_id, name: r.package_name ?? r.package_id, sessionCount: r.package_sessions ?? r.total_sessions },
    gradeTier: r.tier_id ? { id: r.tier_id, name: r.tier_name ?? r.tier_id } : null,
    tutor:
      r.tutor_first_name !== null && r.tutor_last_name !== null ? { firstName: r.tutor_first_name, lastName: r.tutor_last_name } : null,
    tutorId: r.tutor_id,
    purchaseId: r.purchase_id,
    createdAt: r.created_at.toISOString(),
  }));
}

/** The student's course in a subject: the open one if any, else the latest. */
export async function findStudentCourse(
  sql: Sql,
  studentId: string,
  subjectId: string,
): Promise<{ id: string; status: CourseStatus; sessionsRemaining: number } | null> {
  const [row] = await sql<{ id: string; status: CourseStatus; sessions_remaining: number }[]>`
    SELECT id, status, sessions_remaining FROM student_courses WHERE student_id = ${studentId} AND subject_id = ${subjectId}
    ORDER BY status = 'inactive', created_at DESC LIMIT 1`;
  return row ? { id: row.id, status: row.status, sessionsRemaining: row.sessions_remaining } : null;
}

/** One course's owner and ledger state; null when unknown. */
export async function findCourse(
  sql: Sql,
  courseId: string,
): Promise<{
  id: string;
  studentId: string;
  subjectId: string;
  packageId: string;
  status: CourseStatus;
  sessionsRemaining: number;
} | null> {
  const [row] = await sql<
    { id: string; student_id: string; subject_id: string; package_id: string; status: CourseStatus; sessions_remaining: number }[]
  >`SELECT id, student_id, subject_id, package_id, status, sessions_remaining FROM student_courses WHERE id = ${courseId}`;
  return row
    ? {
        id: row.id,
        studentId: row.student_id,
        subjectId: row.subject_id,
        packageId: row.package_id,
        status: row.status,
        sessionsRemaining: row.sessions_remaining,
      }
    : null;
}

/** For display only: the student's stream decides enrolments (claims in checkout count there too). */
export async function enrollmentStatus(sql: Sql, studentId: string): Promise<EnrollmentStatus> {
  const rows = await sql<{ id: string; subject_id: string; subject_name: string | null; status: CourseStatus; tutor_id: string | null }[]>`
    SELECT c.id, c.subject_id, s.name AS subject_name, c.status, c.tutor_id
    FROM student_courses c LEFT JOIN subjects s ON s.id = c.subject_id
    WHERE c.student_id = ${studentId} AND c.status <> 'inactive' ORDER BY c.created_at, c.id`;
  const pendingTutorSelections = rows
    .filter((r) => r.status === 'enrolled' && r.tutor_id === null)
    .map((r) => ({ courseId: r.id, subjectId: r.subject_id, subjectName: r.subject_name ?? r.subject_id }));
  return { canEnrollInNewCourse: rows.length < 4 && pendingTutorSelections.length === 0, pendingTutorSelections };
}

/** The tutor the courses read model shows on a course; null when none or the course is unknown. */
export async function courseTutorId(sql: Sql, courseId: string): Promise<string | null> {
  const [row] = await sql<{ tutor_id: string | null }[]>`SELECT tutor_id FROM student_courses WHERE id = ${courseId}`;
  return row?.tutor_id ?? null;
}
