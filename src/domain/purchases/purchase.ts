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
/**
 * The card that paid, as the receipt names it: the provider's brand name (`visa`, `mastercard`,
 * `amex`, …, `unknown`) and the last 4 digits, never more of the number.
 */
export const paymentCard = z.object({ brand: z.string().regex(/^[a-z_]{1,30}$/), last4: z.string().regex(/^\d{4}$/) });
export type PaymentCardData = z.output<typeof paymentCard>;

/** The money is in (or nothing was owed): the saga redeems the promo and creates the course. */
export const purchaseCompleted = z.object({
  purchaseId: z.string(),
  /** The provider's intent, or `free`. */
  paymentIntentId: z.string(),
  /** What the fulfilment does: create the course (`purchase`) or add the credits to it (`repurchase`). */
  kind: z.enum(['purchase', 'repurchase']).default('purchase'),
  /** The card that paid, where the provider said (null: free, not a card, or not told; events before it have none). */
  card: paymentCard.nullable().optional(),
  at: z.string(),
});
export const purchaseFailed = z.object({ purchaseId: z.string(), reason: z.string(), message: z.string(), at: z.string() });
/** Nobody paid within the time allowed. */
export const purchaseAbandoned = z.object({ purchaseId: z.string(), at: z.string() });

/** Refund reasons an admin gives (issue 12 §2): required, at most this long. */
export const REFUND_REASON_MAX = 500;

/**
 * An admin asked for a refund: the purchase is claimed for it (one refund at a time). `attempt`
 * numbers the tries: the provider's idempotency key derives from it, so a retried or resumed try
 * never refunds twice, and a new try after a failed one is a new refund.
 */
export const purchaseRefundRequested = z.object({
  purchaseId: z.string(),
  attempt: z.number().int(),
  reason: z.string(),
  requestedBy: z.string().nullable(),
  at: z.string(),
});
/** The provider refused or failed: the credits were given back and the purchase can be refunded again. */
export const purchaseRefundFailed = z.object({
  purchaseId: z.string(),
  attempt: z.number().int(),
  code: z.string(),
  message: z.string(),
  at: z.string(),
});
/** The money went back (nothing for a free purchase) and the unused credits left the course. */
export const purchaseRefunded = z.object({
  purchaseId: z.string(),
  attempt: z.number().int(),
  /** What the provider refunded: the unused sessions' share of what was paid. */
  amountCents: z.number().int(),
  creditsRemoved: z.number().int(),
  reason: z.string(),
  /** The provider's refund; null when nothing was paid. */
  refundId: z.string().nullable(),
  refundedBy: z.string().nullable(),
  at: z.string(),
});

/**
 * The provider reported a refunded total while a refund of Topmark's was under way: until that
 * refund is recorded or fails, its own report cannot be told apart from one made elsewhere. When it
 * settles, what the report exceeds is recorded as a refund made at the provider.
 */
export const purchaseProviderRefundReported = z.object({
  purchaseId: z.string(),
  paymentIntentId: z.string(),
  /** Everything refunded on the payment so far, and what was charged, as the provider reports them. */
  amountRefundedCents: z.number().int(),
  amountCents: z.number().int(),
  at: z.string(),
});

/**
 * The payment provider reports more refunded than Topmark refunded: someone refunded in the
 * provider's dashboard, or a refund Topmark gave up on (the provider timed out) went through after
 * all. Recorded and raised as an alert; the family's credits are not touched (an admin decides).
 */
export const purchaseRefundedAtProvider = purchaseProviderRefundReported.extend({
  /** The part of it neither Topmark's own refund nor earlier reports explain. */
  unexplainedCents: z.number().int(),
});

export const purchaseEvents = {
  PurchaseStarted: eventType(purchaseStarted, { describe: (d) => `Purchase started (${d.finalCents} cents)` }),
  PurchaseCompleted: eventType(purchaseCompleted, { describe: () => 'Purchase completed' }),
  PurchaseFailed: eventType(purchaseFailed, { describe: (d) => `Purchase failed (${d.reason})` }),
  PurchaseAbandoned: eventType(purchaseAbandoned, { describe: () => 'Purchase abandoned' }),
  PurchaseRefundRequested: eventType(purchaseRefundRequested, { describe: (d) => `Refund requested (attempt ${d.attempt})` }),
  PurchaseRefundFailed: eventType(purchaseRefundFailed, { describe: (d) => `Refund failed (${d.code})` }),
  PurchaseRefunded: eventType(purchaseRefunded, {
    describe: (d) => `Purchase refunded (${d.amountCents} cents, ${d.creditsRemoved} session(s) removed)`,
  }),
  PurchaseRefundedAtProvider: eventType(purchaseRefundedAtProvider, {
    describe: (d) => `Refund at the payment provider not made in Topmark (${d.unexplainedCents} of ${d.amountCents} cents)`,
  }),
  PurchaseProviderRefundReported: eventType(purchaseProviderRefundReported, {
    describe: (d) => `Payment provider reports ${d.amountRefundedCents} of ${d.amountCents} cents refunded during a refund`,
  }),
};

