import { defineProjection } from '../kit/defineProjection.ts';
import { foldRows } from '../kit/foldRows.ts';
import { purchases } from './tables.ts';

/** Every purchase with its outcome. */
export const purchasesProjector = defineProjection({
  name: 'purchases',
  handles: ['PurchaseStarted', 'PurchaseCompleted', 'PurchaseFailed', 'PurchaseAbandoned', 'PurchaseRefunded'],
  tables: [purchases],
  apply: (tx, events) =>
    foldRows(tx, purchases, events, {
      keyOf: (e) => e.data.purchaseId,
      apply(row, e) {
        switch (e.type) {
          case 'PurchaseStarted': {
            const d = e.data;
            return (
              row ?? {
                id: d.purchaseId,
                student_id: d.studentId,
                purchased_by: d.purchasedBy,
                package_id: d.packageId,
                subject_id: d.subjectId,
                session_count: d.sessionCount,
                price_cents: d.priceCents,
                discount_cents: d.promo?.discountCents ?? 0,
                final_cents: d.finalCents,
                promo_code_id: d.promo?.promoCodeId ?? null,
                payment_intent_id: d.paymentIntentId,
                status: 'pending' as const,
                failure_message: null,
                course_id: d.courseId,
                refunded_cents: null,
                refunded_credits: null,
                refund_reason: null,
                refunded_at: null,
                created_at: d.at,
                updated_at: d.at,
              }
            );
          }
          case 'PurchaseCompleted':
            return row && { ...row, status: 'completed' as const, failure_message: null, updated_at: e.data.at };
          case 'PurchaseFailed':
            return row && { ...row, status: 'failed' as const, failure_message: e.data.message, updated_at: e.data.at };
          case 'PurchaseAbandoned':
            return row && { ...row, status: 'abandoned' as const, updated_at: e.data.at };
          case 'PurchaseRefunded': {
            const d = e.data;
            return (
              row && {
                ...row,
                status: 'refunded' as const,
                refunded_cents: d.amountCents,
                refunded_credits: d.creditsRemoved,
                refund_reason: d.reason,
                refunded_at: d.at,
                updated_at: d.at,
              }
            );
          }
        }
      },
    }),
});
