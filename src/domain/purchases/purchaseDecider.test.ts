import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { GRADE_REQUIRED, GRADE_TIER_NOT_ALLOWED } from '../accounts/studentDecider.ts';
import { stepsAfter } from '../kit/workflow.ts';
import type { PackageTerms } from '../packages/package.ts';
import { packageTermsOf } from '../packages/packageDecider.ts';
import type { GradeLevel } from '../subjects/gradeLevels.ts';
import type { SubjectState } from '../subjects/subject.ts';
import {
  CATALOGUE_MISMATCH,
  type CatalogueFacts,
  PACKAGE_WRONG_LEVEL,
  SUBJECT_NOT_FOUND,
  SUBJECT_NOT_OFFERED,
} from './checkoutCatalogue.ts';
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

const basePrice: Record<GradeLevel, number> = { grade_10_under: 6000, grade_11_12: 7500, university: 9000 };
const frequencyOf = { 4: 'weekly_1', 8: 'weekly_2', 12: 'weekly_3' } as const;
/** A package as the seed defines it (the one pricing policy), for a tier and size. */
const packageOf = (tier: GradeLevel, sessions: 4 | 8 | 12, packageId = 'pkg'): PackageTerms =>
  packageTermsOf({
    packageId,
    gradeTierId: tier,
    gradeTierName: tier,
    basePriceCents: basePrice[tier],
    packageTypeId: frequencyOf[sessions],
  });
const subjectAt = (gradeLevel: GradeLevel, active = true): SubjectState => ({
  entry: { name: 'Math', description: null, category: null, gradeLevel },
  active,
});
/** The catalogue `terms` were priced from: Math at Grade 11-12, the 8-session Grade 11-12 package, 10% off. */
const catalogue: CatalogueFacts = {
  subjectId: 'math',
  subject: subjectAt('grade_11_12'),
  package: packageOf('grade_11_12', 8),
  promo: { promoCodeId: 'promo', terms: { discountType: 'percentage', discountValue: 1000 } },
};
const startPurchase = (t: Omit<PurchaseStartedData, 'at'> = terms, c: CatalogueFacts = catalogue) =>
  cmd('StartPurchase', { terms: t, catalogue: c });
const completed: PurchaseEvent = {
  type: 'PurchaseCompleted',
  data: { purchaseId: 'p1', paymentIntentId: 'pi_1', kind: 'purchase', card: null, at },
};
const failed: PurchaseEvent = {
  type: 'PurchaseFailed',
  data: { purchaseId: 'p1', reason: 'card_declined', message: 'Your card was declined.', at },
};

const cmd = <T extends PurchaseCommand['type']>(type: T, data: Extract<PurchaseCommand, { type: T }>['data']) =>
  ({ type, data, metadata }) as PurchaseCommand;

