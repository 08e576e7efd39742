import type { Sql } from '../../adapters/db/db.ts';
import type { SessionStatus } from '../../domain/sessions/session.ts';
import type { StudentSession, TutorSession } from '../../domain/sessions/sessionApi.ts';

/** The sessions read model's queries. Cancelled sessions are kept in the table but listed by none of them. */

interface SessionRead {
  id: string;
  tutor_id: string;
  student_id: string;
  course_id: string;
  subject_id: string;
  subject_name: string;
  start_at: Date;
  duration: number;
  status: SessionStatus;
  notes: string | null;
  report: string | null;
  meeting_link: string | null;
  google_calendar_event_id: string | null;
}

/** A completed session shows its report; before that, the booking's notes. */
const notesOf = (r: SessionRead) => r.report ?? r.notes;

/** The tutor's sessions, oldest first (spec part 2 §3 "Tutor session"). */
export async function listTutorSessions(sql: Sql, tutorId: string): Promise<TutorSession[]> {
  const rows = await sql<(SessionRead & { student_first_name: string | null; student_last_name: string | null })[]>`
    SELECT s.id, s.tutor_id, s.student_id, s.course_id, s.subject_id, s.subject_name, s.start_at, s.duration, s.status, s.notes,
      s.report, s.meeting_link, s.google_calendar_event_id, st.first_name AS student_first_name, st.last_name AS student_last_name
    FROM sessions s LEFT JOIN students st ON st.id = s.student_id
    WHERE s.tutor_id = ${tutorId} AND s.status <> 'cancelled'
    ORDER BY s.start_at, s.id`;
  return rows.map((r) => ({
    id: r.id,
    tutorId: r.tutor_id,
    studentId: r.student_id,
    student: { firstName: r.student_first_name ?? '', lastName: r.student_last_name ?? '' },
    subject: { id: r.subject_id, name: r.subject_name },
    date: r.start_at.toISOString(),
    duration: r.duration,
    status: r.status,
    notes: notesOf(r),
    meetingLink: r.meeting_link,
    googleCalendarEventId: r.google_calendar_event_id,
  }));
}

/**
 * A student's sessions in the dashboard's shape (spec part 2 §3 "Student session"), oldest first:
 * upcoming are those not completed; the completed ones carry the tutor's report as `notes`.
 */
export async function listStudentSessions(sql: Sql, studentId: string): Promise<StudentSession[]> {
  const rows = await sql<(SessionRead & { tutor_first_name: string | null; tutor_last_name: string | null })[]>`
    SELECT s.id, s.tutor_id, s.student_id, s.course_id, s.subject_id, s.subject_name, s.start_at, s.duration, s.status, s.notes,
      s.report, s.meeting_link, s.google_calendar_event_id, u.first_name AS tutor_first_name, u.last_name AS tutor_last_name
    FROM sessions s LEFT JOIN users u ON u.id = s.tutor_id
    WHERE s.student_id = ${studentId} AND s.status <> 'cancelled'
    ORDER BY s.start_at, s.id`;
  return rows.map((r) => ({
    id: r.id,
    courseId: r.course_id,
    tutorId: r.tutor_id,
    date: r.start_at.toISOString(),
    duration: r.duration,
    status: r.status,
    subject: { id: r.subject_id, name: r.subject_name },
    tutor: { id: r.tutor_id, firstName: r.tutor_first_name ?? '', lastName: r.tutor_last_name ?? '' },
    meetingLink: r.meeting_link,
    notes: notesOf(r),
  }));
}

/** One session's parties and hour (for ownership checks); null when unknown. */
export async function findSession(
  sql: Sql,
  sessionId: string,
): Promise<{ id: string; tutorId: string; studentId: string; courseId: string; start: Date; status: SessionStatus } | null> {
  const [row] = await sql<{ id: string; tutor_id: string; student_id: string; course_id: string; start_at: Date; status: SessionStatus }[]>`
    SELECT id, tutor_id, student_id, course_id, start_at, status FROM sessions WHERE id = ${sessionId}`;
  return row
    ? { id: row.id, tutorId: row.tutor_id, studentId: row.student_id, courseId: row.course_id, start: row.start_at, status: row.status }
    : null;
}

