import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { stepsAfter } from '../kit/workflow.ts';
import type { PurchaseEvent, PurchaseStartedData } from './purchase.ts';
import {
  PAYMENT_MISMATCH,
  PURCHASE_EXISTS,
  PURCHASE_NOT_FOUND,
  type PurchaseCommand,
  purchaseDecider,
  REPURCHASE_COURSE_ENDED,
  REPURCHASE_COURSE_NOT_FOUND,
  REPURCHASE_NOT_YET,
  REPURCHASE_PACKAGE_SIZE,
  REPURCHASE_TERMS,
  REPURCHASE_WRONG_TIER,
  type RepurchaseFacts,
} from './purchaseDecider.ts';
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
      { step: 'clear-repurchase', purchaseId: 'p1', outcome: 'failed' },
    ]));
});

describe('repurchase', () => {
  const reterms: Omit<PurchaseStartedData, 'at'> = {
    ...terms,
    purchaseId: 'r1',
    sessionCount: 4,
    kind: 'repurchase',
    courseId: 'c1',
    checkoutSessionId: 'cs_1',
    paymentIntentId: null,
  };
  const usedUp: RepurchaseFacts = {
    course: { exists: true, studentId: 's1', status: 'active', sessionsRemaining: 0, gradeTierId: 'grade_11_12' },
    packageGradeTierId: 'grade_11_12',
  };
  const restarted: PurchaseEvent = { type: 'PurchaseStarted', data: { ...reterms, at } };
  const repurchase = (t: Partial<Omit<PurchaseStartedData, 'at'>> = {}, f: Partial<RepurchaseFacts['course']> = {}, tier = 'grade_11_12') =>
    cmd('StartRepurchase', { terms: { ...reterms, ...t }, course: { ...usedUp.course, ...f }, packageGradeTierId: tier });

  it('starts for a course with no sessions remaining, a 4, 8 or 12-session package of its tier', () => {
    spec.given([]).when(repurchase()).thenEvents([restarted]);
    for (const sessionCount of [8, 12])
      spec
        .given([])
        .when(repurchase({ sessionCount }))
        .thenEvents([{ type: 'PurchaseStarted', data: { ...reterms, sessionCount, at } }]);
  });
  it('refuses while sessions remain (409), for an ended course (409)', () => {
    spec
      .given([])
      .when(repurchase({}, { sessionsRemaining: 1 }))
      .thenThrows(REPURCHASE_NOT_YET, 'conflict');
    spec
      .given([])
      .when(repurchase({}, { status: 'inactive' }))
      .thenThrows(REPURCHASE_COURSE_ENDED, 'conflict');
  });
  it('refuses another package size or another grade tier (400)', () => {
    spec
      .given([])
      .when(repurchase({ sessionCount: 6 }))
      .thenThrows(REPURCHASE_PACKAGE_SIZE, 'invalid');
    spec
      .given([])
      .when(repurchase({}, {}, 'grade_10_under'))
      .thenThrows(REPURCHASE_WRONG_TIER, 'invalid');
    spec
      .given([])
      .when(repurchase({}, { gradeTierId: null }))
      .thenThrows(REPURCHASE_WRONG_TIER, 'invalid');
  });
  it('refuses another student’s course or an unknown one (404)', () => {
    spec
      .given([])
      .when(repurchase({}, { studentId: 's2' }))
      .thenThrows(REPURCHASE_COURSE_NOT_FOUND, 'not_found');
    spec
      .given([])
      .when(repurchase({}, { exists: false, studentId: null }))
      .thenThrows(REPURCHASE_COURSE_NOT_FOUND, 'not_found');
  });
  it('needs repurchase terms naming the course; a first purchase cannot pose as one', () => {
    spec
      .given([])
      .when(repurchase({ courseId: null }))
      .thenThrows(REPURCHASE_TERMS, 'invalid');
    spec
      .given([])
      .when(repurchase({ kind: 'purchase' }))
      .thenThrows(REPURCHASE_TERMS, 'invalid');
    spec.given([]).when(cmd('StartPurchase', reterms)).thenThrows(REPURCHASE_TERMS, 'invalid');
  });
  it('a retry with the same terms changes nothing, even once the course has credits again; other terms are refused', () => {
    spec
      .given([restarted])
      .when(repurchase({}, { sessionsRemaining: 4 }))
      .thenNothing();
    spec
      .given([restarted])
      .when(repurchase({ finalCents: 1 }))
      .thenThrows(PURCHASE_EXISTS, 'conflict');
  });
  it('completes only with its own checkout session, exactly once, as a repurchase', () => {
    const done: PurchaseEvent = { type: 'PurchaseCompleted', data: { purchaseId: 'r1', paymentIntentId: 'pi_9', kind: 'repurchase', at } };
    spec
      .given([restarted])
      .when(cmd('CompletePurchase', { purchaseId: 'r1', paymentIntentId: 'pi_9', checkoutSessionId: 'cs_1' }))
      .thenEvents([done]);
    spec
      .given([restarted, done])
      .when(cmd('CompletePurchase', { purchaseId: 'r1', paymentIntentId: 'pi_9', checkoutSessionId: 'cs_1' }))
      .thenNothing();
    spec
      .given([restarted])
      .when(cmd('CompletePurchase', { purchaseId: 'r1', paymentIntentId: 'pi_9', checkoutSessionId: 'cs_other' }))
      .thenThrows(PAYMENT_MISMATCH, 'conflict');
    // The intent's own report is not how a hosted checkout completes.
    spec
      .given([restarted])
      .when(cmd('CompletePurchase', { purchaseId: 'r1', paymentIntentId: 'pi_9' }))
      .thenThrows(PAYMENT_MISMATCH, 'conflict');
  });
  it('a free repurchase completes with `free`', () => {
    const free: PurchaseEvent = { type: 'PurchaseStarted', data: { ...reterms, checkoutSessionId: null, finalCents: 0, at } };
    spec
      .given([free])
      .when(cmd('CompletePurchase', { purchaseId: 'r1', paymentIntentId: 'free' }))
      .thenEvents([{ type: 'PurchaseCompleted', data: { purchaseId: 'r1', paymentIntentId: 'free', kind: 'repurchase', at } }]);
  });
  it('completed: the credits go to the course, then the promo is redeemed; abandoned: the promo use is given back', () => {
    const done = { type: 'PurchaseCompleted', data: { purchaseId: 'r1', paymentIntentId: 'pi_9', kind: 'repurchase', at } };
    expect(stepsAfter(purchaseFulfilmentWorkflow, [], done as never)).toEqual([
      { step: 'add-credits', purchaseId: 'r1' },
      { step: 'redeem-promo', purchaseId: 'r1' },
    ]);
    const abandoned = { type: 'PurchaseAbandoned', data: { purchaseId: 'r1', at } };
    expect(stepsAfter(purchaseFulfilmentWorkflow, [], abandoned as never)).toEqual([
      { step: 'release-promo', purchaseId: 'r1', reason: 'abandoned' },
      { step: 'release-enrollment', purchaseId: 'r1' },
      // Every way a repurchase is given up ends here: its course's mark is cleared.
      { step: 'clear-repurchase', purchaseId: 'r1', outcome: 'abandoned' },
    ]);
  });
});
