import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { sessionsRemainingOf } from '../../domain/courses/course.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { courseHandlers } from './courseHandlers.ts';

/**
 * The course's credit ledger as other features use it (the sessions feature's `CourseLedger` port:
 * booking reserves, cancelling releases or forfeits, completing consumes), keyed by session id.
 * `maxAttempts`: one student's concurrent bookings race on their course's stream.
 */
export function courseLedger(store: EventStore, options: { maxAttempts: number }) {
  const { courses } = courseHandlers(store);
  const settle =
    (type: 'ReleaseCredit' | 'ConsumeCredit' | 'ForfeitCredit') => (courseId: string, sessionId: string, ctx: CommandContext) =>
      courses.handle(courseId, { type, data: { courseId, sessionId } }, ctx, options);
  return {
    async course(courseId: string) {
      const state = await courses.load(courseId);
      return { ...state, sessionsRemaining: sessionsRemainingOf(state) };
    },
    reserve: (courseId: string, sessionId: string, ctx: CommandContext) =>
      courses.handle(courseId, { type: 'ReserveCredit', data: { courseId, sessionId } }, ctx, options),
    async holds(courseId: string, sessionId: string) {
      const state = await courses.load(courseId);
      return state.reserved.includes(sessionId) || state.used.includes(sessionId);
    },
    release: settle('ReleaseCredit'),
    consume: settle('ConsumeCredit'),
    forfeit: settle('ForfeitCredit'),
  };
}
