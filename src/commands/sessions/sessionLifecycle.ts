import { DomainError } from '../../domain/kit/decider.ts';
import { isSupportedEpochMs } from '../../domain/kit/supportedDates.ts';
import { type CreditPolicy, SESSION_MINUTES } from '../../domain/sessions/session.ts';
import { decideSession, SESSION_NOT_FOUND } from '../../domain/sessions/sessionDecider.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { compensating, stepOf } from '../kit/processStep.ts';
import { retriedClaim } from '../kit/retriedClaim.ts';
import { bookableHour } from './bookableHour.ts';
import { START_NOT_AN_INSTANT } from './booking.ts';
import type { SessionPorts } from './ports.ts';
import { SCHEDULE_ATTEMPTS, type SessionHandlers } from './sessionHandlers.ts';
import { laterPosition, settleSession } from './settleSession.ts';

/**
 * Cancels a session (spec part 1 §9): the session records the decision (more than 12 hours'
 * notice releases the credit, later forfeits it), then the course's ledger settles the credit and
 * the tutor's hour is freed (`settleSession`). Steps derive from the request's command id: a retry
 * finishes them; a request that dies and is never retried is finished by the settlement job.
 */
export async function cancelSession(
  handlers: SessionHandlers,
  ports: Pick<SessionPorts, 'courses'>,
  input: { sessionId: string; reason: string; onBehalf?: { creditPolicy: CreditPolicy } },
  ctx: CommandContext,
) {
  const step = stepOf(ctx);
  const { sessionId, reason, onBehalf } = input;
  // An admin's cancellation on anyone's behalf settles the credit and frees the hour the same way.
  const command = onBehalf
    ? ({ type: 'CancelSessionOnBehalf', data: { sessionId, reason, creditPolicy: onBehalf.creditPolicy } } as const)
    : ({ type: 'CancelSession', data: { sessionId, reason } } as const);
  const decided = await handlers.sessions.handle(sessionId, command, step('cancel'));
  const cancelled = decided.events.find((e) => e.type === 'SessionCancelled');
  if (cancelled?.type !== 'SessionCancelled') return { position: decided.position, credit: null };
  // If this request dies before settling, the settlement job that follows SessionCancelled does it.
  const { tutorId, courseId, credit } = cancelled.data;
  const settled = await settleSession(handlers, ports.courses, { sessionId, tutorId, courseId, credit }, step);
  return { position: laterPosition(decided.position, settled), credit };
}

/** The tutor marks the session completed (at or after its start): the notes become its report, the credit is used. */
export async function completeSession(
  handlers: SessionHandlers,
  ports: Pick<SessionPorts, 'courses'>,
  input: { sessionId: string; notes: string },
  ctx: CommandContext,
) {
  const step = stepOf(ctx);
  const decided = await handlers.sessions.handle(input.sessionId, { type: 'CompleteSession', data: input }, step('complete'));
  const completed = decided.events.find((e) => e.type === 'SessionCompleted');
  if (completed?.type !== 'SessionCompleted') return { position: decided.position };
  // As for a cancellation, the settlement job that follows SessionCompleted covers a request that dies here.
  const { tutorId, courseId } = completed.data;
  const settled = await settleSession(handlers, ports.courses, { sessionId: input.sessionId, tutorId, courseId, credit: 'consumed' }, step);
  return { position: laterPosition(decided.position, settled) };
}

/**
 * Moves a session to another free hour of its tutor (more than 12 hours before its start for the
 * family; the tutor or an admin until it starts): the new hour is claimed on the tutor's
 * schedule (the same race as a booking; the session's old hour is freed by the same event), then
 * the session records the move; if that fails, the old hour is claimed back.
 */
export async function rescheduleSession(
  handlers: SessionHandlers,
  ports: Pick<SessionPorts, 'tutor' | 'calendarTime'>,
  input: { sessionId: string; start: string; timeZone: string },
  ctx: CommandContext,
) {
  const state = await handlers.sessions.load(input.sessionId);
  if (!state.booked || !state.start || !state.end) throw new DomainError(SESSION_NOT_FOUND, 'not_found');
  const { tutorId } = state.booked;
  const startMs = Date.parse(input.start);
  if (!isSupportedEpochMs(startMs)) throw new DomainError(START_NOT_AN_INSTANT, 'invalid');
  const start = new Date(startMs).toISOString();
  const end = new Date(startMs + SESSION_MINUTES * 60_000).toISOString();
  const previous = { start: state.start, end: state.end };
  // Refuse what the session would refuse (closed, started, a family's move inside the 12-hour
  // window) before the calendar is read or the hour moves: the same pure decision on the state just
  // read. The move itself is decided again on the stream below, with its expected revision.
  decideSession(
    {
      type: 'RescheduleSession',
      data: { sessionId: input.sessionId, start, end, timeZone: input.timeZone },
      metadata: { now: ctx.now, actorId: ctx.actorId, actorRole: ctx.actorRole },
    },
    state,
  );
  const { free: slotFree } = await bookableHour(ports, tutorId, start, ctx.now);
  const step = stepOf(ctx);
  const hour = await retriedClaim(
    step,
    'claim-hour',
    (c) =>
      handlers.schedules.handle(tutorId, { type: 'ClaimHour', data: { tutorId, sessionId: input.sessionId, start, end, slotFree } }, c, {
        maxAttempts: SCHEDULE_ATTEMPTS,
      }),
    async () => (await handlers.schedules.load(tutorId)).held[input.sessionId]?.start === start,
  );
  return compensating(
    () =>
      handlers.sessions.handle(
        input.sessionId,
        { type: 'RescheduleSession', data: { sessionId: input.sessionId, start, end, timeZone: input.timeZone } },
        step('reschedule'),
      ),
    () =>
      handlers.schedules.handle(
        tutorId,
        { type: 'ClaimHour', data: { tutorId, sessionId: input.sessionId, ...previous, slotFree: true } },
        step(`claim-back${hour.suffix}`),
        { maxAttempts: SCHEDULE_ATTEMPTS },
      ),
  );
}
