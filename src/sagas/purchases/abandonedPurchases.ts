import type { Sql } from '../../adapters/db/db.ts';
import { PaymentError, type PaymentPort } from '../../adapters/payments/paymentPort.ts';
import { commandContext, deterministicUuid } from '../../commands/kit/commandContext.ts';
import { abandonPurchase, completePurchase, type PurchaseHandlers } from '../../commands/purchases/purchaseHandlers.ts';
import { PAYMENT_WINDOW_MINUTES } from '../../domain/purchases/purchase.ts';
import { stalePendingPurchases } from '../../projections/purchases/queries.ts';

const SWEEP_MS = 60_000;

export interface AbandonDeps {
  sql: Sql;
  purchases: PurchaseHandlers;
  payments: PaymentPort;
}

/**
 * Checkouts left unpaid past the payment window: the intent is cancelled at the provider, then the
 * purchase abandoned (the fulfilment gives the promo use and the slot back). An intent that did
 * succeed (its event lost) completes instead; one still processing waits for the next sweep, as
 * does a cancel that lost a race with a payment. Command ids derive from the purchase: several
 * processes sweeping at once append nothing twice.
 */
export async function sweepAbandonedPurchases(deps: AbandonDeps, now = new Date()): Promise<number> {
  const stale = await stalePendingPurchases(deps.sql, new Date(now.getTime() - PAYMENT_WINDOW_MINUTES * 60_000));
  let abandoned = 0;
  for (const { purchaseId, paymentIntentId } of stale) {
    const ctx = (step: string) =>
      commandContext({ commandId: deterministicUuid(`purchase-timeout/${purchaseId}/${step}`), actorRole: 'system', now });
    try {
      if (paymentIntentId) {
        const intent = await deps.payments.retrievePaymentIntent(paymentIntentId);
        if (intent.status === 'succeeded') {
          await completePurchase(deps.purchases, { purchaseId, paymentIntentId }, ctx('complete'));
          continue;
        }
        if (intent.status === 'processing') continue;
        if (intent.status !== 'canceled') await deps.payments.cancelPaymentIntent(paymentIntentId);
      }
      await abandonPurchase(deps.purchases, { purchaseId }, ctx('abandon'));
      abandoned++;
    } catch (error) {
      // A payment that won the race with the cancel, or a provider outage: the next sweep decides.
      if (!(error instanceof PaymentError)) throw error;
    }
  }
  return abandoned;
}

/** Sweeps every minute (polling; each process may run it). */
export function scheduleAbandonSweeps(deps: AbandonDeps): void {
  setInterval(() => {
    sweepAbandonedPurchases(deps).catch(() => {
      // Transient (connection lost, shutting down): the next sweep retries.
    });
  }, SWEEP_MS).unref();
}
