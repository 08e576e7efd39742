import { packageSchema, subjectWithTutorsSchema } from '@shared/packages/packageApi.ts';
import { promoValidationSchema } from '@shared/promoCodes/promoCodeApi.ts';
import {
  confirmPaymentAnswerSchema,
  paymentIntentAnswerSchema,
  paymentsConfigSchema,
  purchaseViewSchema,
  repurchaseAnswerSchema,
  repurchaseCancelAnswerSchema,
  repurchaseVerifyAnswerSchema,
  type SandboxCheckout,
  sandboxCheckoutResultSchema,
  sandboxCheckoutSchema,
} from '@shared/purchases/purchaseApi.ts';
import { subjectSchema } from '@shared/subjects/subjectApi.ts';
import { tutorListEntrySchema } from '@shared/tutors/tutorApi.ts';
import { z } from 'zod';
import { api, jsonQuery } from '../../app/api.ts';

export type { SandboxCheckout };

export interface RepurchaseBody {
  packageId: string;
  email: string;
  promoCodeId: string | null;
  originalAmount: number;
  discountAmount: number;
  finalAmount: number;
}

const enc = encodeURIComponent;

const sandboxCardAnswerSchema = z.object({
  status: z.enum(['succeeded', 'requires_payment_method', 'requires_action']),
  message: z.string().optional(),
});
export type SandboxCardAnswer = z.output<typeof sandboxCardAnswerSchema>;

export interface PaymentIntentBody {
  amount: number;
  packageId: string;
  subjectId: string;
  studentId: string;
  email?: string | null;
  promoCodeId?: string;
  originalAmount?: number;
  discountAmount?: number;
  finalAmount?: number;
}

/** A fresh key per attempt: a retried request is answered once (the server's Idempotency-Key). */
const idempotencyKey = () => ({ headers: { 'Idempotency-Key': crypto.randomUUID() } });

/**
 * Checkout, repurchase and tutor choice (spec part 2 §7 "Student, checkout and enrollment"); the course calls are the
 * courses feature's (`../courses/api.ts`). Schemas from `@shared/…`.
 */
export const purchasesApi = {
  packagesKey: ['/api/packages'] as const,
  packages: jsonQuery('/api/packages', z.array(packageSchema)),
  subjectsKey: ['/api/subjects'] as const,
  subjects: jsonQuery('/api/subjects', z.array(subjectSchema)),
  /** The subjects on sale: those at least one listed tutor teaches (issue 24: nothing is sold that no one can teach). */
  subjectsWithTutorsKey: ['/api/subjects/with-tutors'] as const,
  subjectsWithTutors: jsonQuery('/api/subjects/with-tutors', z.array(subjectWithTutorsSchema)),
  purchasesKey: (studentId: string) => ['/api/student', studentId, 'purchases'] as const,
  purchases: (studentId: string) => api.get(`/api/student/${enc(studentId)}/purchases`, z.array(purchaseViewSchema)),
  tutorsKey: (subjectId: string) => ['/api/tutors', { subjectId }] as const,
  tutors: (subjectId: string) => api.get(`/api/tutors?subjectId=${enc(subjectId)}`, z.array(tutorListEntrySchema)),

  validatePromo: (body: { code: string; packageId: string; userId: string }) =>
    api.send('POST', '/api/promo-codes/validate', body, promoValidationSchema),
  createPaymentIntent: (body: PaymentIntentBody) =>
    api.send('POST', '/api/create-payment-intent', body, paymentIntentAnswerSchema, idempotencyKey()),
  /** Which card form to show: Stripe's Payment Element (with its publishable key) or the sandbox's. */
  paymentsConfigKey: ['/api/payments/config'] as const,
  paymentsConfig: jsonQuery('/api/payments/config', paymentsConfigSchema),
  sandboxConfirm: (paymentIntentId: string, cardNumber: string) =>
    api.send('POST', `/api/sandbox/payments/${enc(paymentIntentId)}/confirm`, { cardNumber }, sandboxCardAnswerSchema),
  /** The sandbox's 3-D Secure step: the buyer approves or fails the check their bank asked for. */
  sandboxAuthenticate: (paymentIntentId: string, approve: boolean) =>
    api.send('POST', `/api/sandbox/payments/${enc(paymentIntentId)}/authenticate`, { approve }, sandboxCardAnswerSchema),
  confirmPayment: (body: { paymentIntentId: string; packageId: string; subjectId: string; studentId: string; amount: number }) =>
    api.send('POST', '/api/confirm-payment', body, confirmPaymentAnswerSchema),
  /** More sessions for a used-up course: the answer's checkoutUrl is where to pay (or, free, the checkout's return). */
  repurchase: (studentId: string, courseId: string, body: RepurchaseBody) =>
    api.send('POST', `/api/student/${enc(studentId)}/courses/${enc(courseId)}/repurchase`, body, repurchaseAnswerSchema, idempotencyKey()),
  /** The hosted checkout's cancel URL: give the repurchase up (its session expired, its promo use back). */
  cancelRepurchase: (purchaseId: string) => api.send('POST', `/api/repurchase/${enc(purchaseId)}/cancel`, {}, repurchaseCancelAnswerSchema),
  verifyRepurchase: (sessionId: string) => api.get(`/api/repurchase/verify/${enc(sessionId)}`, repurchaseVerifyAnswerSchema),

  /** The sandbox's hosted checkout page (`/sandbox/checkout/{id}`). */
  sandboxCheckoutKey: (sessionId: string) => ['/api/sandbox/checkout-sessions', sessionId] as const,
  sandboxCheckout: (sessionId: string) => api.get(`/api/sandbox/checkout-sessions/${enc(sessionId)}`, sandboxCheckoutSchema),
  sandboxCheckoutPay: (sessionId: string, cardNumber: string) =>
    api.send('POST', `/api/sandbox/checkout-sessions/${enc(sessionId)}/pay`, { cardNumber }, sandboxCheckoutResultSchema),
  sandboxCheckoutAuthenticate: (sessionId: string, approve: boolean) =>
    api.send('POST', `/api/sandbox/checkout-sessions/${enc(sessionId)}/authenticate`, { approve }, sandboxCheckoutResultSchema),
};
