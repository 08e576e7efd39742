import type { Sql } from '../../adapters/db/db.ts';
import type { SessionStatus } from '../../domain/sessions/session.ts';

/** Whose feed a token hash opens: null when unknown (never issued, reset since, the account deleted or deactivated). */
export async function feedOwner(sql: Sql, tokenHash: string): Promise<string | null> {
  const [row] = await sql<{ user_id: string }[]>`
    SELECT f.user_id FROM calendar_feeds f JOIN users u ON u.id = f.user_id WHERE f.token_hash = ${tokenHash} AND u.deactivated_at IS NULL`;
  return row?.user_id ?? null;
}

/** Whether the user has a feed link, and since when. */
export async function feedOf(sql: Sql, userId: string): Promise<{ issuedAt: string } | null> {
  const [row] = await sql<{ issued_at: Date }[]>`SELECT issued_at FROM calendar_feeds WHERE user_id = ${userId}`;
  return row ? { issuedAt: row.issued_at.toISOString() } : null;
}

export interface FeedSession {
  id: string;
  subjectName: string;
  start: string;
  end: string;
  status: SessionStatus;
  meetingLink: string | null;
  /** Whom the reader meets: the tutor's name for a family, the student's for the tutor (as the notices name them). */
  withName: string;
  side: 'family' | 'tutor';
}

/**
 * The sessions a feed lists, cancelled ones included: the tutor's own, or those of the students
 * the user is or is the parent of, starting in [from, to).
 */
export async function feedSessions(sql: Sql, userId: string, from: Date, to: Date): Promise<FeedSession[]> {
  const rows = await sql<
    {
      id: string;
      subject_name: string;
      start_at: Date;
      end_at: Date;
      status: SessionStatus;
      meeting_link: string | null;
      tutor_id: string;
      tutor_name: string | null;
      student_name: string | null;
    }[]
  >`
    SELECT s.id, s.subject_name, s.start_at, s.end_at, s.status, s.meeting_link, s.tutor_id,
      trim(u.first_name || ' ' || u.last_name) AS tutor_name, trim(st.first_name || ' ' || st.last_name) AS student_name
    FROM sessions s
    LEFT JOIN users u ON u.id = s.tutor_id
    LEFT JOIN students st ON st.id = s.student_id
    WHERE s.start_at >= ${from} AND s.start_at < ${to}
      AND (s.tutor_id = ${userId} OR s.student_id IN (SELECT id FROM students WHERE user_id = ${userId} OR parent_id = ${userId}))
    ORDER BY s.start_at, s.id
    LIMIT 2000`;
  return rows.map((r) => {
    const side = r.tutor_id === userId ? 'tutor' : 'family';
    return {
      id: r.id,
      subjectName: r.subject_name,
      start: r.start_at.toISOString(),
      end: r.end_at.toISOString(),
      status: r.status,
      meetingLink: r.meeting_link,
      withName: (side === 'tutor' ? r.student_name : r.tutor_name) || (side === 'tutor' ? 'your student' : 'your tutor'),
      side,
    };
  });
}