/** Hours the tutor's scheduled sessions hold between two instants (for showing slots; bookings decide on the schedule stream). */
export async function heldHours(
  sql: Sql,
  tutorId: string,
  range: { from: string; to: string },
  excludeSessionId: string | null = null,
): Promise<{ start: string; end: string }[]> {
  const rows = await sql<{ start_at: Date; end_at: Date }[]>`
    SELECT start_at, end_at FROM sessions
    WHERE tutor_id = ${tutorId} AND status = 'scheduled' AND start_at < ${range.to} AND end_at > ${range.from}
      AND id IS DISTINCT FROM ${excludeSessionId}
    ORDER BY start_at`;
  return rows.map((r) => ({ start: r.start_at.toISOString(), end: r.end_at.toISOString() }));
}

/**
 * Every session of the students an account holds (its own profile, or a parent's children), any
 * status: what an account's erasure must reach in the calendars.
 */
export async function sessionIdsOfAccount(sql: Sql, userId: string): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    SELECT s.id FROM sessions s JOIN students st ON st.id = s.student_id
    WHERE st.user_id = ${userId} OR st.parent_id = ${userId}
    ORDER BY s.id`;
  return rows.map((r) => r.id);
}

/** A course's sessions still ahead with one tutor (scheduled, starting after `now`): what a departed tutor leaves booked. */
export async function upcomingSessionIdsWithTutor(sql: Sql, courseId: string, tutorId: string, now: Date): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    SELECT id FROM sessions WHERE course_id = ${courseId} AND tutor_id = ${tutorId} AND status = 'scheduled' AND start_at > ${now}
    ORDER BY start_at, id`;
  return rows.map((r) => r.id);
}

/** A booking's student: the account holders (for the permission check) and the facts the session records, in one query. */
export async function bookingStudent(
  sql: Sql,
  studentId: string,
  subjectId: string | null,
): Promise<{ userId: string; parentId: string | null; timezone: string | null; subjectName: string | null } | null> {
  const [facts] = await sql<{ user_id: string; parent_id: string | null; timezone: string | null; subject_name: string | null }[]>`
    SELECT s.user_id, s.parent_id, u.timezone, (SELECT name FROM subjects WHERE id = ${subjectId ?? ''}) AS subject_name
    FROM students s LEFT JOIN users u ON u.id = s.user_id
    WHERE s.id = ${studentId}`;
  return facts ? { userId: facts.user_id, parentId: facts.parent_id, timezone: facts.timezone, subjectName: facts.subject_name } : null;
}

/**
 * The course a calendar booking names (spec part 2 §7): the student's course of the purchase (or
 * the course id itself), else one of the named subject; an active one and the purchase's first.
 */
export async function courseOfCalendarBooking(
  sql: Sql,
  query: { studentId: string; purchaseId: string; subject: string | null },
): Promise<string | null> {
  const [course] = await sql<{ id: string }[]>`
    SELECT c.id FROM student_courses c
    WHERE c.student_id = ${query.studentId}
      AND (c.purchase_id = ${query.purchaseId} OR c.id = ${query.purchaseId}
           OR (${query.subject}::text IS NOT NULL AND c.subject_id IN (SELECT id FROM subjects WHERE name = ${query.subject})))
    ORDER BY c.status = 'inactive', c.purchase_id = ${query.purchaseId} DESC, c.created_at DESC LIMIT 1`;
  return course?.id ?? null;
}

/** The zone an account chose (null: none on file). */
export async function accountTimeZone(sql: Sql, userId: string): Promise<string | null> {
  const [user] = await sql<{ timezone: string | null }[]>`SELECT timezone FROM users WHERE id = ${userId}`;
  return user?.timezone ?? null;
}

// The calendar side's read models, asked through this file like the rest (the sessions module's calendar part).
export { feedOf, feedOwner, feedSessions } from './calendarFeedQueries.ts';
export { calendarSyncSummary } from './calendarSyncStatus.ts';
export { listSessionsForAdmin } from './sessionListQueries.ts';
