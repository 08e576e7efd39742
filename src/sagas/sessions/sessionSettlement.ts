import type { Clock } from '../../adapters/clock/clock.ts';
import type { EventStore, Position } from '../../adapters/eventstore/eventStore.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import { courseLedger } from '../../commands/courses/courseLedger.ts';
import { commandContext, deterministicUuid } from '../../commands/kit/commandContext.ts';
import { stepOf } from '../../commands/kit/processStep.ts';
import { SCHEDULE_ATTEMPTS, sessionHandlers } from '../../commands/sessions/sessionHandlers.ts';
import { type SessionSettlement, settlementOf, settleSession } from '../../commands/sessions/settleSession.ts';
import { reactor } from '../kit/reactor.ts';

export const SESSION_SETTLEMENT_QUEUE = 'session-settlement';
/** The request that closed the session normally settles it within this; the job then finds nothing to do. */
export const SETTLEMENT_DELAY_MS = 60_000;

export interface SessionSettlementJob extends SessionSettlement {
  /** The closing event: the job's command ids derive from it, so a retried job appends nothing twice. */
  eventId: string;
  correlationId: string;
}

/**
 * Every cancelled or completed session gets one settlement job, a minute after the event: the
 * credit and the hour are settled by the request that closed the session, unless it died after
 * recording the event and no retry came (the credit would stay reserved, the hour held, for ever).
 */
export const sessionSettlementReactor = reactor({
  name: 'session_settlement',
  handles: ['SessionCancelled', 'SessionCompleted'],
  jobsFor(event) {
    const settlement = settlementOf(event);
    if (!settlement) return [];
    const job: SessionSettlementJob = {
      ...settlement,
      eventId: event.id,
      correlationId: event.metadata.correlationId ?? settlement.sessionId,
    };
    return [
      {
        queue: SESSION_SETTLEMENT_QUEUE,
        id: deterministicUuid(`session-settlement/${event.id}`),
        data: { ...job },
        // After the log's time, not the event's `at`: the request settles right after it appends.
        startAfter: new Date(event.recordedAt.getTime() + SETTLEMENT_DELAY_MS),
      },
    ];
  },
});

/** Settles what the closing event decided; nothing when the request did it (the deciders append nothing twice). */
export async function settleClosedSession(store: EventStore, job: SessionSettlementJob, now: Date): Promise<Position | null> {
  const ctx = commandContext({
    commandId: deterministicUuid(`session-settlement-job/${job.eventId}`),
    actorRole: 'system',
    correlationId: job.correlationId,
    now,
  });
  const { sessionId, tutorId, courseId, credit } = job;
  const ledger = courseLedger(store, { maxAttempts: SCHEDULE_ATTEMPTS });
  return settleSession(sessionHandlers(store), ledger, { sessionId, tutorId, courseId, credit }, stepOf(ctx));
}

export async function workSessionSettlement(queue: JobQueue, store: EventStore, clock: Clock): Promise<void> {
  await queue.work<SessionSettlementJob>(SESSION_SETTLEMENT_QUEUE, async (job) => {
    await settleClosedSession(store, job, clock.now());
  });
}
