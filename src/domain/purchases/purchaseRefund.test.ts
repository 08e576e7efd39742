import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { type CourseEvent, unusedCreditsOf } from '../courses/course.ts';
import { courseDecider, NOTHING_UNUSED, PURCHASE_NOT_CREDITED } from '../courses/courseDecider.ts';
import { fold } from '../kit/decider.ts';
import { stepsAfter } from '../kit/workflow.ts';
import { keptDiscountCents, type PromoCodeEvent } from '../promoCodes/promoCode.ts';
import { promoCodeDecider } from '../promoCodes/promoCodeDecider.ts';
import { type PurchaseEvent, REFUND_TAKEOVER_MINUTES, refundShareCents } from './purchase.ts';
import {
  ALREADY_REFUNDED,
  NO_REFUND_UNDER_WAY,
  type PurchaseCommand,
  purchaseDecider,
  REFUND_ADMINS_ONLY,
  REFUND_NOT_COMPLETED,
  REFUND_REASON_REQUIRED,
  REFUND_REASON_TOO_LONG,
  REFUND_UNDER_WAY,
} from './purchaseDecider.ts';
import { purchaseFulfilmentWorkflow } from './purchaseFulfilment.ts';

const now = new Date('2026-11-23T12:00:00Z');
const at = now.toISOString();
const admin = { now, actorId: 'admin-1', actorRole: 'admin' };
const minutesLater = (minutes: number) => ({ ...admin, now: new Date(now.getTime() + minutes * 60_000) });

const started: PurchaseEvent = {
  type: 'PurchaseStarted',
  data: {
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
    at,
  },
};
const completed: PurchaseEvent = { type: 'PurchaseCompleted', data: { purchaseId: 'p1', paymentIntentId: 'pi_1', kind: 'purchase', at } };
const requested = (attempt = 1, when = at): PurchaseEvent => ({
  type: 'PurchaseRefundRequested',
  data: { purchaseId: 'p1', attempt, reason: 'Moved abroad', requestedBy: 'admin-1', at: when },
});
const refunded: PurchaseEvent = {
  type: 'PurchaseRefunded',
  data: {
    purchaseId: 'p1',
    attempt: 1,
    amountCents: 32_062,
    creditsRemoved: 5,
    reason: 'Moved abroad',
    refundId: 're_1',
    refundedBy: 'admin-1',
    at,
  },
};

const cmd = <T extends PurchaseCommand['type']>(type: T, data: Extract<PurchaseCommand, { type: T }>['data'], metadata = admin) =>
  ({ type, data, metadata }) as PurchaseCommand;
const spec = deciderSpec(purchaseDecider);
const request = (reason = '  Moved abroad ', metadata = admin) => cmd('RequestRefund', { purchaseId: 'p1', reason }, metadata);
const record = { purchaseId: 'p1', attempt: 1, amountCents: 32_062, creditsRemoved: 5, refundId: 're_1' };

