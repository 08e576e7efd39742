import { int, type RowOf, table, text, timestamptz } from '../kit/table.ts';

/**
 * Families' reviews of completed sessions, one row per session. `comment` is null when none was
 * given, once the reviewer's account is erased, or (for readers other than an admin) when an admin
 * hid it; the hiding admin, their reason and when are kept.
 */
export const tutorReviews = table(
  'tutor_reviews',
  {
    session_id: text().primaryKey(),
    tutor_id: text(),
    student_id: text(),
    reviewer_id: text(),
    reviewer_role: text(),
    rating: int(),
    comment: text().nullable(),
    reviewed_at: timestamptz(),
    edited_at: timestamptz().nullable(),
    hidden_at: timestamptz().nullable(),
    hidden_by: text().nullable(),
    hidden_reason: text().nullable(),
  },
  {
    indexes: [
      { name: 'tutor_reviews_tutor', on: ['tutor_id', 'reviewed_at DESC'] },
      { name: 'tutor_reviews_reviewer', on: ['reviewer_id'] },
    ],
  },
);
export type TutorReviewRow = RowOf<typeof tutorReviews>;

/** The sessions each tutor completed (from `SessionCompleted`): what the cards' session count counts. */
export const tutorCompletedSessions = table(
  'tutor_completed_sessions',
  { session_id: text().primaryKey(), tutor_id: text() },
  { indexes: [{ name: 'tutor_completed_sessions_tutor', on: ['tutor_id'] }] },
);

/** Per tutor, what the cards show: the review count and rating total (the average is total / count) and the completed sessions. */
export const tutorReviewStats = table('tutor_review_stats', {
  tutor_id: text().primaryKey(),
  review_count: int(),
  rating_total: int(),
  completed_sessions: int(),
});
export type TutorReviewStatsRow = RowOf<typeof tutorReviewStats>;
