import { z } from 'zod';

/** Money as the browser sends it: dollars, 2 decimals at most. */
const dollars = z.number().min(0).max(1_000_000);
const id = z.string().min(1).max(100);

/** Spec part 2 §7 `POST /api/create-payment-intent`: the amounts are the browser's idea of the price, checked against the server's. */
export const createPaymentIntentBodySchema = z.object({
  amount: dollars.nullish(),
  packageId: id,
  subjectId: id,
  studentId: id,
  email: z.string().max(320).nullish(),
  promoCodeId: id.nullish(),
  originalAmount: dollars.nullish(),
  discountAmount: dollars.nullish(),
  finalAmount: dollars.nullish(),
});

export const paymentIntentAnswerSchema = z.object({
  /** `free_purchase` when nothing is owed. */
  clientSecret: z.string(),
  paymentIntentId: z.string().nullable(),
  purchaseId: z.string(),
  /** Dollars. */
  amount: z.number(),
  packageName: z.string(),
  sessionCount: z.number().int(),
});

export const confirmPaymentBodySchema = z.object({
  paymentIntentId: z.string().min(1).max(255),
  packageId: id,
  subjectId: id,
  studentId: id,
  amount: dollars.nullish(),
});

export const confirmPaymentAnswerSchema = z.object({
  enrollmentData: z.object({
    purchaseId: z.string(),
    courseId: z.string(),
    studentId: z.string(),
    subjectId: z.string(),
    packageId: z.string(),
  }),
  redirectTo: z.string(),
});

export const purchaseViewSchema = z.object({
  id: z.string(),
  studentId: z.string(),
  subjectId: z.string(),
  packageId: z.string(),
  status: z.enum(['pending', 'completed', 'failed', 'abandoned']),
  sessionCount: z.number().int(),
  sessionsRemaining: z.number().int(),
  totalPrice: z.number(),
  discountAmount: z.number(),
  finalAmount: z.number(),
  promoCodeId: z.string().nullable(),
  createdAt: z.string(),
});
