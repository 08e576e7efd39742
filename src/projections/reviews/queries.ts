import type { Sql } from '../../adapters/db/db.ts';
import { ERASED } from '../../adapters/personalData/personalDataVault.ts';
import { REVIEW_EDIT_DAYS, shownRating } from '../../domain/reviews/review.ts';

export interface TutorRating {
  /** The average to one decimal; null below three reviews (the card says "New"). */
  rating: number | null;
  reviewCount: number;
  completedSessions: number;
}

/** Each tutor's card figures; a tutor without reviews or sessions has zeros and no rating. */
export async function tutorRatings(sql: Sql, tutorIds: readonly string[]): Promise<Map<string, TutorRating>> {
  const rows =
    tutorIds.length === 0
      ? []
      : await sql<{ tutor_id: string; review_count: number; rating_total: number; completed_sessions: number }[]>`
          SELECT tutor_id, review_count, rating_total, completed_sessions FROM tutor_review_stats WHERE tutor_id = ANY(${[...tutorIds]}::text[])`;
  const byTutor = new Map(rows.map((r) => [r.tutor_id, r]));
  return new Map(
    tutorIds.map((id) => {
      const r = byTutor.get(id);
      return [
        id,
        {
          rating: r ? shownRating(r.review_count, r.rating_total) : null,
          reviewCount: r?.review_count ?? 0,
          completedSessions: r?.completed_sessions ?? 0,
        },
      ];
    }),
  );
}

export interface ReviewView {
  sessionId: string;
  tutorId: string;
  studentId: string;
  rating: number;
  /** Null when none was given, erased, or hidden (for readers other than an admin). */
  comment: string | null;
  reviewedAt: string;
  editedAt: string | null;
  hidden: boolean;
  hiddenReason: string | null;
  hiddenAt: string | null;
  /** First name and initial of the student the session was for (null once erased). */
  studentName: string | null;
  sessionStart: string | null;
  subjectName: string | null;
  tutorName: string | null;
  /** Until when the family may still change it. */
  editableUntil: string;
}

interface ReviewRow {
  session_id: string;
  tutor_id: string;
  student_id: string;
  rating: number;
  comment: string | null;
  reviewed_at: Date;
  edited_at: Date | null;
  hidden_at: Date | null;
  hidden_reason: string | null;
  first_name: string | null;
  last_name: string | null;
  start: Date | null;
  subject_name: string | null;
  tutor_first_name: string | null;
  tutor_last_name: string | null;
}

const viewOf =
  (showHidden: boolean) =>
  (r: ReviewRow): ReviewView => ({
    sessionId: r.session_id,
    tutorId: r.tutor_id,
    studentId: r.student_id,
    rating: r.rating,
    comment: r.hidden_at && !showHidden ? null : r.comment,
    reviewedAt: r.reviewed_at.toISOString(),
    editedAt: r.edited_at?.toISOString() ?? null,
    hidden: r.hidden_at !== null,
    hiddenReason: showHidden ? r.hidden_reason : null,
    hiddenAt: r.hidden_at?.toISOString() ?? null,
    studentName:
      r.first_name && r.first_name !== ERASED
        ? `${r.first_name}${r.last_name && r.last_name !== ERASED ? ` ${r.last_name.charAt(0)}.` : ''}`
        : null,
    sessionStart: r.start?.toISOString() ?? null,
    subjectName: r.subject_name,
    tutorName: r.tutor_first_name && r.tutor_first_name !== ERASED ? `${r.tutor_first_name} ${r.tutor_last_name ?? ''}`.trim() : null,
    editableUntil: new Date(r.reviewed_at.getTime() + REVIEW_EDIT_DAYS * 86_400_000).toISOString(),
  });

const SELECT_REVIEW = `
    SELECT r.session_id, r.tutor_id, r.student_id, r.rating, r.comment, r.reviewed_at, r.edited_at, r.hidden_at, r.hidden_reason,
           st.first_name, st.last_name, s.start_at AS start, s.subject_name, tu.first_name AS tutor_first_name, tu.last_name AS tutor_last_name
    FROM tutor_reviews r
    LEFT JOIN students st ON st.id = r.student_id
    LEFT JOIN sessions s ON s.id = r.session_id
    LEFT JOIN users tu ON tu.id = r.tutor_id`;

/**
 * Reviews newest first: one tutor's, or (no tutor) everyone's latest for the console. A hidden
 * comment is withheld unless `showHidden` (an admin, who also sees the reason).
 */
export async function listReviews(
  sql: Sql,
  filter: { tutorId?: string | null; limit?: number },
  options: { showHidden: boolean },
): Promise<ReviewView[]> {
  const rows = await sql.unsafe<ReviewRow[]>(
    `${SELECT_REVIEW}
    WHERE ($1::text IS NULL OR r.tutor_id = $1)
    ORDER BY r.reviewed_at DESC, r.session_id
    LIMIT $2`,
    [filter.tutorId ?? null, filter.limit ?? 200],
  );
  return rows.map(viewOf(options.showHidden));
}

/** The reviews of one student's sessions (their family's), by session id; a hidden comment is withheld. */
export async function reviewsOfStudent(sql: Sql, studentId: string): Promise<ReviewView[]> {
  const rows = await sql.unsafe<ReviewRow[]>(`${SELECT_REVIEW} WHERE r.student_id = $1 ORDER BY r.reviewed_at DESC`, [studentId]);
  return rows.map(viewOf(false));
}

/** One session's review (a hidden comment withheld unless `showHidden`); null when not rated. */
export async function reviewOfSession(sql: Sql, sessionId: string, options = { showHidden: false }): Promise<ReviewView | null> {
  const [row] = await sql.unsafe<ReviewRow[]>(`${SELECT_REVIEW} WHERE r.session_id = $1`, [sessionId]);
  return row ? viewOf(options.showHidden)(row) : null;
}