export type PurchaseEvent = EventsOf<typeof purchaseEvents>;
export type PurchaseStartedData = z.output<typeof purchaseStarted>;
export type PurchaseKind = PurchaseStartedData['kind'];

export type PurchaseStatus = 'none' | 'pending' | 'completed' | 'failed' | 'abandoned' | 'refunded';

/** A refund under way: claimed by one request until it is recorded or fails. */
export interface RefundUnderWay {
  attempt: number;
  reason: string;
  requestedBy: string | null;
  requestedAt: string;
}

export interface PurchaseState {
  status: PurchaseStatus;
  started: PurchaseStartedData | null;
  /** What paid it: the provider's intent, or `free` (set on completion). */
  paidWith: string | null;
  refundAttempts: number;
  refundUnderWay: RefundUnderWay | null;
  refunded: z.output<typeof purchaseRefunded> | null;
  /** What the provider refunded on the payment beyond Topmark's own refunds, as reported so far. */
  externalRefundedCents: number;
  /** The largest total the provider reported while Topmark's refund was under way: judged when it settles. */
  reportedDuringRefund: z.output<typeof purchaseProviderRefundReported> | null;
}

export const initialPurchaseState: PurchaseState = {
  status: 'none',
  started: null,
  paidWith: null,
  refundAttempts: 0,
  refundUnderWay: null,
  refunded: null,
  externalRefundedCents: 0,
  reportedDuringRefund: null,
};

export function evolvePurchase(state: PurchaseState, event: PurchaseEvent): PurchaseState {
  switch (event.type) {
    case 'PurchaseStarted':
      return { ...state, status: 'pending', started: event.data };
    case 'PurchaseCompleted':
      return { ...state, status: 'completed', paidWith: event.data.paymentIntentId };
    case 'PurchaseFailed':
      return { ...state, status: 'failed' };
    case 'PurchaseAbandoned':
      return { ...state, status: 'abandoned' };
    case 'PurchaseRefundRequested': {
      const { attempt, reason, requestedBy, at } = event.data;
      return {
        ...state,
        refundAttempts: Math.max(state.refundAttempts, attempt),
        refundUnderWay: { attempt, reason, requestedBy, requestedAt: at },
      };
    }
    // A refund's outcome judges what was reported while it was under way (its decision records
    // the unexplained part beside it), so the report is done with.
    case 'PurchaseRefundFailed':
      return { ...state, refundUnderWay: null, reportedDuringRefund: null };
    case 'PurchaseRefunded':
      return { ...state, status: 'refunded', refundUnderWay: null, refunded: event.data, reportedDuringRefund: null };
    case 'PurchaseProviderRefundReported':
      return { ...state, reportedDuringRefund: event.data };
    case 'PurchaseRefundedAtProvider':
      return { ...state, externalRefundedCents: state.externalRefundedCents + event.data.unexplainedCents };
    default:
      return state;
  }
}

export const purchaseStreamId = (purchaseId: string) => `purchase-${purchaseId}`;

/** A checkout not paid within this time is abandoned (its promo use and course slot given back), as long as a promo claim is held. */
export const PAYMENT_WINDOW_MINUTES = 30;

/** The free path's stand-in for a payment intent id. */
export const FREE_PURCHASE = 'free';

/**
 * The unused sessions' share of what was paid, in cents, rounded down (a refund never gives back
 * more than was paid for the sessions returned; all of them returned is exactly what was paid).
 */
export function refundShareCents(paid: Pick<PurchaseStartedData, 'finalCents' | 'sessionCount'>, credits: number): number {
  if (paid.sessionCount < 1 || credits < 1) return 0;
  return Math.floor((paid.finalCents * Math.min(credits, paid.sessionCount)) / paid.sessionCount);
}

/** The provider's idempotency key for one refund attempt of a purchase. */
export const refundIdempotencyKey = (purchaseId: string, attempt: number) => `purchase-refund-${purchaseId}-${attempt}`;

/** A refund claimed this long ago and never finished (its process died) may be taken over by another request. */
export const REFUND_TAKEOVER_MINUTES = 5;

/** Package sizes a course may be topped up with (spec part 2 §9). */
export const REPURCHASE_SESSION_COUNTS: readonly number[] = [4, 8, 12];

/**
 * The session id a free repurchase (nothing owed, no hosted checkout) returns to checkout with:
 * `/checkout?repurchase=true&session_id=free_<purchaseId>`, verified like a provider's session.
 */
export const FREE_REPURCHASE_CHECKOUT_SESSION_PREFIX = 'free_';

const CARD_BRANDS: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  interac: 'Interac',
  cartes_bancaires: 'Cartes Bancaires',
  eftpos_au: 'eftpos',
};

/** The card as a receipt says it: "Visa ending 4242" ("Card ending 4242" for a brand the provider did not name). */
export const cardLabel = (card: PaymentCardData): string => `${CARD_BRANDS[card.brand] ?? 'Card'} ending ${card.last4}`;

/** What a provider said of the card, kept only when it is a brand name and exactly 4 digits (nothing else of a number is recorded). */
export function paymentCardOf(card: { brand: string; last4: string } | null | undefined): PaymentCardData | null {
  const parsed = paymentCard.safeParse(card);
  return parsed.success ? parsed.data : null;
}
