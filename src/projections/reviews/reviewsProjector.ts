import { ERASED } from '../../adapters/personalData/personalDataVault.ts';
import { defineProjection } from '../kit/defineProjection.ts';
import { insertRows, updateRows } from '../kit/writes.ts';
import { tutorCompletedSessions, tutorReviewStats, tutorReviews } from './tables.ts';

/** A shredded key reads as "[erased]": the comment is gone, not a comment that says so. */
const commentOf = (comment: string) => (comment === '' || comment === ERASED ? null : comment);

/**
 * The reviews of each tutor and the per-tutor figures the cards show (average, count, completed
 * sessions). The figures are recounted from the rows for the tutors a batch touched, so an edit
 * (whose old rating the event does not carry) and a replayed batch both leave them right.
 */
export const tutorReviewsProjector = defineProjection({
  name: 'tutor_reviews',
  handles: ['SessionReviewed', 'SessionReviewEdited', 'ReviewCommentHidden', 'SessionCompleted', 'AccountDeleted'],
  tables: [tutorReviews, tutorCompletedSessions, tutorReviewStats],
  async apply(tx, events) {
    // A review exists before its edits and hiding: insert, then update.
    await insertRows(
      tx,
      tutorReviews,
      events.flatMap((e) =>
        e.type === 'SessionReviewed'
          ? [
              {
                session_id: e.data.sessionId,
                tutor_id: e.data.tutorId,
                student_id: e.data.studentId,
                reviewer_id: e.data.reviewerId,
                reviewer_role: e.data.reviewerRole,
                rating: e.data.rating,
                comment: commentOf(e.data.comment),
                reviewed_at: e.data.at,
                edited_at: null,
                hidden_at: null,
                hidden_by: null,
                hidden_reason: null,
              },
            ]
          : [],
      ),
      'nothing',
    );
    await updateRows(
      tx,
      tutorReviews,
      ['rating', 'comment', 'edited_at'],
      events.flatMap((e) =>
        e.type === 'SessionReviewEdited'
          ? [{ session_id: e.data.sessionId, rating: e.data.rating, comment: commentOf(e.data.comment), edited_at: e.data.at }]
          : [],
      ),
    );
    await updateRows(
      tx,
      tutorReviews,
      ['hidden_at', 'hidden_by', 'hidden_reason'],
      events.flatMap((e) =>
        e.type === 'ReviewCommentHidden'
          ? [{ session_id: e.data.sessionId, hidden_at: e.data.at, hidden_by: e.data.hiddenBy, hidden_reason: e.data.reason }]
          : [],
      ),
    );
    // The reviewer's erasure takes their words with it; the rating stays (it names nobody).
    const deleted = events.flatMap((e) => (e.type === 'AccountDeleted' ? [e.data.userId] : []));
    if (deleted.length > 0) await tx`UPDATE tutor_reviews SET comment = NULL WHERE reviewer_id IN ${tx(deleted)}`;
    await insertRows(
      tx,
      tutorCompletedSessions,
      events.flatMap((e) => (e.type === 'SessionCompleted' ? [{ session_id: e.data.sessionId, tutor_id: e.data.tutorId }] : [])),
      'nothing',
    );
    const touched = [
      ...new Set(
        events.flatMap((e) =>
          e.type === 'SessionReviewed' || e.type === 'SessionReviewEdited' || e.type === 'SessionCompleted' ? [e.data.tutorId] : [],
        ),
      ),
    ];
    if (touched.length === 0) return;
    await tx`
      INSERT INTO tutor_review_stats (tutor_id, review_count, rating_total, completed_sessions)
      SELECT t.id,
             (SELECT count(*) FROM tutor_reviews r WHERE r.tutor_id = t.id),
             (SELECT coalesce(sum(r.rating), 0) FROM tutor_reviews r WHERE r.tutor_id = t.id),
             (SELECT count(*) FROM tutor_completed_sessions c WHERE c.tutor_id = t.id)
      FROM unnest(${touched}::text[]) AS t(id)
      ON CONFLICT (tutor_id) DO UPDATE SET
        review_count = EXCLUDED.review_count, rating_total = EXCLUDED.rating_total, completed_sessions = EXCLUDED.completed_sessions`;
  },
});