describe('purchase', () => {
  it('starts pending with the catalogue price', () => spec.given([]).when(startPurchase()).thenEvents([started]));
  it('starting again with the same terms changes nothing (whatever the catalogue says now); other terms are refused', () => {
    spec.given([started]).when(startPurchase()).thenNothing();
    spec
      .given([started])
      .when(startPurchase(terms, { ...catalogue, subject: subjectAt('grade_11_12', false) }))
      .thenNothing();
    spec
      .given([started])
      .when(startPurchase({ ...terms, finalCents: 1 }))
      .thenThrows(PURCHASE_EXISTS, 'conflict');
  });
  it('refuses an unknown or deactivated subject, an unknown package, and a package of another level', () => {
    spec
      .given([])
      .when(startPurchase(terms, { ...catalogue, subject: { entry: null, active: false } }))
      .thenThrows(SUBJECT_NOT_FOUND, 'not_found');
    spec
      .given([])
      .when(startPurchase(terms, { ...catalogue, subject: subjectAt('grade_11_12', false) }))
      .thenThrows(SUBJECT_NOT_OFFERED, 'conflict');
    spec
      .given([])
      .when(startPurchase(terms, { ...catalogue, package: null }))
      .thenThrows('Package not found', 'not_found');
    spec
      .given([])
      .when(startPurchase(terms, { ...catalogue, subject: subjectAt('university') }))
      .thenThrows(PACKAGE_WRONG_LEVEL, 'invalid');
  });
  it('refuses terms that are not the catalogue’s: price, discount, final amount, sessions, package, subject, code', () => {
    for (const forged of [
      { priceCents: 30_000 },
      { finalCents: 100 },
      { promo: { promoCodeId: 'promo', discountCents: 57_000 } },
      { promo: null, finalCents: 57_000 },
      { promo: { promoCodeId: 'other', discountCents: 5_700 } },
      { sessionCount: 12 },
      { packageId: 'other-pkg' },
      { subjectId: 'calculus' },
    ])
      spec
        .given([])
        .when(startPurchase({ ...terms, ...forged }))
        .thenThrows(CATALOGUE_MISMATCH, 'conflict');
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
      .thenEvents([{ type: 'PurchaseCompleted', data: { purchaseId: 'p1', paymentIntentId: 'free', kind: 'purchase', card: null, at } }]);
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
    // The 4-session Grade 11-12 package ($300), no code.
    priceCents: 30_000,
    promo: null,
    finalCents: 30_000,
    kind: 'repurchase',
    courseId: 'c1',
    checkoutSessionId: 'cs_1',
    paymentIntentId: null,
  };
  const usedUp: RepurchaseFacts = {
    course: { exists: true, studentId: 's1', subjectId: 'math', status: 'active', sessionsRemaining: 0 },
    catalogue: { ...catalogue, package: packageOf('grade_11_12', 4), promo: null },
    studentGrade: 'Grade 11',
  };
  const restarted: PurchaseEvent = { type: 'PurchaseStarted', data: { ...reterms, at } };
  const repurchase = (
    t: Partial<Omit<PurchaseStartedData, 'at'>> = {},
    f: Partial<RepurchaseFacts['course']> = {},
    tier: GradeLevel = 'grade_11_12',
    more: Partial<RepurchaseFacts> = {},
  ) => {
    const sessions = (t.sessionCount ?? 4) as 4 | 8 | 12;
    const pkg = frequencyOf[sessions] ? packageOf(tier, sessions) : packageOf(tier, 4);
    const priced = { priceCents: pkg.totalPriceCents, finalCents: pkg.totalPriceCents };
    return cmd('StartRepurchase', {
      terms: { ...reterms, ...priced, ...t },
      ...usedUp,
      course: { ...usedUp.course, ...f },
      catalogue: { ...usedUp.catalogue, package: pkg },
      ...more,
    });
  };

  it('starts for a course with no sessions remaining, a 4, 8 or 12-session package of its tier', () => {
    spec.given([]).when(repurchase()).thenEvents([restarted]);
    for (const sessionCount of [8, 12] as const)
      spec
        .given([])
        .when(repurchase({ sessionCount }))
        .thenEvents([
          {
            type: 'PurchaseStarted',
            data: {
              ...reterms,
              sessionCount,
              priceCents: packageOf('grade_11_12', sessionCount).totalPriceCents,
              finalCents: packageOf('grade_11_12', sessionCount).totalPriceCents,
              at,
            },
          },
        ]);
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
      .when(repurchase({}, {}, 'university'))
      .thenThrows(REPURCHASE_WRONG_TIER, 'invalid');
  });
  it('follows the catalogue: the subject offered, the student’s grade allowing the tier, the catalogue’s price', () => {
    spec
      .given([])
      .when(repurchase({}, {}, 'grade_11_12', { catalogue: { ...usedUp.catalogue, subject: subjectAt('grade_11_12', false) } }))
      .thenThrows(SUBJECT_NOT_OFFERED, 'conflict');
    spec
      .given([])
      .when(repurchase({}, {}, 'grade_11_12', { catalogue: { ...usedUp.catalogue, subject: { entry: null, active: false } } }))
      .thenThrows(SUBJECT_NOT_FOUND, 'not_found');
    spec
      .given([])
      .when(repurchase({}, {}, 'grade_11_12', { studentGrade: 'University/College' }))
      .thenThrows(GRADE_TIER_NOT_ALLOWED, 'invalid');
    spec
      .given([])
      .when(repurchase({}, {}, 'grade_11_12', { studentGrade: null }))
      .thenThrows(GRADE_REQUIRED, 'unprocessable');
    spec
      .given([])
      .when(repurchase({ finalCents: 100 }))
      .thenThrows(CATALOGUE_MISMATCH, 'conflict');
    spec
      .given([])
      .when(repurchase({ subjectId: 'calculus' }))
      .thenThrows(REPURCHASE_TERMS, 'invalid');
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
    spec.given([]).when(startPurchase(reterms)).thenThrows(REPURCHASE_TERMS, 'invalid');
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
    const done: PurchaseEvent = {
      type: 'PurchaseCompleted',
      data: { purchaseId: 'r1', paymentIntentId: 'pi_9', kind: 'repurchase', card: null, at },
    };
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
      .thenEvents([{ type: 'PurchaseCompleted', data: { purchaseId: 'r1', paymentIntentId: 'free', kind: 'repurchase', card: null, at } }]);
  });
  it('completed: the credits go to the course, then the promo is redeemed; abandoned: the promo use is given back', () => {
    const done = { type: 'PurchaseCompleted', data: { purchaseId: 'r1', paymentIntentId: 'pi_9', kind: 'repurchase', card: null, at } };
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
