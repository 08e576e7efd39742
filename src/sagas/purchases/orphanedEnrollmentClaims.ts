import type { Clock } from '../../adapters/clock/clock.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import type { AccountHandlers } from '../../commands/accounts/accountDeps.ts';
import { releaseEnrollment } from '../../commands/accounts/enrollment.ts';
import { commandContext, deterministicUuid } from '../../commands/kit/commandContext.ts';
import type { PurchaseHandlers } from '../../commands/purchases/purchaseHandlers.ts';
import { PAYMENT_WINDOW_MINUTES } from '../../domain/purchases/purchase.ts';
import { reactor } from '../kit/reactor.ts';

export const ORPHANED_ENROLLMENT_CLAIM_QUEUE = 'purchase-orphaned-enrollment-claims';
/**
 * A checkout's slot is checked once the payment window is over (and a little more): a slot whose
 * purchase never started (the request died between the claim and the purchase) would otherwise
 * block every later enrolment of the student, since a checkout under way blocks the next one.
 */
export const ORPHANED_ENROLLMENT_CLAIM_MS = (PAYMENT_WINDOW_MINUTES + 5) * 60_000;

export interface OrphanedEnrollmentClaimJob {
  studentId: string;
  purchaseId: string;
}

/** Every claimed slot gets one check: its purchase started (its own end releases or confirms it), or the slot is given back. */
export const orphanedEnrollmentClaimReactor = reactor({
  name: 'purchase_orphaned_enrollment_claims',
  handles: ['EnrollmentClaimed'],
  jobsFor(event) {
    const { studentId, purchaseId } = event.data;
    const job: OrphanedEnrollmentClaimJob = { studentId, purchaseId };
    return [
      {
        queue: ORPHANED_ENROLLMENT_CLAIM_QUEUE,
        id: deterministicUuid(`orphaned-enrollment-claim/${event.id}`),
        data: { ...job },
        startAfter: new Date(event.recordedAt.getTime() + ORPHANED_ENROLLMENT_CLAIM_MS),
      },
    ];
  },
});

export interface OrphanedEnrollmentClaimDeps {
  purchases: PurchaseHandlers;
  students: Pick<AccountHandlers, 'students'>;
  clock: Clock;
}

/**
 * 'started': the purchase exists, and the fulfilment (paid, failed, abandoned) settles its slot;
 * 'released': no purchase ever started, so the slot is given back (nothing if it is no longer a
 * pending claim: the release only frees a claim, never a course).
 */
export async function sweepOrphanedEnrollmentClaim(
  deps: OrphanedEnrollmentClaimDeps,
  job: OrphanedEnrollmentClaimJob,
): Promise<'started' | 'released'> {
  if ((await deps.purchases.purchases.load(job.purchaseId)).started) return 'started';
  const ctx = commandContext({
    commandId: deterministicUuid(`orphaned-enrollment-claim-sweep/${job.purchaseId}`),
    actorRole: 'system',
    now: deps.clock.now(),
  });
  await releaseEnrollment(deps.students, job, ctx);
  return 'released';
}

export async function workOrphanedEnrollmentClaims(queue: JobQueue, deps: OrphanedEnrollmentClaimDeps): Promise<void> {
  // One student's releases one after the other: they append to the same stream.
  await queue.work<OrphanedEnrollmentClaimJob>(
    ORPHANED_ENROLLMENT_CLAIM_QUEUE,
    async (job) => {
      await sweepOrphanedEnrollmentClaim(deps, job);
    },
    { keyOf: (job) => job.studentId },
  );
}
