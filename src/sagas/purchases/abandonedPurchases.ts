import type { Clock } from '../../adapters/clock/clock.ts';
import type { Sql } from '../../adapters/db/db.ts';
import type { JobQueue, QueueDefinition } from '../../adapters/jobs/jobQueue.ts';
import { PaymentError, type PaymentPort } from '../../adapters/payments/paymentPort.ts';
import { commandContext, deterministicUuid } from '../../commands/kit/commandContext.ts';
import { abandonPurchase, completePurchase, type PurchaseHandlers, paidCard } from '../../commands/purchases/purchaseHandlers.ts';
import { PAYMENT_WINDOW_MINUTES } from '../../domain/purchases/purchase.ts';
import { stalePendingPurchases } from '../../projections/purchases/queries.ts';

export const ABANDONED_PURCHASE_SWEEP_QUEUE = 'purchase-abandoned-sweep';
/** Every minute: a checkout is given up within about a minute of its payment window closing. */
export const ABANDONED_PURCHASE_SWEEP_CRON = '* * * * *';

/**
 * A failing sweep fails its job: retried twice, then dead-lettered, which raises a "job gave up"
 * alert. The next minute's sweep runs regardless.
 */
export const abandonedPurchaseSweepQueue: QueueDefinition = { name: ABANDONED_PURCHASE_SWEEP_QUEUE, retryLimit: 2, retryDelaySeconds: 10 };

export interface AbandonDeps {
  sql: Sql;
  purchases: PurchaseHandlers;
  payments: PaymentPort;
}

type Outcome = 'completed' | 'waiting' | 'abandon';
type Ctx = (step: string) => ReturnType<typeof commandContext>;

/** An intent that did succeed (its event lost) completes; one still processing waits; any other is cancelled. */
async function settleIntent(deps: AbandonDeps, purchaseId: string, paymentIntentId: string, ctx: Ctx): Promise<Outcome> {
  const intent = await deps.payments.retrievePaymentIntent(paymentIntentId);
  if (intent.status === 'succeeded') {
    await completePurchase(deps.purchases, { purchaseId, paymentIntentId, card: intent.card }, ctx('complete'));
    return 'completed';
  }
  if (intent.status === 'processing') return 'waiting';
  if (intent.status !== 'canceled') await deps.payments.cancelPaymentIntent(paymentIntentId);
  return 'abandon';
}

/**
 * A repurchase on a hosted checkout page: its session expires with the payment window
 * (`expiresAt`), so nobody can pay it once it is given up; until then it may still be paid.
 */
async function settleSession(deps: AbandonDeps, purchaseId: string, checkoutSessionId: string, ctx: Ctx): Promise<Outcome> {
  const session = await deps.payments.retrieveCheckoutSession(checkoutSessionId);
  if (session.status === 'complete' && session.paymentStatus === 'paid' && session.paymentIntentId) {
    const card = await paidCard(deps.payments, session.paymentIntentId);
    await completePurchase(
      deps.purchases,
      { purchaseId, paymentIntentId: session.paymentIntentId, checkoutSessionId, card },
      ctx('complete'),
    );
    return 'completed';
  }
  return session.status === 'expired' ? 'abandon' : 'waiting';
}

/**
 * Checkouts left unpaid past the payment window: the intent is cancelled at the provider (a hosted
 * checkout session is left to expire first), then the purchase abandoned (the fulfilment gives the
 * promo use and the slot back). An intent or session that was paid (its event lost) completes
 * instead; one still processing (or a session still open) waits for the next sweep, as does a
 * cancel that lost a race with a payment. Command ids derive from the purchase: several processes
 * sweeping at once append nothing twice.
 */
export async function sweepAbandonedPurchases(deps: AbandonDeps, now: Date): Promise<number> {
  const stale = await stalePendingPurchases(deps.sql, new Date(now.getTime() - PAYMENT_WINDOW_MINUTES * 60_000));
  let abandoned = 0;
  for (const { purchaseId, paymentIntentId } of stale) {
    const ctx: Ctx = (step) =>
      commandContext({ commandId: deterministicUuid(`purchase-timeout/${purchaseId}/${step}`), actorRole: 'system', now });
    try {
      const checkoutSessionId = paymentIntentId ? null : (await deps.purchases.purchases.load(purchaseId)).started?.checkoutSessionId;
      let outcome: Outcome = 'abandon';
      if (checkoutSessionId) outcome = await settleSession(deps, purchaseId, checkoutSessionId, ctx);
      else if (paymentIntentId) outcome = await settleIntent(deps, purchaseId, paymentIntentId, ctx);
      if (outcome !== 'abandon') continue;
      await abandonPurchase(deps.purchases, { purchaseId }, ctx('abandon'));
      abandoned++;
    } catch (error) {
      // A payment that won the race with the cancel, or a provider outage: the next sweep decides.
      if (!(error instanceof PaymentError)) throw error;
    }
  }
  return abandoned;
}

/**
 * Sweeps on a pg-boss schedule: one job a minute across every process, run by one worker, so
 * processes no longer sweep side by side (each sweep is still safe to repeat).
 */
export async function scheduleAbandonSweeps(queue: JobQueue, deps: AbandonDeps, clock: Clock): Promise<void> {
  await queue.boss.schedule(ABANDONED_PURCHASE_SWEEP_QUEUE, ABANDONED_PURCHASE_SWEEP_CRON);
  await queue.work(
    ABANDONED_PURCHASE_SWEEP_QUEUE,
    async () => {
      await sweepAbandonedPurchases(deps, clock.now());
    },
    { batchSize: 1, workers: 1 },
  );
}
