import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import { InvalidFieldError } from '../kit/domainError.ts';
import { isStorableText } from '../kit/storableText.ts';
import { isAccountHolder } from '../students/accountHolder.ts';
import {
  evolveReview,
  HIDE_REASON_MAX,
  initialReviewState,
  RATING_MAX,
  RATING_MIN,
  REVIEW_COMMENT_MAX,
  REVIEW_EDIT_DAYS,
  type ReviewEvent,
  type ReviewState,
} from './review.ts';

export const REVIEW_SESSION_NOT_FOUND = 'Session not found';
export const REVIEW_NOT_COMPLETED = 'Only a completed session can be rated';
export const ALREADY_REVIEWED = 'This session has already been rated';
export const REVIEW_NOT_FOUND = 'This session has not been rated yet';
export const REVIEW_EDIT_CLOSED = `A review can be changed for ${REVIEW_EDIT_DAYS} days after it was given`;
export const RATING_RANGE = `Rating must be a whole number from ${RATING_MIN} to ${RATING_MAX}`;
export const COMMENT_TOO_LONG = `Comment must be at most ${REVIEW_COMMENT_MAX} characters`;
export const COMMENT_NOT_STORABLE = 'Comment contains characters that cannot be stored';
export const HIDE_REASON_REQUIRED = 'A reason is required to hide a comment';
export const HIDE_REASON_TOO_LONG = `Reason must be at most ${HIDE_REASON_MAX} characters`;
export const NOTHING_TO_HIDE = 'This review has no comment to hide';
export const ONLY_ADMINS_HIDE = 'Only an admin can hide a review comment';

/**
 * The session as its stream says, read by the command handler: the decider needs its tutor, its
 * student and the student's account holders (the student's login and, for a child, the parent).
 */
export interface ReviewedSession {
  exists: boolean;
  completed: boolean;
  tutorId: string;
  studentId: string;
  holders: readonly string[];
}

export interface ReviewInput {
  sessionId: string;
  rating: number;
  comment?: string | null | undefined;
  session: ReviewedSession;
}

export type ReviewCommand =
  | Command<'ReviewSession', ReviewInput>
  | Command<'EditReview', ReviewInput>
  | Command<'HideReviewComment', { sessionId: string; reason: string }>;

/** Someone else's session, an unknown one and a family login that does not hold the student look the same: not found. */
function familyOf(session: ReviewedSession, actorId: string | null | undefined, actorRole: string | null | undefined): string {
  if (!session.exists || !actorId || !actorRole || !isAccountHolder({ userId: actorId, role: actorRole }, session.holders))
    throw new DomainError(REVIEW_SESSION_NOT_FOUND, 'not_found');
  return actorId;
}

function ratingOf(rating: number): number {
  if (!Number.isInteger(rating) || rating < RATING_MIN || rating > RATING_MAX) throw new InvalidFieldError('rating', RATING_RANGE);
  return rating;
}

function commentOf(comment: string | null | undefined): string {
  const trimmed = (comment ?? '').trim();
  if (trimmed.length > REVIEW_COMMENT_MAX) throw new InvalidFieldError('comment', COMMENT_TOO_LONG);
  if (!isStorableText(trimmed)) throw new InvalidFieldError('comment', COMMENT_NOT_STORABLE);
  return trimmed;
}

export const decideReview = decideWith<ReviewCommand, ReviewEvent, ReviewState>({
  ReviewSession({ data, metadata: { now, actorId, actorRole } }, state) {
    const reviewerId = familyOf(data.session, actorId, actorRole);
    if (!data.session.completed) throw new DomainError(REVIEW_NOT_COMPLETED, 'conflict');
    if (state.exists) throw new DomainError(ALREADY_REVIEWED, 'conflict');
    return [
      {
        type: 'SessionReviewed',
        data: {
          sessionId: data.sessionId,
          tutorId: data.session.tutorId,
          studentId: data.session.studentId,
          reviewerId,
          reviewerRole: actorRole as string,
          rating: ratingOf(data.rating),
          comment: commentOf(data.comment),
          at: now.toISOString(),
        },
      },
    ];
  },
  EditReview({ data, metadata: { now, actorId, actorRole } }, state) {
    const editor = familyOf(data.session, actorId, actorRole);
    if (!state.exists || !state.firstAt || !state.reviewerId) throw new DomainError(REVIEW_NOT_FOUND, 'not_found');
    if (now.getTime() - Date.parse(state.firstAt) > REVIEW_EDIT_DAYS * 86_400_000) throw new DomainError(REVIEW_EDIT_CLOSED, 'conflict');
    const rating = ratingOf(data.rating);
    const comment = commentOf(data.comment);
    if (rating === state.rating && comment === state.comment) return [];
    return [
      {
        type: 'SessionReviewEdited',
        data: {
          sessionId: data.sessionId,
          tutorId: state.tutorId ?? data.session.tutorId,
          reviewerId: state.reviewerId,
          editedBy: editor,
          rating,
          comment,
          at: now.toISOString(),
        },
      },
    ];
  },
  HideReviewComment({ data, metadata: { now, actorId, actorRole } }, state) {
    if (actorRole !== 'admin' || !actorId) throw new DomainError(ONLY_ADMINS_HIDE, 'forbidden');
    if (!state.exists || !state.tutorId) throw new DomainError(REVIEW_NOT_FOUND, 'not_found');
    const reason = data.reason.trim();
    if (!reason) throw new InvalidFieldError('reason', HIDE_REASON_REQUIRED);
    if (reason.length > HIDE_REASON_MAX) throw new InvalidFieldError('reason', HIDE_REASON_TOO_LONG);
    if (!isStorableText(reason)) throw new InvalidFieldError('reason', 'Reason contains characters that cannot be stored');
    // Once hidden, the comment stays hidden (later edits included): hiding again changes nothing.
    if (state.hidden) return [];
    if (!state.comment) throw new DomainError(NOTHING_TO_HIDE, 'conflict');
    return [
      {
        type: 'ReviewCommentHidden',
        data: { sessionId: data.sessionId, tutorId: state.tutorId, hiddenBy: actorId, reason, at: now.toISOString() },
      },
    ];
  },
});

export const reviewDecider: Decider<ReviewCommand, ReviewEvent, ReviewState> = {
  initialState: initialReviewState,
  evolve: evolveReview,
  decide: decideReview,
};
