import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

const promoApplied = z.object({ promoCodeId: z.string(), discountCents: z.number().int() }).nullable();

/** A checkout began: the price the server computed (cents), the slot and the promo use are held. */
export const purchaseStarted = z.object({
  purchaseId: z.string(),
  studentId: z.string(),
  /** The account holder who pays: the student, or their parent. */
  purchasedBy: z.string(),
  packageId: z.string(),
  subjectId: z.string(),
  /** The package's credits. */
  sessionCount: z.number().int(),
  priceCents: z.number().int(),
  promo: promoApplied,
  finalCents: z.number().int(),
  /** null for a free purchase (no provider involved) and for a repurchase paid on a hosted checkout page. */
  paymentIntentId: z.string().nullable(),
  /** `purchase`: a first purchase that creates the course; `repurchase`: more credits for an existing course. */
  kind: z.enum(['purchase', 'repurchase']).default('purchase'),
  /** The course a repurchase credits (null for a first purchase: the fulfilment creates the course). */
  courseId: z.string().nullable().default(null),
  /** The provider's hosted checkout session a repurchase is paid on (null: paid by payment intent, or free). */
  checkoutSessionId: z.string().nullable().default(null),
  at: z.string(),
});
/** The money is in (or nothing was owed): the saga redeems the promo and creates the course. */
export const purchaseCompleted = z.object({
  purchaseId: z.string(),
  /** The provider's intent, or `free`. */
  paymentIntentId: z.string(),
  /** What the fulfilment does: create the course (`purchase`) or add the credits to it (`repurchase`). */
  kind: z.enum(['purchase', 'repurchase']).default('purchase'),
  at: z.string(),
});
export const purchaseFailed = z.object({ purchaseId: z.string(), reason: z.string(), message: z.string(), at: z.string() });
/** Nobody paid within the time allowed. */
export const purchaseAbandoned = z.object({ purchaseId: z.string(), at: z.string() });

export const purchaseEvents = {
  PurchaseStarted: eventType(purchaseStarted, { describe: (d) => `Purchase started (${d.finalCents} cents)` }),
  PurchaseCompleted: eventType(purchaseCompleted, { describe: () => 'Purchase completed' }),
  PurchaseFailed: eventType(purchaseFailed, { describe: (d) => `Purchase failed (${d.reason})` }),
  PurchaseAbandoned: eventType(purchaseAbandoned, { describe: () => 'Purchase abandoned' }),
};

export type PurchaseEvent = EventsOf<typeof purchaseEvents>;
export type PurchaseStartedData = z.output<typeof purchaseStarted>;
export type PurchaseKind = PurchaseStartedData['kind'];

export type PurchaseStatus = 'none' | 'pending' | 'completed' | 'failed' | 'abandoned';

export interface PurchaseState {
  status: PurchaseStatus;
  started: PurchaseStartedData | null;
}

export const initialPurchaseState: PurchaseState = { status: 'none', started: null };

export function evolvePurchase(state: PurchaseState, event: PurchaseEvent): PurchaseState {
  switch (event.type) {
    case 'PurchaseStarted':
      return { status: 'pending', started: event.data };
    case 'PurchaseCompleted':
      return { ...state, status: 'completed' };
    case 'PurchaseFailed':
      return { ...state, status: 'failed' };
    case 'PurchaseAbandoned':
      return { ...state, status: 'abandoned' };
    default:
      return state;
  }
}

export const purchaseStreamId = (purchaseId: string) => `purchase-${purchaseId}`;

/** A checkout not paid within this time is abandoned (its promo use and course slot given back), as long as a promo claim is held. */
export const PAYMENT_WINDOW_MINUTES = 30;

/** The free path's stand-in for a payment intent id. */
export const FREE_PURCHASE = 'free';

/** Package sizes a course may be topped up with (spec part 2 §9). */
export const REPURCHASE_SESSION_COUNTS: readonly number[] = [4, 8, 12];

/**
 * The session id a free repurchase (nothing owed, no hosted checkout) returns to checkout with:
 * `/checkout?repurchase=true&session_id=free_<purchaseId>`, verified like a provider's session.
 */
export const FREE_REPURCHASE_SESSION_PREFIX = 'free_';
