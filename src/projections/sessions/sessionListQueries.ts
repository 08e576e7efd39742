import type { Sql } from '../../adapters/db/db.ts';
import type { AdminSession, AdminSessionListFilter, AdminSessionPage } from '../../domain/sessions/adminSessionApi.ts';
import type { SessionStatus } from '../../domain/sessions/session.ts';
import type { CalendarSyncStatus } from '../../domain/sessions/sessionCalendar.ts';

/** Sort keys of the console's Sessions tab → expressions (ids break ties, so pages never overlap). */
const ORDER_BY: Record<AdminSessionListFilter['sort'], string> = {
  start: 's.start_at %s',
  status: 's.status %s, s.start_at %s',
  tutor: "lower(coalesce(t.last_name, '')) %s, lower(coalesce(t.first_name, '')) %s",
  student: "lower(coalesce(st.last_name, '')) %s, lower(coalesce(st.first_name, '')) %s",
  subject: 'lower(s.subject_name) %s',
  bookedAt: 's.booked_at %s',
};

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

interface Row {
  id: string;
  tutor_id: string;
  student_id: string;
  subject_name: string;
  start_at: Date;
  end_at: Date;
  status: SessionStatus;
  calendar_sync_status: CalendarSyncStatus;
  cancel_credit: string | null;
  booked_at: Date;
  tutor_first_name: string | null;
  tutor_last_name: string | null;
  student_first_name: string | null;
  student_last_name: string | null;
}

const nameOf = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');

function adminSessionOf(r: Row): AdminSession {
  return {
    id: r.id,
    tutorId: r.tutor_id,
    tutorName: nameOf(r.tutor_first_name, r.tutor_last_name),
    studentId: r.student_id,
    studentName: nameOf(r.student_first_name, r.student_last_name),
    subjectName: r.subject_name,
    start: r.start_at.toISOString(),
    end: r.end_at.toISOString(),
    status: r.status,
    calendarSyncStatus: r.calendar_sync_status,
    cancelCredit: r.cancel_credit === 'released' || r.cancel_credit === 'forfeited' ? r.cancel_credit : null,
    bookedAt: r.booked_at.toISOString(),
  };
}

/**
 * One page of sessions for the console (issue 12 §2), every status included: filtered by status,
 * tutor, student and start time (`from` inclusive, `to` exclusive), every word of the search found
 * in the tutor's or student's name or the subject, sorted and paged here.
 */
export async function listSessionsForAdmin(sql: Sql, query: AdminSessionListFilter): Promise<AdminSessionPage> {
  const words = (query.search ?? '').split(/\s+/).filter(Boolean);
  const haystack = sql`(coalesce(t.first_name, '') || ' ' || coalesce(t.last_name, '') || ' ' || coalesce(st.first_name, '') || ' '
    || coalesce(st.last_name, '') || ' ' || s.subject_name)`;
  const matches = words.map((w) => sql`AND ${haystack} ILIKE ${likePattern(w)}`);
  const from = query.from ? new Date(query.from) : null;
  const to = query.to ? new Date(query.to) : null;
  const joins = sql`FROM sessions s LEFT JOIN users t ON t.id = s.tutor_id LEFT JOIN students st ON st.id = s.student_id`;
  const where = sql`WHERE (${query.status ?? null}::text IS NULL OR s.status = ${query.status ?? null})
    AND (${query.tutorId ?? null}::text IS NULL OR s.tutor_id = ${query.tutorId ?? null})
    AND (${query.studentId ?? null}::text IS NULL OR s.student_id = ${query.studentId ?? null})
    AND (${from}::timestamptz IS NULL OR s.start_at >= ${from})
    AND (${to}::timestamptz IS NULL OR s.start_at < ${to})
    ${matches.reduce((all, m) => sql`${all} ${m}`, sql``)}`;
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const orderBy = ORDER_BY[query.sort].replaceAll('%s', direction);
  const rows = await sql<Row[]>`
    SELECT s.id, s.tutor_id, s.student_id, s.subject_name, s.start_at, s.end_at, s.status, s.calendar_sync_status, s.cancel_credit,
      s.booked_at, t.first_name AS tutor_first_name, t.last_name AS tutor_last_name,
      st.first_name AS student_first_name, st.last_name AS student_last_name
    ${joins} ${where}
    ORDER BY ${sql.unsafe(orderBy)}, s.id ${sql.unsafe(direction)}
    LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`;
  const [count] = await sql<{ n: string }[]>`SELECT count(*) AS n ${joins} ${where}`;
  return { rows: rows.map(adminSessionOf), total: Number(count?.n ?? 0) };
}
