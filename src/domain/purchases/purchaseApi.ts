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

/**
 * GET /api/payments/config: which card form checkout shows. Stripe's Payment Element needs the
 * publishable key (public by design); the sandbox has its own form and no key.
 */
export const paymentsConfigSchema = z.object({
  provider: z.enum(['stripe', 'sandbox']),
  publishableKey: z.string().nullable(),
});
export type PaymentsConfig = z.output<typeof paymentsConfigSchema>;

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
  status: z.enum(['pending', 'completed', 'failed', 'abandoned', 'refunded']),
  sessionCount: z.number().int(),
  sessionsRemaining: z.number().int(),
  totalPrice: z.number(),
  discountAmount: z.number(),
  finalAmount: z.number(),
  promoCodeId: z.string().nullable(),
  createdAt: z.string(),
});

/**
 * Spec part 2 §7 `POST /api/student/{studentId}/courses/{courseId}/repurchase`. The amounts are the
 * browser's idea of the price, checked against the server's as at checkout; the e-mail is
 * optional (a valid address or empty, §5).
 */
export const repurchaseBodySchema = z.object({
  packageId: id,
  email: z.union([z.literal(''), z.email().max(320)]).nullish(),
  promoCodeId: id.nullish(),
  originalAmount: dollars.nullish(),
  discountAmount: dollars.nullish(),
  finalAmount: dollars.nullish(),
});

export const repurchaseAnswerSchema = z.object({
  /**
   * Where the browser goes to pay: the provider's hosted checkout page (Stripe Checkout, or the
   * sandbox's `/sandbox/checkout/{id}`); for a free repurchase (nothing owed) straight back to
   * `/checkout?repurchase=true&session_id=free_<purchaseId>`.
   */
  checkoutUrl: z.string(),
  purchaseId: z.string(),
});

/** `POST /api/repurchase/{purchaseId}/cancel` (the hosted checkout's cancel URL): whether the repurchase was given up. */
export const repurchaseCancelAnswerSchema = z.object({ cancelled: z.boolean() });

/** `GET /api/repurchase/verify/{sessionId}`: whether the course has the repurchase's credits. */
export const repurchaseVerifyAnswerSchema = z.object({ processed: z.boolean() });

/** The sandbox's hosted checkout page (`/sandbox/checkout/{id}`): the order and where Pay and Cancel lead. */
export const sandboxCheckoutSchema = z.object({
  id: z.string(),
  description: z.string(),
  /** Dollars. */
  amount: z.number(),
  currency: z.literal('CAD'),
  status: z.enum(['open', 'complete', 'expired']),
  requiresAction: z.boolean(),
  successUrl: z.string(),
  cancelUrl: z.string(),
});
export type SandboxCheckout = z.output<typeof sandboxCheckoutSchema>;

export const sandboxCheckoutResultSchema = z.object({
  status: z.enum(['succeeded', 'requires_payment_method', 'requires_action']),
  message: z.string().optional(),
  /** Where the page sends the customer once paid. */
  redirectTo: z.string().optional(),
});
