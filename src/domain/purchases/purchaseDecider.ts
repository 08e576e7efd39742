import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import {
  evolvePurchase,
  FREE_PURCHASE,
  initialPurchaseState,
  type PurchaseEvent,
  type PurchaseStartedData,
  type PurchaseState,
} from './purchase.ts';

export const PURCHASE_NOT_FOUND = 'Purchase not found';
export const PURCHASE_EXISTS = 'This purchase was already started with other terms';
export const PAYMENT_MISMATCH = 'This payment does not belong to this purchase';

export type PurchaseCommand =
  | Command<'StartPurchase', Omit<PurchaseStartedData, 'at'>>
  | Command<'CompletePurchase', { purchaseId: string; paymentIntentId: string }>
  | Command<'FailPurchase', { purchaseId: string; reason: string; message: string }>
  | Command<'AbandonPurchase', { purchaseId: string }>;

function requireStarted(state: PurchaseState): PurchaseStartedData {
  if (!state.started) throw new DomainError(PURCHASE_NOT_FOUND, 'not_found');
  return state.started;
}

/**
 * One purchase: started at checkout with the server's price, completed exactly once (whichever of
 * the webhook and confirm-payment reports it first; a late success after a failure still completes,
 * since the money was taken), failed or abandoned only while pending.
 */
export const decidePurchase = decideWith<PurchaseCommand, PurchaseEvent, PurchaseState>({
  StartPurchase: ({ data, metadata: { now } }, state) => {
    if (state.started) {
      const { at: _at, ...previous } = state.started;
      if (JSON.stringify(previous) === JSON.stringify(data)) return [];
      throw new DomainError(PURCHASE_EXISTS, 'conflict');
    }
    return [{ type: 'PurchaseStarted', data: { ...data, at: now.toISOString() } }];
  },

  CompletePurchase: ({ data, metadata: { now } }, state) => {
    const started = requireStarted(state);
    if (state.status === 'completed') return [];
    const expected = started.paymentIntentId ?? FREE_PURCHASE;
    if (data.paymentIntentId !== expected) throw new DomainError(PAYMENT_MISMATCH, 'conflict');
    return [
      { type: 'PurchaseCompleted', data: { purchaseId: data.purchaseId, paymentIntentId: data.paymentIntentId, at: now.toISOString() } },
    ];
  },

  FailPurchase: ({ data, metadata: { now } }, state) => {
    requireStarted(state);
    if (state.status !== 'pending') return [];
    return [{ type: 'PurchaseFailed', data: { ...data, at: now.toISOString() } }];
  },

  AbandonPurchase: ({ data, metadata: { now } }, state) => {
    requireStarted(state);
    if (state.status !== 'pending') return [];
    return [{ type: 'PurchaseAbandoned', data: { purchaseId: data.purchaseId, at: now.toISOString() } }];
  },
});

export const purchaseDecider: Decider<PurchaseCommand, PurchaseEvent, PurchaseState> = {
  initialState: initialPurchaseState,
  evolve: evolvePurchase,
  decide: decidePurchase,
};
