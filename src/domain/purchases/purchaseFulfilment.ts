import type { Workflow } from '../kit/workflow.ts';
import type { PurchaseEvent } from './purchase.ts';

/**
 * What follows a purchase's outcome. Completed: the promo use becomes a redemption, the course is
 * created with the package's credits and the student's claimed slot is confirmed. Failed or
 * abandoned: the promo use and the slot are given back. Each step is a command on another stream
 * with an id derived from (workflow, event, step), so a replayed event takes no step twice; every
 * step is itself idempotent (a second redemption, course or release changes nothing).
 */
export type PurchaseFulfilmentStep =
  | { step: 'redeem-promo'; purchaseId: string }
  | { step: 'create-course'; purchaseId: string }
  | { step: 'confirm-enrollment'; purchaseId: string }
  | { step: 'release-promo'; purchaseId: string; reason: 'payment_failed' | 'abandoned' }
  | { step: 'release-enrollment'; purchaseId: string };

type Input = Extract<PurchaseEvent, { type: 'PurchaseCompleted' | 'PurchaseFailed' | 'PurchaseAbandoned' }>;

export const purchaseFulfilmentWorkflow: Workflow<Input, null, PurchaseFulfilmentStep> = {
  name: 'purchase_fulfilment',
  handles: ['PurchaseCompleted', 'PurchaseFailed', 'PurchaseAbandoned'],
  instanceOf: (event) => event.data.purchaseId,
  initialState: null,
  // The purchase stream holds the terms; the steps read them there (a late success after a failure still finds them).
  evolve: () => null,
  react(_state, event) {
    const { purchaseId } = event.data;
    if (event.type === 'PurchaseCompleted') {
      return [
        { step: 'redeem-promo', purchaseId },
        { step: 'create-course', purchaseId },
        { step: 'confirm-enrollment', purchaseId },
      ];
    }
    const reason = event.type === 'PurchaseFailed' ? 'payment_failed' : 'abandoned';
    return [
      { step: 'release-promo', purchaseId, reason },
      { step: 'release-enrollment', purchaseId },
    ];
  },
  isFinished: () => true,
};
