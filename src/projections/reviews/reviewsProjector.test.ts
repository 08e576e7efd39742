import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { tutorRatings } from './queries.ts';
import { tutorReviewsProjector } from './reviewsProjector.ts';
import { tutorReviewStats, tutorReviews } from './tables.ts';

const at = '2026-11-23T12:00:00.000Z';
const completed = (sessionId: string, tutorId: string) =>
  event(`session-${sessionId}`, 'SessionCompleted', {
    sessionId,
    tutorId,
    studentId: 's1',
    studentUserId: 'fam',
    courseId: 'c1',
    completedBy: tutorId,
    notes: 'Good work',
    at,
  });
const reviewed = (sessionId: string, tutorId: string, rating: number, comment = '', reviewerId = 'fam') =>
  event(`sessionReview-${sessionId}`, 'SessionReviewed', {
    sessionId,
    tutorId,
    studentId: 's1',
    reviewerId,
    reviewerRole: 'parent',
    rating,
    comment,
    at,
  });

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('tutor reviews, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('tutorreviews');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [tutorReviewsProjector], { batchSize });
  });
  afterAll(() => db.drop());

  it('counts completed sessions and reviews; the average shows from the third review, to one decimal', async () => {
    await spec.given(
      completed('a', 't1'),
      completed('b', 't1'),
      completed('c', 't1'),
      reviewed('a', 't1', 5, 'Great'),
      reviewed('b', 't1', 4),
    );
    expect((await tutorRatings(db.sql, ['t1', 'nobody'])).get('t1')).toEqual({ rating: null, reviewCount: 2, completedSessions: 3 });
    expect((await tutorRatings(db.sql, ['nobody'])).get('nobody')).toEqual({ rating: null, reviewCount: 0, completedSessions: 0 });
    await spec.given(reviewed('c', 't1', 4));
    expect((await tutorRatings(db.sql, ['t1'])).get('t1')).toEqual({ rating: 4.3, reviewCount: 3, completedSessions: 3 });
    await spec.given(
      event('sessionReview-c', 'SessionReviewEdited', {
        sessionId: 'c',
        tutorId: 't1',
        reviewerId: 'fam',
        editedBy: 'fam',
        rating: 3,
        comment: 'Fine',
        at: '2026-11-24T12:00:00.000Z',
      }),
    );
    expect((await tutorRatings(db.sql, ['t1'])).get('t1')).toEqual({ rating: 4, reviewCount: 3, completedSessions: 3 });
    expect(await spec.rows(tutorReviewStats, { tutor_id: 't1' })).toEqual([
      { tutor_id: 't1', review_count: 3, rating_total: 12, completed_sessions: 3 },
    ]);
    expect(await spec.rows(tutorReviews, { session_id: 'c' })).toEqual([
      expect.objectContaining({ rating: 3, comment: 'Fine', edited_at: new Date('2026-11-24T12:00:00.000Z') }),
    ]);
    expect(spec.failures()).toEqual([]);
  });

  it('keeps who hid a comment, when and why; the reviewer’s erasure takes the comment, not the rating', async () => {
    await spec.given(
      reviewed('h', 't2', 1, 'Rude words', 'u9'),
      event('sessionReview-h', 'ReviewCommentHidden', { sessionId: 'h', tutorId: 't2', hiddenBy: 'admin1', reason: 'Abusive', at }),
    );
    expect(await spec.rows(tutorReviews, { session_id: 'h' })).toEqual([
      expect.objectContaining({ comment: 'Rude words', hidden_by: 'admin1', hidden_reason: 'Abusive', hidden_at: new Date(at) }),
    ]);
    await spec.given(event('user-u9', 'AccountDeleted', { userId: 'u9', at }));
    expect(await spec.rows(tutorReviews, { session_id: 'h' })).toEqual([expect.objectContaining({ comment: null, rating: 1 })]);
    expect(spec.failures()).toEqual([]);
  });

  it('a rebuild gives the same read model', async () => {
    const live = await spec.snapshot();
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
  });
});