describe('refunding a purchase', () => {
  it('an admin claims the refund of a completed purchase with a reason (trimmed)', () => {
    spec.given([started, completed]).when(request()).thenEvents([requested()]);
  });

  it('refuses non-admins, a missing or too long reason, purchases not completed and refunded ones', () => {
    spec
      .given([started, completed])
      .when(request('Moved abroad', { now, actorId: 'f1', actorRole: 'finance' }))
      .thenThrows(REFUND_ADMINS_ONLY, 'forbidden');
    spec.given([started, completed]).when(request('   ')).thenThrows(REFUND_REASON_REQUIRED, 'invalid');
    spec
      .given([started, completed])
      .when(request('x'.repeat(501)))
      .thenThrows(REFUND_REASON_TOO_LONG, 'invalid');
    spec.given([started]).when(request()).thenThrows(REFUND_NOT_COMPLETED, 'conflict');
    spec.given([started, completed, requested(), refunded]).when(request()).thenThrows(ALREADY_REFUNDED, 'conflict');
  });

  it('one refund at a time; a claim whose process died is taken over with the same attempt (same provider key)', () => {
    spec.given([started, completed, requested()]).when(request()).thenThrows(REFUND_UNDER_WAY, 'conflict');
    spec
      .given([started, completed, requested()])
      .when(request('Moved abroad', minutesLater(REFUND_TAKEOVER_MINUTES)))
      .thenEvents([requested(1, minutesLater(REFUND_TAKEOVER_MINUTES).now.toISOString())]);
  });

  it('a failed attempt gives the claim back; the next request is a new attempt', () => {
    const failed: PurchaseEvent = {
      type: 'PurchaseRefundFailed',
      data: { purchaseId: 'p1', attempt: 1, code: 'unavailable', message: 'down', at },
    };
    spec
      .given([started, completed, requested()])
      .when(cmd('FailRefund', { purchaseId: 'p1', attempt: 1, code: 'unavailable', message: 'down' }))
      .thenEvents([failed]);
    spec
      .given([started, completed, requested(), failed])
      .when(request())
      .thenEvents([requested(2)]);
    // A stale failure report of another attempt changes nothing.
    spec
      .given([started, completed, requested(), failed, requested(2)])
      .when(cmd('FailRefund', { purchaseId: 'p1', attempt: 1, code: 'x', message: 'x' }))
      .thenNothing();
  });

  it('a refund the provider reports beyond what Topmark refunded is recorded once per amount; its own refunds are not', () => {
    const system = { now, actorId: 'system', actorRole: 'system' };
    const note = (amountRefundedCents: number, paymentIntentId = 'pi_1') =>
      cmd('NoteProviderRefund', { purchaseId: 'p1', paymentIntentId, amountRefundedCents, amountCents: 51_300 }, system);
    const outside = (amountRefundedCents: number, unexplainedCents: number): PurchaseEvent => ({
      type: 'PurchaseRefundedAtProvider',
      data: { purchaseId: 'p1', paymentIntentId: 'pi_1', amountRefundedCents, amountCents: 51_300, unexplainedCents, at },
    });
    // Refunded in the provider's dashboard: recorded; the same report again, or a smaller one, is not.
    spec
      .given([started, completed])
      .when(note(10_000))
      .thenEvents([outside(10_000, 10_000)]);
    spec
      .given([started, completed, outside(10_000, 10_000)])
      .when(note(10_000))
      .thenNothing();
    spec
      .given([started, completed, outside(10_000, 10_000)])
      .when(note(51_300))
      .thenEvents([outside(51_300, 41_300)]);
    // Topmark's own refund, reported by the provider after it was recorded (while it is under way
    // the report is kept to be judged when it settles: the next test).
    spec.given([started, completed, requested(), refunded]).when(note(32_062)).thenNothing();
    // Refunded outside first, then through Topmark: the provider's total counts both.
    spec
      .given([started, completed, outside(10_000, 10_000), requested(), refunded])
      .when(note(42_062))
      .thenNothing();
    // More than Topmark refunded: only the difference is unexplained.
    spec
      .given([started, completed, requested(), refunded])
      .when(note(51_300))
      .thenEvents([outside(51_300, 19_238)]);
    // A refund Topmark gave up on (the provider timed out) that went through after all.
    const gaveUp: PurchaseEvent = {
      type: 'PurchaseRefundFailed',
      data: { purchaseId: 'p1', attempt: 1, code: 'timeout', message: 't', at },
    };
    spec
      .given([started, completed, requested(), gaveUp])
      .when(note(32_062))
      .thenEvents([outside(32_062, 32_062)]);
    // Another payment's refund, a purchase never paid, or no such purchase.
    spec.given([started, completed]).when(note(10_000, 'pi_other')).thenNothing();
    spec.given([started]).when(note(10_000)).thenNothing();
    spec.given([]).when(note(10_000)).thenThrows('Purchase not found', 'not_found');
  });

  it('a report that comes while a refund is under way is judged when the refund settles', () => {
    const system = { now, actorId: 'system', actorRole: 'system' };
    const note = (amountRefundedCents: number) =>
      cmd('NoteProviderRefund', { purchaseId: 'p1', paymentIntentId: 'pi_1', amountRefundedCents, amountCents: 51_300 }, system);
    const reported = (amountRefundedCents: number): PurchaseEvent => ({
      type: 'PurchaseProviderRefundReported',
      data: { purchaseId: 'p1', paymentIntentId: 'pi_1', amountRefundedCents, amountCents: 51_300, at },
    });
    const outside = (amountRefundedCents: number, unexplainedCents: number): PurchaseEvent => ({
      type: 'PurchaseRefundedAtProvider',
      data: { purchaseId: 'p1', paymentIntentId: 'pi_1', amountRefundedCents, amountCents: 51_300, unexplainedCents, at },
    });
    const failed: PurchaseEvent = {
      type: 'PurchaseRefundFailed',
      data: { purchaseId: 'p1', attempt: 1, code: 'card_declined', message: 'no', at },
    };
    // Kept, the largest only.
    spec
      .given([started, completed, requested()])
      .when(note(42_062))
      .thenEvents([reported(42_062)]);
    spec
      .given([started, completed, requested(), reported(42_062)])
      .when(note(32_062))
      .thenNothing();
    // The refund went through: what the report shows beyond it was refunded elsewhere.
    spec
      .given([started, completed, requested(), reported(42_062)])
      .when(cmd('RecordRefund', record))
      .thenEvents([refunded, outside(42_062, 10_000)]);
    // Only its own report: nothing more.
    spec
      .given([started, completed, requested(), reported(32_062)])
      .when(cmd('RecordRefund', record))
      .thenEvents([refunded]);
    // The refund failed: none of what the provider reported is Topmark's.
    spec
      .given([started, completed, requested(), reported(10_000)])
      .when(cmd('FailRefund', { purchaseId: 'p1', attempt: 1, code: 'card_declined', message: 'no' }))
      .thenEvents([failed, outside(10_000, 10_000)]);
    // Judged once: after the outcome the report is done with, and an outside refund already recorded counts.
    spec
      .given([started, completed, requested(), reported(10_000), failed, outside(10_000, 10_000)])
      .when(note(10_000))
      .thenNothing();
    spec
      .given([started, completed, outside(5_000, 5_000), requested(), reported(15_000)])
      .when(cmd('FailRefund', { purchaseId: 'p1', attempt: 1, code: 'card_declined', message: 'no' }))
      .thenEvents([failed, outside(15_000, 10_000)]);
  });

  it('records the refund of the attempt under way once, with its reason and who asked', () => {
    spec.given([started, completed, requested()]).when(cmd('RecordRefund', record)).thenEvents([refunded]);
    spec.given([started, completed, requested(), refunded]).when(cmd('RecordRefund', record)).thenNothing();
    spec.given([started, completed]).when(cmd('RecordRefund', record)).thenThrows(NO_REFUND_UNDER_WAY, 'conflict');
  });

  it('a late report of the payment never completes a refunded purchase again', () => {
    spec
      .given([started, completed, requested(), refunded])
      .when(cmd('CompletePurchase', { purchaseId: 'p1', paymentIntentId: 'pi_1' }))
      .thenNothing();
  });

  it('refunds the unused sessions share of what was paid, in cents, rounded down', () => {
    expect(refundShareCents({ finalCents: 51_300, sessionCount: 8 }, 8)).toBe(51_300);
    expect(refundShareCents({ finalCents: 51_300, sessionCount: 8 }, 5)).toBe(32_062);
    expect(refundShareCents({ finalCents: 10_000, sessionCount: 3 }, 1)).toBe(3_333);
    expect(refundShareCents({ finalCents: 0, sessionCount: 8 }, 8)).toBe(0);
    expect(refundShareCents({ finalCents: 51_300, sessionCount: 8 }, 0)).toBe(0);
  });

  it('once refunded, the fulfilment workflow releases the promo use', () => {
    expect(stepsAfter(purchaseFulfilmentWorkflow, [], refunded as never)).toEqual([{ step: 'refund-promo', purchaseId: 'p1' }]);
  });
});

