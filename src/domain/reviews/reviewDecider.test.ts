import { describe, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import type { ReviewEvent } from './review.ts';
import {
  ALREADY_REVIEWED,
  COMMENT_NOT_STORABLE,
  COMMENT_TOO_LONG,
  HIDE_REASON_REQUIRED,
  NOTHING_TO_HIDE,
  ONLY_ADMINS_HIDE,
  RATING_RANGE,
  REVIEW_EDIT_CLOSED,
  REVIEW_NOT_COMPLETED,
  REVIEW_NOT_FOUND,
  REVIEW_SESSION_NOT_FOUND,
  type ReviewedSession,
  reviewDecider,
} from './reviewDecider.ts';

const spec = deciderSpec(reviewDecider);
const now = new Date('2026-11-20T15:00:00.000Z');
const session: ReviewedSession = { exists: true, completed: true, tutorId: 't1', studentId: 's1', holders: ['parent1', 'kid1'] };
const asParent = { now, actorId: 'parent1', actorRole: 'parent' };
const reviewed: ReviewEvent = {
  type: 'SessionReviewed',
  data: {
    sessionId: 'x1',
    tutorId: 't1',
    studentId: 's1',
    reviewerId: 'parent1',
    reviewerRole: 'parent',
    rating: 4,
    comment: 'Great',
    at: now.toISOString(),
  },
};
const review = (data: Partial<{ rating: number; comment: string | null; session: ReviewedSession }> = {}) => ({
  type: 'ReviewSession' as const,
  data: { sessionId: 'x1', rating: 4, comment: '  Great ', session, ...data },
  metadata: asParent,
});
const edit = (at: Date, data: Partial<{ rating: number; comment: string | null }> = {}, actor = asParent) => ({
  type: 'EditReview' as const,
  data: { sessionId: 'x1', rating: 5, comment: 'Even better', session, ...data },
  metadata: { ...actor, now: at },
});

describe('review decider', () => {
  it('records a family member’s rating of a completed session with the comment trimmed', () => {
    spec.given([]).when(review()).thenEvents([reviewed]);
  });

  it('records a rating without a comment as an empty comment', () => {
    spec
      .given([])
      .when(review({ comment: null }))
      .thenEvents([{ ...reviewed, data: { ...reviewed.data, comment: '' } }]);
  });

  it('rates a session once', () => {
    spec.given([reviewed]).when(review()).thenThrows(ALREADY_REVIEWED, 'conflict');
  });

  it('refuses a session that is not completed yet', () => {
    spec
      .given([])
      .when(review({ session: { ...session, completed: false } }))
      .thenThrows(REVIEW_NOT_COMPLETED, 'conflict');
  });

  it('answers someone else’s session, a tutor or an admin as not found', () => {
    for (const metadata of [
      { now, actorId: 'stranger', actorRole: 'parent' },
      { now, actorId: 't1', actorRole: 'tutor' },
      { now, actorId: 'parent1', actorRole: 'admin' },
    ]) {
      spec
        .given([])
        .when({ ...review(), metadata })
        .thenThrows(REVIEW_SESSION_NOT_FOUND, 'not_found');
    }
    spec
      .given([])
      .when(review({ session: { ...session, exists: false } }))
      .thenThrows(REVIEW_SESSION_NOT_FOUND, 'not_found');
  });

  it('takes whole ratings from 1 to 5 only', () => {
    for (const rating of [0, 6, 2.5, Number.NaN]) spec.given([]).when(review({ rating })).thenThrows(RATING_RANGE, 'invalid');
  });

  it('refuses a comment too long or that cannot be stored', () => {
    spec
      .given([])
      .when(review({ comment: 'a'.repeat(2001) }))
      .thenThrows(COMMENT_TOO_LONG, 'invalid');
    spec
      .given([])
      .when(review({ comment: 'a\u0000b' }))
      .thenThrows(COMMENT_NOT_STORABLE, 'invalid');
  });

  it('lets the family change the review within 7 days, sealed under the first reviewer', () => {
    const at = new Date(now.getTime() + 7 * 86_400_000);
    spec
      .given([reviewed])
      .when(edit(at, {}, { now: at, actorId: 'kid1', actorRole: 'student' }))
      .thenEvents([
        {
          type: 'SessionReviewEdited',
          data: {
            sessionId: 'x1',
            tutorId: 't1',
            reviewerId: 'parent1',
            editedBy: 'kid1',
            rating: 5,
            comment: 'Even better',
            at: at.toISOString(),
          },
        },
      ]);
  });

  it('refuses a change after 7 days, and a change of a review never given', () => {
    spec
      .given([reviewed])
      .when(edit(new Date(now.getTime() + 7 * 86_400_000 + 1)))
      .thenThrows(REVIEW_EDIT_CLOSED, 'conflict');
    spec.given([]).when(edit(now)).thenThrows(REVIEW_NOT_FOUND, 'not_found');
  });

  it('records nothing for a change that changes nothing', () => {
    spec
      .given([reviewed])
      .when(edit(now, { rating: 4, comment: ' Great' }))
      .thenNothing();
  });

  it('lets an admin hide a comment with a reason, recording who and when, once', () => {
    const hidden: ReviewEvent = {
      type: 'ReviewCommentHidden',
      data: { sessionId: 'x1', tutorId: 't1', hiddenBy: 'admin1', reason: 'Abusive', at: now.toISOString() },
    };
    const hide = (reason: string, actorRole = 'admin') => ({
      type: 'HideReviewComment' as const,
      data: { sessionId: 'x1', reason },
      metadata: { now, actorId: 'admin1', actorRole },
    });
    spec.given([reviewed]).when(hide(' Abusive ')).thenEvents([hidden]);
    spec.given([reviewed, hidden]).when(hide('Again')).thenNothing();
    spec.given([reviewed]).when(hide('  ')).thenThrows(HIDE_REASON_REQUIRED, 'invalid');
    spec.given([reviewed]).when(hide('Abusive', 'tutor')).thenThrows(ONLY_ADMINS_HIDE, 'forbidden');
    spec.given([]).when(hide('Abusive')).thenThrows(REVIEW_NOT_FOUND, 'not_found');
    spec
      .given([{ ...reviewed, data: { ...reviewed.data, comment: '' } }])
      .when(hide('Abusive'))
      .thenThrows(NOTHING_TO_HIDE, 'conflict');
  });
});
