import type { EventStore } from '../../../adapters/eventstore/eventStore.ts';
import { courseHandlers } from '../../../commands/courses/courseHandlers.ts';
import type { CourseLedger } from '../../../commands/sessions/ports.ts';
import { SCHEDULE_ATTEMPTS } from '../../../commands/sessions/sessionHandlers.ts';
import { sessionsRemainingOf } from '../../../domain/courses/course.ts';

/**
 * A course's credits as the session commands use them (reserve on booking; release, forfeit or
 * consume when the session ends), on the course's stream. Shared by the parties' session routes
 * and the console's cancellation on anyone's behalf.
 */
export function courseLedger(store: EventStore): CourseLedger {
  const courses = courseHandlers(store);
  // One student's concurrent bookings race on their course's stream: allow as many rounds as the schedule.
  const ledgerOptions = { maxAttempts: SCHEDULE_ATTEMPTS };
  return {
    async course(courseId) {
      const state = await courses.courses.load(courseId);
      return { ...state, sessionsRemaining: sessionsRemainingOf(state) };
    },
    reserve: (courseId, sessionId, ctx) =>
      courses.courses.handle(courseId, { type: 'ReserveCredit', data: { courseId, sessionId } }, ctx, ledgerOptions),
    async holds(courseId, sessionId) {
      const state = await courses.courses.load(courseId);
      return state.reserved.includes(sessionId) || state.used.includes(sessionId);
    },
    release: (courseId, sessionId, ctx) =>
      courses.courses.handle(courseId, { type: 'ReleaseCredit', data: { courseId, sessionId } }, ctx, ledgerOptions),
    consume: (courseId, sessionId, ctx) =>
      courses.courses.handle(courseId, { type: 'ConsumeCredit', data: { courseId, sessionId } }, ctx, ledgerOptions),
    forfeit: (courseId, sessionId, ctx) =>
      courses.courses.handle(courseId, { type: 'ForfeitCredit', data: { courseId, sessionId } }, ctx, ledgerOptions),
  };
}