describe("the course's ledger on a refund", () => {
  const courseId = 'c1';
  const sys = { now, actorId: null, actorRole: 'system' };
  const enrolled: CourseEvent = {
    type: 'CourseEnrolled',
    data: { courseId, studentId: 's1', subjectId: 'math', packageId: 'pkg', purchaseId: 'p1', credits: 4, at },
  };
  const added: CourseEvent = {
    type: 'CourseCreditsAdded',
    data: { courseId, packageId: 'pkg', purchaseId: 'p2', credits: 4, at },
  };
  const sessionEvent = (type: 'CourseCreditReserved' | 'CourseCreditConsumed' | 'CourseCreditReleased', sessionId: string) =>
    ({ type, data: { courseId, sessionId, at } }) as CourseEvent;
  const remove = (purchaseId: string) => ({ type: 'RemovePurchaseCredits' as const, data: { courseId, purchaseId }, metadata: sys });
  const removed = (purchaseId: string, credits: number): CourseEvent => ({
    type: 'CourseCreditsRemoved',
    data: { courseId, purchaseId, credits, at },
  });
  const spec = deciderSpec(courseDecider);

  it("removes only credits no session holds: used and booked ones stay; the oldest purchase's are spent first", () => {
    const oneUsedOneBooked = [
      enrolled,
      sessionEvent('CourseCreditReserved', 'a'),
      sessionEvent('CourseCreditConsumed', 'a'),
      sessionEvent('CourseCreditReserved', 'b'),
    ];
    spec
      .given(oneUsedOneBooked)
      .when(remove('p1'))
      .thenEvents([removed('p1', 2)]);
    const state = fold(courseDecider, [...oneUsedOneBooked, removed('p1', 2)]);
    expect(state.totalSessions - state.reserved.length - state.used.length).toBe(0);
    // A repurchase after every credit was taken: it holds all of the unused ones.
    const all = [
      enrolled,
      ...['a', 'b', 'c', 'd'].map((s) => sessionEvent('CourseCreditReserved', s)),
      added,
      sessionEvent('CourseCreditReserved', 'e'),
    ];
    expect(unusedCreditsOf(fold(courseDecider, all), 'p1')).toBe(0);
    expect(unusedCreditsOf(fold(courseDecider, all), 'p2')).toBe(3);
    // Credits still taken are charged to the oldest purchase: a released one frees the newest purchase's.
    const released = fold(courseDecider, [...all, sessionEvent('CourseCreditReleased', 'a')]);
    expect([unusedCreditsOf(released, 'p1'), unusedCreditsOf(released, 'p2')]).toEqual([0, 4]);
  });

  it('removes once, refuses when nothing is unused or the purchase is not credited yet, and restores on failure', () => {
    spec
      .given([enrolled, removed('p1', 4)])
      .when(remove('p1'))
      .thenNothing();
    const allBooked = ['a', 'b', 'c', 'd'].map((s) => sessionEvent('CourseCreditReserved', s));
    spec
      .given([enrolled, ...allBooked])
      .when(remove('p1'))
      .thenThrows(NOTHING_UNUSED, 'conflict');
    spec.given([enrolled]).when(remove('p2')).thenThrows(PURCHASE_NOT_CREDITED, 'conflict');
    const restore = { type: 'RestorePurchaseCredits' as const, data: { courseId, purchaseId: 'p1' }, metadata: sys };
    spec
      .given([enrolled, removed('p1', 4)])
      .when(restore)
      .thenEvents([{ type: 'CourseCreditsRestored', data: { courseId, purchaseId: 'p1', credits: 4, at } }]);
    spec.given([enrolled]).when(restore).thenNothing();
    // Restored: a later refund may remove them again.
    spec
      .given([enrolled, removed('p1', 4), { type: 'CourseCreditsRestored', data: { courseId, purchaseId: 'p1', credits: 4, at } }])
      .when(remove('p1'))
      .thenEvents([removed('p1', 4)]);
  });
});

