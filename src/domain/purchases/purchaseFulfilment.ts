import type { Workflow } from '../kit/workflow.ts';
import type { PurchaseEvent } from './purchase.ts';

/**
 * What follows a purchase's outcome. Completed: the course is created with the package's credits,
 * the student's claimed slot is confirmed and the promo use becomes a redemption; a completed
 * repurchase adds the package's credits to its course instead (no slot involved). Failed or
 * abandoned: the promo use and the slot are given back, and a repurchase's mark on its course is
 * cleared (every way a purchase is given up, the cancel route, the sweep, a failed payment, ends
 * here; completion clears it with the credits). Refunded: the promo use stops counting. Each step is a command on another stream
 * with an id derived from (workflow, event, step), so a replayed event takes no step twice; every
 * step is itself idempotent (a second redemption, course or release changes nothing).
 */
export type PurchaseFulfilmentStep =
  | { step: 'redeem-promo'; purchaseId: string }
  | { step: 'create-course'; purchaseId: string }
  /** A repurchase: the package's credits go to the existing course (once per purchase, the ledger ignores a repeat). */
  | { step: 'add-credits'; purchaseId: string }
  | { step: 'confirm-enrollment'; purchaseId: string }
  | { step: 'release-promo'; purchaseId: string; reason: 'payment_failed' | 'abandoned' }
  | { step: 'release-enrollment'; purchaseId: string }
  /** A repurchase given up: its course may be repurchased or ended again (nothing for a first purchase, nor when not pending). */
  | { step: 'clear-repurchase'; purchaseId: string; outcome: 'failed' | 'abandoned' }
  /** Refunded: the promo use no longer counts (a redemption is cancelled, a claim still held released). */
  | { step: 'refund-promo'; purchaseId: string };

type Input = Extract<PurchaseEvent, { type: 'PurchaseCompleted' | 'PurchaseFailed' | 'PurchaseAbandoned' | 'PurchaseRefunded' }>;

export const purchaseFulfilmentWorkflow: Workflow<Input, null, PurchaseFulfilmentStep> = {
  name: 'purchase_fulfilment',
  handles: ['PurchaseCompleted', 'PurchaseFailed', 'PurchaseAbandoned', 'PurchaseRefunded'],
  instanceOf: (event) => event.data.purchaseId,
  initialState: null,
  // The purchase stream holds the terms; the steps read them there (a late success after a failure still finds them).
  evolve: () => null,
  react(_state, event) {
    const { purchaseId } = event.data;
    if (event.type === 'PurchaseRefunded') return [{ step: 'refund-promo', purchaseId }];
    if (event.type === 'PurchaseCompleted' && event.data.kind === 'repurchase') {
      // Credits first, as with a first purchase's course: paid for, so credited whatever the promo's fate.
      return [
        { step: 'add-credits', purchaseId },
        { step: 'redeem-promo', purchaseId },
      ];
    }
    if (event.type === 'PurchaseCompleted') {
      // The course first: the money is in, so the student gets what they paid for even if the
      // redemption is refused (a payment that outlived its claim on an exhausted code parks the
      // event and raises an alert for an operator to settle).
      return [
        { step: 'create-course', purchaseId },
        { step: 'confirm-enrollment', purchaseId },
        { step: 'redeem-promo', purchaseId },
      ];
    }
    const reason = event.type === 'PurchaseFailed' ? 'payment_failed' : 'abandoned';
    return [
      { step: 'release-promo', purchaseId, reason },
      { step: 'release-enrollment', purchaseId },
      { step: 'clear-repurchase', purchaseId, outcome: event.type === 'PurchaseFailed' ? 'failed' : 'abandoned' },
    ];
  },
  isFinished: () => true,
};
