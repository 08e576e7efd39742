import { z } from 'zod';
import { supportedDay } from '../kit/supportedDates.ts';
import { REFUND_REASON_MAX } from './purchase.ts';

/** The console's Purchases tab (issue 12 §2): admins and finance read it, only admins refund. */

export const adminPurchaseStatuses = ['pending', 'completed', 'failed', 'abandoned', 'refunded'] as const;
export type AdminPurchaseStatus = (typeof adminPurchaseStatuses)[number];
export const adminPurchaseStatusLabels: Record<AdminPurchaseStatus, string> = {
  pending: 'Pending',
  completed: 'Completed',
  failed: 'Failed',
  abandoned: 'Abandoned',
  refunded: 'Refunded',
};

export const adminPurchaseSortColumns = ['createdAt', 'amountPaid', 'status', 'buyerName', 'studentName', 'subjectName'] as const;
export const ADMIN_PURCHASES_PAGE_SIZE_MAX = 100;

const day = (label: string) => supportedDay({ format: 'Use a date as yyyy-mm-dd', label });

/** GET /api/admin/purchases: search, filters, sorting and paging done by the server. */
export const adminPurchaseListQuerySchema = z.object({
  /** Buyer, student, subject, package, promo code or purchase id. */
  search: z.string().trim().max(200).optional(),
  status: z.enum(adminPurchaseStatuses).optional(),
  /** Created on or after this day (UTC). */
  from: day('from').optional(),
  /** Created on or before this day (UTC). */
  to: day('to').optional(),
  sort: z.enum(adminPurchaseSortColumns).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(ADMIN_PURCHASES_PAGE_SIZE_MAX).default(25),
});
export type AdminPurchaseListQuery = z.output<typeof adminPurchaseListQuerySchema>;

/** One purchase as the console lists it: money in dollars. */
export const adminPurchaseRowSchema = z.object({
  id: z.string(),
  buyerId: z.string(),
  buyerName: z.string().nullable(),
  studentId: z.string(),
  studentName: z.string().nullable(),
  subjectId: z.string(),
  subjectName: z.string().nullable(),
  packageId: z.string(),
  packageName: z.string().nullable(),
  kind: z.enum(['purchase', 'repurchase']),
  sessionCount: z.number().int(),
  /** What was charged, after the promo code: 0 while pending and for a failed or abandoned checkout. */
  amountPaid: z.number(),
  /** What the checkout asked, after the promo code (whether or not it was paid). */
  amountAsked: z.number(),
  discountAmount: z.number(),
  promoCode: z.string().nullable(),
  status: z.enum(adminPurchaseStatuses),
  createdAt: z.string(),
  /** The course's ledger (shared by its purchases): sessions completed or forfeited, booked (still ahead), and still bookable. */
  sessionsUsed: z.number().int(),
  sessionsBooked: z.number().int(),
  sessionsRemaining: z.number().int(),
  refund: z.object({ amount: z.number(), credits: z.number().int(), reason: z.string(), refundedAt: z.string() }).nullable(),
});
export type AdminPurchaseRow = z.output<typeof adminPurchaseRowSchema>;

export const adminPurchasePageSchema = z.object({
  rows: z.array(adminPurchaseRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminPurchasePage = z.output<typeof adminPurchasePageSchema>;

/** GET /api/admin/purchases/{id}/refund: what a refund would give back now. */
export const refundQuoteSchema = z.object({
  purchaseId: z.string(),
  /** Dollars: the unused sessions' share of what was paid (0 for a free purchase). */
  amount: z.number(),
  credits: z.number().int(),
});
export type RefundQuoteView = z.output<typeof refundQuoteSchema>;

/** POST /api/admin/purchases/{id}/refund: the reason only; the amount and credits are the server's. */
export const refundBodySchema = z.strictObject({
  reason: z
    .string({ error: 'Please give a reason for the refund' })
    .trim()
    .min(1, 'Please give a reason for the refund')
    .max(REFUND_REASON_MAX, `The reason can be at most ${REFUND_REASON_MAX} characters`),
});

export const refundAnswerSchema = z.object({
  purchaseId: z.string(),
  /** Dollars refunded at the provider. */
  amount: z.number(),
  creditsRemoved: z.number().int(),
  purchase: adminPurchaseRowSchema,
});
export type RefundAnswer = z.output<typeof refundAnswerSchema>;
