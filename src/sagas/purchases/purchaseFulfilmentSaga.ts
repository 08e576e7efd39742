import type { Clock } from '../../adapters/clock/clock.ts';
import type { AccountHandlers } from '../../commands/accounts/accountDeps.ts';
import { confirmEnrollment, releaseEnrollment } from '../../commands/accounts/enrollment.ts';
import { addCourseCredits, type CourseHandlers, courseIdForPurchase, enrollCourse } from '../../commands/courses/courseHandlers.ts';
import { clearRepurchase } from '../../commands/courses/courseRepurchase.ts';
import { deterministicUuid } from '../../commands/kit/commandContext.ts';
import type { PromoCodeHandlers } from '../../commands/promoCodes/promoCodeHandlers.ts';
import { redeemPromoCode, refundPromoUse, releasePromoUse } from '../../commands/promoCodes/promoUses.ts';
import type { PurchaseHandlers } from '../../commands/purchases/purchaseHandlers.ts';
import { type PurchaseFulfilmentStep, purchaseFulfilmentWorkflow } from '../../domain/purchases/purchaseFulfilment.ts';
import type { Projector } from '../../projections/runner/projector.ts';
import { workflowProjector } from '../kit/workflowRunner.ts';

export interface PurchaseFulfilmentDeps {
  purchases: PurchaseHandlers;
  promoCodes: PromoCodeHandlers;
  courses: CourseHandlers;
  students: Pick<AccountHandlers, 'students'>;
  clock: Clock;
}

/** The redemption a completed purchase's promo use becomes: one per purchase. */
export const redemptionIdFor = (purchaseId: string) => deterministicUuid(`redemption/${purchaseId}`);

/**
 * Carries out the fulfilment workflow's steps; the purchase's own stream holds the terms each step
 * needs. Every command is idempotent and its id derives from (workflow, event, step); a failing
 * step fails the event (the runner parks it and raises an alert).
 */
export function purchaseFulfilmentSaga(deps: PurchaseFulfilmentDeps): Projector {
  return workflowProjector(
    purchaseFulfilmentWorkflow,
    async (step: PurchaseFulfilmentStep, ctx) => {
      const { started, refunded } = await deps.purchases.purchases.load(step.purchaseId);
      if (!started) throw new Error(`Purchase ${step.purchaseId} was never started`);
      const { purchaseId, studentId, subjectId, packageId, promo, purchasedBy } = started;
      const courseId = courseIdForPurchase(purchaseId);
      switch (step.step) {
        case 'redeem-promo':
          if (!promo) return;
          return redeemPromoCode(
            deps.promoCodes,
            {
              promoCodeId: promo.promoCodeId,
              claimId: purchaseId,
              userId: purchasedBy,
              priceCents: started.priceCents,
              redemptionId: redemptionIdFor(purchaseId),
              purchaseId,
            },
            ctx,
          );
        case 'create-course':
          return enrollCourse(deps.courses, { courseId, studentId, subjectId, packageId, purchaseId, credits: started.sessionCount }, ctx);
        case 'add-credits':
          if (!started.courseId) throw new Error(`Repurchase ${purchaseId} names no course`);
          return addCourseCredits(deps.courses, { courseId: started.courseId, packageId, purchaseId, credits: started.sessionCount }, ctx);
        case 'confirm-enrollment':
          return confirmEnrollment(deps.students, { studentId, purchaseId, courseId, subjectId }, ctx);
        case 'release-promo':
          if (!promo) return;
          return releasePromoUse(deps.promoCodes, { promoCodeId: promo.promoCodeId, claimId: purchaseId, reason: step.reason }, ctx);
        case 'refund-promo': {
          if (!promo) return;
          // Sessions used or booked were not refunded: the family kept them, and their share of the discount.
          const keptCredits = started.sessionCount - (refunded?.creditsRemoved ?? started.sessionCount);
          const kept = keptCredits > 0 ? { credits: keptCredits, of: started.sessionCount, discountCents: promo.discountCents } : undefined;
          return refundPromoUse(deps.promoCodes, { promoCodeId: promo.promoCodeId, claimId: purchaseId, purchaseId, kept }, ctx);
        }
        case 'release-enrollment':
          return releaseEnrollment(deps.students, { studentId, purchaseId }, ctx);
        case 'clear-repurchase':
          if (started.kind !== 'repurchase' || !started.courseId) return;
          return clearRepurchase(deps.courses, { courseId: started.courseId, purchaseId, outcome: step.outcome }, ctx);
      }
    },
    deps.clock,
  );
}
