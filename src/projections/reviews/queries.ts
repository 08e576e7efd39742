import type { Sql } from '../../adapters/db/db.ts';
import { ERASED } from '../../adapters/personalData/personalDataVault.ts';
import { RATING_SHOWN_FROM } from '../../domain/reviews/review.ts';

export interface TutorRating {
  /** The average to one decimal; null below three reviews (the card says "New"). */
  rating: number | null;
  reviewCount: number;
  completedSessions: number;
}

/** The average shown on a card: one decimal, none below the threshold. */
export const shownRating = (count: number, total: number): number | null =>
  count >= RATING_SHOWN_FROM ? Math.round((total / count) * 10) / 10 : null;

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
  });

/** One tutor's reviews, newest first; a hidden comment is withheld unless `showHidden` (an admin). */
export async function reviewsOfTutor(sql: Sql, tutorId: string, options: { showHidden: boolean }): Promise<ReviewView[]> {
  const rows = await sql<ReviewRow[]>`
    SELECT r.session_id, r.tutor_id, r.student_id, r.rating, r.comment, r.reviewed_at, r.edited_at, r.hidden_at, r.hidden_reason,
           st.first_name, st.last_name, s.start_at AS start, s.subject_name
    FROM tutor_reviews r
    LEFT JOIN students st ON st.id = r.student_id
    LEFT JOIN sessions s ON s.id = r.session_id
    WHERE r.tutor_id = ${tutorId}
    ORDER BY r.reviewed_at DESC, r.session_id`;
  return rows.map(viewOf(options.showHidden));
}

/** The review of each of these sessions (a family's own), with its hidden comment withheld. */
export async function reviewsOfSessions(sql: Sql, sessionIds: readonly string[]): Promise<Map<string, ReviewView>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await sql<ReviewRow[]>`
    SELECT r.session_id, r.tutor_id, r.student_id, r.rating, r.comment, r.reviewed_at, r.edited_at, r.hidden_at, r.hidden_reason,
           NULL AS first_name, NULL AS last_name, NULL AS start, NULL AS subject_name
    FROM tutor_reviews r WHERE r.session_id = ANY(${[...sessionIds]}::text[])`;
  return new Map(rows.map((r) => [r.session_id, viewOf(false)(r)]));
}
