import type { Position } from '../../adapters/eventstore/eventStore.ts';
import type { SessionEvent } from '../../domain/sessions/session.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import type { CourseLedger } from './ports.ts';
import { SCHEDULE_ATTEMPTS, type SessionHandlers } from './sessionHandlers.ts';

/**
 * What an ended session still owes the other streams, as its closing event decided it: a
 * cancellation gives the credit back (`released`) or counts it as used (`forfeited`) and frees the
 * tutor's hour; a completion uses the credit (`consumed`; its hour is simply over).
 */
export interface SessionSettlement {
  sessionId: string;
  tutorId: string;
  courseId: string;
  credit: 'released' | 'forfeited' | 'consumed';
}

export const laterPosition = (a: Position | null, b: Position | null) => (a === null ? b : b === null ? a : a > b ? a : b);

/**
 * Settles a cancelled or completed session on the course's ledger and the tutor's schedule. Both
 * the request that closed the session and the settlement job that follows it (in case that
 * request died after the session's event) run this; the ledger and schedule deciders append
 * nothing for what is already settled, and `step` names derive each command id from the caller's
 * (the request's, or the job's), so either may run it any number of times.
 * Returns the position of the last event appended, null when everything was settled already.
 */
export async function settleSession(
  handlers: SessionHandlers,
  courses: Pick<CourseLedger, 'release' | 'forfeit' | 'consume'>,
  settlement: SessionSettlement,
  step: (name: string) => CommandContext,
): Promise<Position | null> {
  const { sessionId, tutorId, courseId, credit } = settlement;
  if (credit === 'consumed') return (await courses.consume(courseId, sessionId, step('consume-credit'))).position;
  const settle = credit === 'released' ? courses.release : courses.forfeit;
  const settled = (await settle.call(courses, courseId, sessionId, step('credit'))).position;
  const freed = await handlers.schedules.handle(
    tutorId,
    { type: 'ReleaseHour', data: { tutorId, sessionId, reason: 'cancelled' } },
    step('release-hour'),
    { maxAttempts: SCHEDULE_ATTEMPTS },
  );
  return laterPosition(settled, freed.position);
}

/** What a session's closing event leaves to settle; null for every other event. */
export function settlementOf(event: SessionEvent): SessionSettlement | null {
  if (event.type === 'SessionCancelled') {
    const { sessionId, tutorId, courseId, credit } = event.data;
    return { sessionId, tutorId, courseId, credit };
  }
  if (event.type === 'SessionCompleted') {
    const { sessionId, tutorId, courseId } = event.data;
    return { sessionId, tutorId, courseId, credit: 'consumed' };
  }
  return null;
}
