import { int, type RowOf, table, text, timestamptz } from '../kit/table.ts';

/** Purchases (spec part 1 §3 `purchases`): money in cents; status pending, completed, failed, abandoned or refunded. */
export const purchases = table(
  'purchases',
  {
    id: text().primaryKey(),
    student_id: text(),
    purchased_by: text(),
    package_id: text(),
    subject_id: text(),
    session_count: int(),
    price_cents: int(),
    discount_cents: int(),
    final_cents: int(),
    promo_code_id: text().nullable(),
    payment_intent_id: text().nullable(),
    status: text<'pending' | 'completed' | 'failed' | 'abandoned' | 'refunded'>(),
    failure_message: text().nullable(),
    /** The course a repurchase credits (a first purchase's course names its purchase instead). */
    course_id: text().nullable(),
    refunded_cents: int().nullable(),
    refunded_credits: int().nullable(),
    refund_reason: text().nullable(),
    refunded_at: timestamptz().nullable(),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  {
    indexes: [
      { name: 'purchases_student', on: ['student_id'] },
      { name: 'purchases_created', on: ['created_at'] },
    ],
  },
);
export type PurchaseRow = RowOf<typeof purchases>;
