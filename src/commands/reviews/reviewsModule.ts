import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore, Position } from '../../adapters/eventstore/eventStore.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { REVIEW_NOT_FOUND } from '../../domain/reviews/reviewDecider.ts';
import { findStudent } from '../../projections/accounts/queries.ts';
import { listReviews, type ReviewView, reviewOfSession, reviewsOfStudent } from '../../projections/reviews/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { type ReviewRequest, reviewHandlers, reviewSession, type SessionLoader } from './reviewSession.ts';

/**
 * The reviews feature (issue 24 §3), built once by system.ts: a family rates a completed session
 * once and may change it for 7 days; the tutor reads their reviews; an admin hides an abusive
 * comment with a reason. Decisions are taken on the review's stream; the session's facts come from
 * the sessions feature (`loadSession`, given by system.ts); the lists read `tutor_reviews`.
 */
export function reviewsModule(deps: { sql: Sql; store: EventStore; loadSession: SessionLoader }) {
  const { sql, store, loadSession } = deps;
  const handlers = reviewHandlers(store);
  /** The write's position, or the store's head when it appended nothing (a retried request). */
  const positionOf = async (position: Position | null): Promise<Position> => position ?? (await store.committedPosition());

  return {
    /** Which projections the review answers read. */
    projections: ['tutor_reviews'] as const,

    /** A family's first review of a completed session (`first`), or its change within the edit window; the position to wait for. */
    async review(input: ReviewRequest, first: boolean, ctx: CommandContext) {
      const { position } = await reviewSession({ sql, loadSession, handlers }, input, first, ctx);
      return { position: await positionOf(position) };
    },

    /** An admin hides the review's comment with a reason; the position to wait for. */
    async hide(sessionId: string, reason: string, ctx: CommandContext) {
      const { position } = await handlers.reviews.handle(sessionId, { type: 'HideReviewComment', data: { sessionId, reason } }, ctx);
      return { position: await positionOf(position) };
    },

    /** The session's review as the read model shows it (after the write's wait); a 404 when it is not there. */
    async sessionReview(sessionId: string, options = { showHidden: false }): Promise<ReviewView> {
      const review = await reviewOfSession(sql, sessionId, options);
      if (!review) throw new DomainError(REVIEW_NOT_FOUND, 'not_found');
      return review;
    },

    /** The student's account holders (null when unknown), for the family check. */
    studentHolders: (studentId: string) => findStudent(sql, studentId),

    /** The reviews the family gave of the student's sessions, newest first. */
    ofStudent: (studentId: string) => reviewsOfStudent(sql, studentId),

    /** Reviews newest first, one tutor's or everyone's latest; hidden comments only for an admin. */
    list: (filter: { tutorId: string | null }, options: { showHidden: boolean }) => listReviews(sql, filter, options),
  };
}

export type ReviewsModule = ReturnType<typeof reviewsModule>;
