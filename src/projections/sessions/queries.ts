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
