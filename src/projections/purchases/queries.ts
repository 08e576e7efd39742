import type { Sql } from '../../adapters/db/db.ts';
import type { ReadRowOf } from '../kit/table.ts';
import type { purchases } from './tables.ts';

/** A purchase as the student's pages show it (spec part 2 §3 "Purchase"), money in dollars. */
export interface PurchaseView {
  id: string;
  studentId: string;
  subjectId: string;
  packageId: string;
  status: 'pending' | 'completed' | 'failed' | 'abandoned';
  /** The package's sessions bought. */
  sessionCount: number;
  /** What the course's credit ledger has left (the courses read model); 0 while no course exists. */
  sessionsRemaining: number;
  totalPrice: number;
  discountAmount: number;
  finalAmount: number;
  promoCodeId: string | null;
  createdAt: string;
}

type Row = ReadRowOf<typeof purchases> & { course_sessions_remaining?: number | null };

const view = (r: Row): PurchaseView => ({
  id: r.id,
  studentId: r.student_id,
  subjectId: r.subject_id,
  packageId: r.package_id,
  status: r.status,
  sessionCount: r.session_count,
  sessionsRemaining: r.course_sessions_remaining ?? 0,
  totalPrice: r.price_cents / 100,
  discountAmount: r.discount_cents / 100,
  finalAmount: r.final_cents / 100,
  promoCodeId: r.promo_code_id,
  createdAt: r.created_at.toISOString(),
});

/** A student's purchases, newest first. */
export async function purchasesOfStudent(sql: Sql, studentId: string): Promise<PurchaseView[]> {
  // The course a purchase created lives in the courses read model (`student_courses`, by purchase).
  const rows = await sql<Row[]>`
    SELECT p.*, c.sessions_remaining AS course_sessions_remaining
    FROM purchases p LEFT JOIN student_courses c ON c.purchase_id = p.id
    WHERE p.student_id = ${studentId} ORDER BY p.created_at DESC, p.id`;
  return rows.map(view);
}

export async function findPurchase(sql: Sql, purchaseId: string): Promise<PurchaseView | null> {
  const [row] = await sql<Row[]>`SELECT * FROM purchases WHERE id = ${purchaseId}`;
  return row ? view(row) : null;
}

/** Checkouts still waiting for their payment that started before `startedBefore`, oldest first. */
export async function stalePendingPurchases(
  sql: Sql,
  startedBefore: Date,
  limit = 100,
): Promise<{ purchaseId: string; paymentIntentId: string | null }[]> {
  const rows = await sql<{ id: string; payment_intent_id: string | null }[]>`
    SELECT id, payment_intent_id FROM purchases
    WHERE status = 'pending' AND created_at < ${startedBefore.toISOString()}
    ORDER BY created_at, id LIMIT ${limit}`;
  return rows.map((r) => ({ purchaseId: r.id, paymentIntentId: r.payment_intent_id }));
}

/**
 * Whether a payment for the student's subject is still awaited. With the subject's course open (the
 * enrolment rules allow no second first purchase), that is a repurchase of the course being paid.
 */
export async function hasPendingPurchase(sql: Sql, studentId: string, subjectId: string): Promise<boolean> {
  const rows = await sql`
    SELECT 1 FROM purchases WHERE student_id = ${studentId} AND subject_id = ${subjectId} AND status = 'pending' LIMIT 1`;
  return rows.length > 0;
}
