import type { Sql } from '../../adapters/db/db.ts';
import type { AdminPurchaseListQuery, AdminPurchasePage, AdminPurchaseRow } from '../../domain/purchases/adminPurchaseApi.ts';
import type { ReadRowOf } from '../kit/table.ts';
import type { purchases } from './tables.ts';

/** A purchase as the student's pages show it (spec part 2 §3 "Purchase"), money in dollars. */
export interface PurchaseView {
  id: string;
  studentId: string;
  subjectId: string;
  packageId: string;
  status: 'pending' | 'completed' | 'failed' | 'abandoned' | 'refunded';
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

/** The console's order keys (adminPurchaseApi's sort keys) as SQL. */
const ADMIN_ORDER_BY: Record<AdminPurchaseListQuery['sort'], string> = {
  createdAt: 'p.created_at',
  amountPaid: "CASE WHEN p.status IN ('completed', 'refunded') THEN p.final_cents ELSE 0 END",
  status: 'p.status',
  buyerName: "lower(coalesce(u.first_name || ' ' || u.last_name, ''))",
  studentName: "lower(coalesce(s.first_name || ' ' || s.last_name, ''))",
  subjectName: "lower(coalesce(sub.name, ''))",
};

interface AdminRow {
  id: string;
  purchased_by: string;
  buyer_name: string | null;
  student_id: string;
  student_name: string | null;
  subject_id: string;
  subject_name: string | null;
  package_id: string;
  package_name: string | null;
  course_id: string | null;
  session_count: number;
  final_cents: number;
  discount_cents: number;
  promo_code: string | null;
  status: AdminPurchaseRow['status'];
  created_at: Date;
  used_sessions: number | null;
  reserved_sessions: number | null;
  sessions_remaining: number | null;
  refunded_cents: number | null;
  refunded_credits: number | null;
  refund_reason: string | null;
  refunded_at: Date | null;
}

const adminView = (r: AdminRow): AdminPurchaseRow => ({
  id: r.id,
  buyerId: r.purchased_by,
  buyerName: r.buyer_name,
  studentId: r.student_id,
  studentName: r.student_name,
  subjectId: r.subject_id,
  subjectName: r.subject_name,
  packageId: r.package_id,
  packageName: r.package_name,
  kind: r.course_id ? 'repurchase' : 'purchase',
  sessionCount: r.session_count,
  // Only a completed (or since refunded) payment charged anything: a failed, abandoned or pending
  // checkout shows what it asked, never as paid.
  amountPaid: r.status === 'completed' || r.status === 'refunded' ? r.final_cents / 100 : 0,
  amountAsked: r.final_cents / 100,
  discountAmount: r.discount_cents / 100,
  promoCode: r.promo_code,
  status: r.status,
  createdAt: r.created_at.toISOString(),
  sessionsUsed: r.used_sessions ?? 0,
  sessionsBooked: r.reserved_sessions ?? 0,
  sessionsRemaining: r.sessions_remaining ?? 0,
  refund:
    r.status === 'refunded' && r.refunded_at
      ? {
          amount: (r.refunded_cents ?? 0) / 100,
          credits: r.refunded_credits ?? 0,
          reason: r.refund_reason ?? '',
          refundedAt: r.refunded_at.toISOString(),
        }
      : null,
});

/** `%`, `_` and `\` are literal in a search. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function adminPurchasesFrom(sql: Sql) {
  // The course's ledger: a repurchase names its course, a first purchase's course names the purchase.
  return sql`
    FROM purchases p
    LEFT JOIN users u ON u.id = p.purchased_by
    LEFT JOIN students s ON s.id = p.student_id
    LEFT JOIN subjects sub ON sub.id = p.subject_id
    LEFT JOIN packages pkg ON pkg.id = p.package_id
    LEFT JOIN promo_codes pc ON pc.id = p.promo_code_id
    LEFT JOIN student_courses c ON c.id = p.course_id OR (p.course_id IS NULL AND c.purchase_id = p.id)`;
}

const adminColumns = (sql: Sql) => sql`
  p.id, p.purchased_by, u.first_name || ' ' || u.last_name AS buyer_name, p.student_id,
  s.first_name || ' ' || s.last_name AS student_name, p.subject_id, sub.name AS subject_name, p.package_id,
  pkg.name AS package_name, p.course_id, p.session_count, p.final_cents, p.discount_cents, pc.code AS promo_code,
  p.status, p.created_at, c.used_sessions, c.reserved_sessions, c.sessions_remaining, p.refunded_cents, p.refunded_credits,
  p.refund_reason, p.refunded_at`;

/** One page of every purchase for the console, searched, filtered and sorted here. */
export async function listAdminPurchases(sql: Sql, query: AdminPurchaseListQuery): Promise<AdminPurchasePage> {
  const search = query.search ? likePattern(query.search) : null;
  const where = sql`
    WHERE (${query.status ?? null}::text IS NULL OR p.status = ${query.status ?? null})
      AND (${query.from ?? null}::date IS NULL OR p.created_at >= ${query.from ?? null}::date)
      AND (${query.to ?? null}::date IS NULL OR p.created_at < ${query.to ?? null}::date + 1)
      AND (${search}::text IS NULL
        OR u.first_name || ' ' || u.last_name ILIKE ${search} OR s.first_name || ' ' || s.last_name ILIKE ${search}
        OR sub.name ILIKE ${search} OR pkg.name ILIKE ${search} OR pc.code ILIKE ${search} OR p.id ILIKE ${search})`;
  const direction = query.order === 'asc' ? sql`ASC` : sql`DESC`;
  const rows = await sql<AdminRow[]>`
    SELECT ${adminColumns(sql)} ${adminPurchasesFrom(sql)} ${where}
    ORDER BY ${sql.unsafe(ADMIN_ORDER_BY[query.sort])} ${direction}, p.created_at DESC, p.id
    LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`;
  const [count] = await sql<{ n: string }[]>`SELECT count(*) AS n ${adminPurchasesFrom(sql)} ${where}`;
  return { rows: rows.map(adminView), total: Number(count?.n ?? 0), page: query.page, pageSize: query.pageSize };
}

export async function findAdminPurchase(sql: Sql, purchaseId: string): Promise<AdminPurchaseRow | null> {
  const [row] = await sql<AdminRow[]>`SELECT ${adminColumns(sql)} ${adminPurchasesFrom(sql)} WHERE p.id = ${purchaseId}`;
  return row ? adminView(row) : null;
}
