import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/**
 * A family's review of one completed session (issue 24 §3, spec part 2 §2's tutor cards): one
 * stream per session (`sessionReview-<sessionId>`), so "once" is claimed by the append's expected
 * revision. The comment is the reviewer's words: sealed with their key, shredded by their erasure.
 */

export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const REVIEW_COMMENT_MAX = 2000;
export const HIDE_REASON_MAX = 500;
/** How long after the first review its author's family may still change it. */
export const REVIEW_EDIT_DAYS = 7;
export { RATING_SHOWN_FROM, shownRating } from './shownRating.ts';

export const sessionReviewed = z.object({
  sessionId: z.string(),
  tutorId: z.string(),
  studentId: z.string(),
  reviewerId: z.string(),
  reviewerRole: z.string(),
  rating: z.number().int().min(RATING_MIN).max(RATING_MAX),
  /** Empty when no comment was given. */
  comment: z.string(),
  at: z.string(),
});

export const sessionReviewEdited = z.object({
  sessionId: z.string(),
  tutorId: z.string(),
  /** Whose key seals the comment: the review's author (the first reviewer), whoever in the family edits. */
  reviewerId: z.string(),
  editedBy: z.string(),
  rating: z.number().int().min(RATING_MIN).max(RATING_MAX),
  comment: z.string(),
  at: z.string(),
});

export const reviewCommentHidden = z.object({
  sessionId: z.string(),
  tutorId: z.string(),
  hiddenBy: z.string(),
  reason: z.string(),
  at: z.string(),
});

const reviewer = (d: { reviewerId: string }) => `user-${d.reviewerId}`;

export const reviewEvents = {
  SessionReviewed: eventType(sessionReviewed, {
    personal: { fields: ['comment'], subject: reviewer },
    describe: (d) => `Session rated ${d.rating}/5 by the ${d.reviewerRole}`,
  }),
  SessionReviewEdited: eventType(sessionReviewEdited, {
    personal: { fields: ['comment'], subject: reviewer },
    describe: (d) => `Session review changed to ${d.rating}/5`,
  }),
  ReviewCommentHidden: eventType(reviewCommentHidden, {
    describe: (d) => `Review comment hidden by an admin: ${d.reason}`,
  }),
};
export type ReviewEvent = EventsOf<typeof reviewEvents>;

export interface ReviewState {
  exists: boolean;
  tutorId: string | null;
  reviewerId: string | null;
  firstAt: string | null;
  rating: number | null;
  comment: string;
  hidden: boolean;
}
export const initialReviewState: ReviewState = {
  exists: false,
  tutorId: null,
  reviewerId: null,
  firstAt: null,
  rating: null,
  comment: '',
  hidden: false,
};

export function evolveReview(state: ReviewState, event: ReviewEvent): ReviewState {
  switch (event.type) {
    case 'SessionReviewed':
      return {
        ...state,
        exists: true,
        tutorId: event.data.tutorId,
        reviewerId: event.data.reviewerId,
        firstAt: event.data.at,
        rating: event.data.rating,
        comment: event.data.comment,
      };
    case 'SessionReviewEdited':
      return { ...state, rating: event.data.rating, comment: event.data.comment };
    case 'ReviewCommentHidden':
      return { ...state, hidden: true };
  }
}

export const sessionReviewStreamId = (sessionId: string) => `sessionReview-${sessionId}`;