describe('the promo use of a refunded purchase', () => {
  const sys = { now, actorId: null, actorRole: 'system' };
  const created: PromoCodeEvent = {
    type: 'PromoCodeCreated',
    data: {
      promoCodeId: 'promo',
      code: 'ONCE',
      description: null,
      discountType: 'percentage',
      discountValue: 1000,
      maxUses: 1,
      validFrom: null,
      validUntil: null,
      isActive: true,
      createdBy: 'admin-1',
      at,
    },
  };
  const claimed: PromoCodeEvent = {
    type: 'PromoUseClaimed',
    data: { promoCodeId: 'promo', claimId: 'p1', userId: 'u1', discountCents: 5_700, expiresAt: '2026-11-23T12:30:00.000Z', at },
  };
  const redeemed: PromoCodeEvent = {
    type: 'PromoCodeRedeemed',
    data: { promoCodeId: 'promo', claimId: 'p1', redemptionId: 'r1', userId: 'u1', purchaseId: 'p1', discountCents: 5_700, at },
  };
  const refund = { type: 'RefundPromoUse' as const, data: { promoCodeId: 'promo', claimId: 'p1', purchaseId: 'p1' }, metadata: sys };
  const spec = deciderSpec(promoCodeDecider);

  it('a partial refund keeps the redemption with the discount of the sessions kept, once; the use still counts', () => {
    const partial = { ...refund, data: { ...refund.data, kept: { credits: 1, of: 4, discountCents: 5_700 } } };
    // 3 of 4 sessions refunded: their share of the discount (floor 4,275) goes, 1,425 stays.
    const reduced: PromoCodeEvent = {
      type: 'PromoRedemptionReduced',
      data: { promoCodeId: 'promo', claimId: 'p1', purchaseId: 'p1', discountCents: 1_425, refundedCents: 4_275, at },
    };
    spec.given([created, claimed, redeemed]).when(partial).thenEvents([reduced]);
    spec.given([created, claimed, redeemed, reduced]).when(partial).thenNothing();
    spec.given([created, claimed, redeemed, reduced]).when(refund).thenNothing();
    // maxUses 1 and its only use kept in part: nobody else may claim it.
    spec
      .given([created, claimed, redeemed, reduced])
      .when({ type: 'ClaimPromoUse', data: { promoCodeId: 'promo', claimId: 'p9', userId: 'u9', priceCents: 57_000 }, metadata: sys })
      .thenThrows(/maximum number of uses/);
    // Nothing kept (every session refunded): as a full refund.
    spec
      .given([created, claimed, redeemed])
      .when({ ...refund, data: { ...refund.data, kept: { credits: 0, of: 4, discountCents: 5_700 } } })
      .thenEvents([{ type: 'PromoUseRefunded', data: { promoCodeId: 'promo', claimId: 'p1', purchaseId: 'p1', wasRedeemed: true, at } }]);
    expect(keptDiscountCents(5_701, { credits: 2, of: 4 })).toBe(2_851);
    expect(keptDiscountCents(5_700, { credits: 4, of: 4 })).toBe(5_700);
  });

  it('cancels the redemption once: the code can be used again, and a late redemption of it changes nothing', () => {
    const refunded: PromoCodeEvent = {
      type: 'PromoUseRefunded',
      data: { promoCodeId: 'promo', claimId: 'p1', purchaseId: 'p1', wasRedeemed: true, at },
    };
    spec.given([created, claimed, redeemed]).when(refund).thenEvents([refunded]);
    spec.given([created, claimed, redeemed, refunded]).when(refund).thenNothing();
    spec
      .given([created, claimed, refunded])
      .when({
        type: 'RedeemPromoCode',
        data: { promoCodeId: 'promo', claimId: 'p1', redemptionId: 'r1', userId: 'u1', purchaseId: 'p1', priceCents: 57_000 },
        metadata: sys,
      })
      .thenNothing();
    // maxUses 1 and its only use refunded: another buyer may claim it.
    spec
      .given([created, claimed, redeemed, refunded])
      .when({ type: 'ClaimPromoUse', data: { promoCodeId: 'promo', claimId: 'p9', userId: 'u9', priceCents: 57_000 }, metadata: sys })
      .thenEvents([
        {
          type: 'PromoUseClaimed',
          data: { promoCodeId: 'promo', claimId: 'p9', userId: 'u9', discountCents: 5_700, expiresAt: '2026-11-23T12:30:00.000Z', at },
        },
      ]);
  });
});
