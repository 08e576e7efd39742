import type { Clock } from '../../adapters/clock/clock.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import { courseLedger } from '../../commands/courses/courseLedger.ts';
import { commandContext, deterministicUuid } from '../../commands/kit/commandContext.ts';
import { ORPHAN_CLAIM_MS, type OrphanSweepOutcome, sweepClaim } from '../../commands/sessions/orphanedClaims.ts';
import { SCHEDULE_ATTEMPTS, sessionHandlers } from '../../commands/sessions/sessionHandlers.ts';
import { reactor } from '../kit/reactor.ts';

export const ORPHANED_CLAIM_QUEUE = 'session-orphaned-claims';
/** Checked a little after a claim could first count as left behind. */
const SWEEP_DELAY_MS = ORPHAN_CLAIM_MS + 30_000;

export interface OrphanedClaimJob {
  tutorId: string;
  sessionId: string;
  /** The claim's own time: a later claim of the same session (a retry, a reschedule) is another claim. */
  at: string;
  correlationId: string;
}

/** Every claimed hour gets one check, ORPHAN_CLAIM_MS later: booked by then, or given back. */
export const orphanedClaimReactor = reactor({
  name: 'session_orphaned_claims',
  handles: ['TutorHourClaimed'],
  jobsFor(event) {
    const { tutorId, sessionId, at } = event.data;
    // Claims recorded before claims kept their time cannot be told apart from a live one.
    if (!at) return [];
    const job: OrphanedClaimJob = { tutorId, sessionId, at, correlationId: event.metadata.correlationId ?? sessionId };
    return [
      {
        queue: ORPHANED_CLAIM_QUEUE,
        id: deterministicUuid(`orphaned-claim/${sessionId}/${at}`),
        data: { ...job },
        // From the later of the claim's business time and its commit: a claim recorded with a past
        // time (the demo seed's history) must not be swept while its booking's next steps still run.
        startAfter: new Date(Math.max(Date.parse(at), event.recordedAt.getTime()) + SWEEP_DELAY_MS),
      },
    ];
  },
});

/** Runs one check; a claim not yet old enough (the job ran early) is retried by the queue. */
export async function sweepOrphanedClaim(store: EventStore, job: OrphanedClaimJob, now: Date): Promise<OrphanSweepOutcome> {
  const ctx = commandContext({
    commandId: deterministicUuid(`orphaned-claim-sweep/${job.sessionId}/${job.at}`),
    actorRole: 'system',
    correlationId: job.correlationId,
    now,
  });
  const outcome = await sweepClaim(sessionHandlers(store), courseLedger(store, { maxAttempts: SCHEDULE_ATTEMPTS }).release, job, ctx);
  if (outcome === 'too-young') throw new Error(`claim of session ${job.sessionId} checked before it could be left behind`);
  return outcome;
}

export async function workOrphanedClaims(queue: JobQueue, store: EventStore, clock: Clock): Promise<void> {
  await queue.work<OrphanedClaimJob>(ORPHANED_CLAIM_QUEUE, async (job) => {
    await sweepOrphanedClaim(store, job, clock.now());
  });
}
