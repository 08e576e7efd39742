import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { stepsAfter } from '../kit/workflow.ts';
import type { PurchaseEvent, PurchaseStartedData } from './purchase.ts';
import { PAYMENT_MISMATCH, PURCHASE_EXISTS, PURCHASE_NOT_FOUND, type PurchaseCommand, purchaseDecider } from './purchaseDecider.ts';
import { purchaseFulfilmentWorkflow } from './purchaseFulfilment.ts';

const now = new Date('2026-11-23T12:00:00Z');
const at = now.toISOString();
const metadata = { now, actorId: 'u1', actorRole: 'student' };
const spec = deciderSpec(purchaseDecider);

const terms: Omit<PurchaseStartedData, 'at'> = {
  purchaseId: 'p1',
  studentId: 's1',
  purchasedBy: 'u1',
  packageId: 'pkg',
  subjectId: 'math',
  sessionCount: 8,
  priceCents: 57_000,
  promo: { promoCodeId: 'promo', discountCents: 5_700 },
  finalCents: 51_300,
  paymentIntentId: 'pi_1',
  kind: 'purchase',
  courseId: null,
  checkoutSessionId: null,
};
const started: PurchaseEvent = { type: 'PurchaseStarted', data: { ...terms, at } };
const completed: PurchaseEvent = { type: 'PurchaseCompleted', data: { purchaseId: 'p1', paymentIntentId: 'pi_1', kind: 'purchase', at } };
const failed: PurchaseEvent = {
  type: 'PurchaseFailed',
  data: { purchaseId: 'p1', reason: 'card_declined', message: 'Your card was declined.', at },
};

const cmd = <T extends PurchaseCommand['type']>(type: T, data: Extract<PurchaseCommand, { type: T }>['data']) =>
  ({ type, data, metadata }) as PurchaseCommand;

describe('purchase', () => {
  it('starts pending with the server price', () => spec.given([]).when(cmd('StartPurchase', terms)).thenEvents([started]));
  it('starting again with the same terms changes nothing; other terms are refused', () => {
    spec.given([started]).when(cmd('StartPurchase', terms)).thenNothing();
    spec
      .given([started])
      .when(cmd('StartPurchase', { ...terms, finalCents: 1 }))
      .thenThrows(PURCHASE_EXISTS, 'conflict');
  });
  it('completes exactly once', () => {
    spec
      .given([started])
      .when(cmd('CompletePurchase', { purchaseId: 'p1', paymentIntentId: 'pi_1' }))
      .thenEvents([completed]);
    spec
      .given([started, completed])
      .when(cmd('CompletePurchase', { purchaseId: 'p1', paymentIntentId: 'pi_1' }))
      .thenNothing();
  });
  it('refuses another intent, and an unknown purchase', () => {
    spec
      .given([started])
      .when(cmd('CompletePurchase', { purchaseId: 'p1', paymentIntentId: 'pi_2' }))
      .thenThrows(PAYMENT_MISMATCH);
    spec
      .given([])
      .when(cmd('CompletePurchase', { purchaseId: 'p1', paymentIntentId: 'pi_1' }))
      .thenThrows(PURCHASE_NOT_FOUND, 'not_found');
  });
  it('a free purchase completes with `free`', () => {
    const free: PurchaseEvent = { type: 'PurchaseStarted', data: { ...terms, finalCents: 0, paymentIntentId: null, at } };
    spec
      .given([free])
      .when(cmd('CompletePurchase', { purchaseId: 'p1', paymentIntentId: 'free' }))
      .thenEvents([{ type: 'PurchaseCompleted', data: { purchaseId: 'p1', paymentIntentId: 'free', kind: 'purchase', at } }]);
  });
  it('fails while pending; a late failure after success changes nothing', () => {
    spec
      .given([started])
      .when(cmd('FailPurchase', { purchaseId: 'p1', reason: 'card_declined', message: 'Your card was declined.' }))
      .thenEvents([failed]);
    spec
      .given([started, completed])
      .when(cmd('FailPurchase', { purchaseId: 'p1', reason: 'x', message: 'y' }))
      .thenNothing();
    spec
      .given([started, failed])
      .when(cmd('FailPurchase', { purchaseId: 'p1', reason: 'x', message: 'y' }))
      .thenNothing();
  });
  it('a success after a failure still completes (the money was taken)', () =>
    spec
      .given([started, failed])
      .when(cmd('CompletePurchase', { purchaseId: 'p1', paymentIntentId: 'pi_1' }))
      .thenEvents([completed]));
  it('is abandoned only while pending', () => {
    spec
      .given([started])
      .when(cmd('AbandonPurchase', { purchaseId: 'p1' }))
      .thenEvents([{ type: 'PurchaseAbandoned', data: { purchaseId: 'p1', at } }]);
    spec
      .given([started, completed])
      .when(cmd('AbandonPurchase', { purchaseId: 'p1' }))
      .thenNothing();
  });
});

describe('purchase fulfilment', () => {
  it('completed: create the course, confirm the slot, redeem the promo', () =>
    expect(stepsAfter(purchaseFulfilmentWorkflow, [], completed as never).map((s) => s.step)).toEqual([
      'create-course',
      'confirm-enrollment',
      'redeem-promo',
    ]));
  it('failed: give back the promo use and the slot', () =>
    expect(stepsAfter(purchaseFulfilmentWorkflow, [], failed as never)).toEqual([
      { step: 'release-promo', purchaseId: 'p1', reason: 'payment_failed' },
      { step: 'release-enrollment', purchaseId: 'p1' },
    ]));
});
