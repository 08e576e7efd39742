import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { sessionReviewStreamId } from '../../domain/reviews/review.ts';
import { type ReviewedSession, reviewDecider } from '../../domain/reviews/reviewDecider.ts';
import { holdersOf } from '../../domain/students/accountHolder.ts';
import { findStudent } from '../../projections/accounts/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { commandHandler } from '../kit/handleCommand.ts';

/** The session's stream folded (the sessions feature's handler `load`), booking facts and status. */
export type SessionLoader = (
  sessionId: string,
) => Promise<{ booked: { tutorId: string; studentId: string } | null; status: 'scheduled' | 'completed' | 'cancelled' }>;

/** The command handler of the reviews feature: one review per session (`sessionReview-<sessionId>`). */
export function reviewHandlers(store: EventStore) {
  return { reviews: commandHandler(store, reviewDecider, sessionReviewStreamId) };
}
export type ReviewHandlers = ReturnType<typeof reviewHandlers>;

/**
 * The session as the review decides on it: its stream says whether it exists and is completed,
 * and who its tutor and student are; the student's account holders (their login and, for a child,
 * the parent) come from the students read model, as every family permission check reads them.
 */
export async function reviewedSession(sql: Sql, loadSession: SessionLoader, sessionId: string): Promise<ReviewedSession> {
  const { booked, status } = await loadSession(sessionId);
  if (!booked) return { exists: false, completed: false, tutorId: '', studentId: '', holders: [] };
  const student = await findStudent(sql, booked.studentId);
  const holders = student ? holdersOf(student) : [];
  return { exists: true, completed: status === 'completed', tutorId: booked.tutorId, studentId: booked.studentId, holders };
}

export interface ReviewRequest {
  sessionId: string;
  rating: number;
  comment?: string | null | undefined;
}

/** A family's first review of a completed session (`first`), or its change within the edit window. */
export async function reviewSession(
  deps: { sql: Sql; loadSession: SessionLoader; handlers: ReviewHandlers },
  input: ReviewRequest,
  first: boolean,
  ctx: CommandContext,
) {
  const session = await reviewedSession(deps.sql, deps.loadSession, input.sessionId);
  const data = { sessionId: input.sessionId, rating: input.rating, comment: input.comment, session };
  return deps.handlers.reviews.handle(input.sessionId, first ? { type: 'ReviewSession', data } : { type: 'EditReview', data }, ctx);
}
