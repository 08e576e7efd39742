/**
 * Taking money, as checkout, repurchase and the payment saga use it. Two adapters: Stripe
 * (`stripe/stripePayments.ts`, used when STRIPE_SECRET_KEY is set) and the sandbox provider kept in
 * PostgreSQL (`sandbox/sandboxPayments.ts`, the embedded default, refused in production). Both pass
 * `payments.contract.ts`.
 *
 * Money is integer cents; the currency is always `cad`. Every create takes the caller's idempotency
 * key (derive it from the command: a retried request must create nothing twice): the same key with
 * the same parameters answers the object made the first time, the same key with other parameters
 * is refused (`invalid_request`, as Stripe answers 400 `idempotency_error`).
 *
 * What the provider did (a payment succeeded, failed, a checkout completed, a refund) arrives as a
 * `PaymentEvent`: Stripe POSTs signed webhooks that the webhook route gives to `parseWebhook`; the
 * sandbox records the same events in its outbox (see `SandboxPayments.pendingEvents`). Handle them
 * idempotently by `eventId`: providers deliver at least once.
 */

export type Currency = 'cad';

/** As Stripe names them (`requires_confirmation` reads as `requires_payment_method`, `requires_capture` as `processing`). */
export type PaymentIntentStatus = 'requires_payment_method' | 'requires_action' | 'processing' | 'succeeded' | 'canceled';

export interface PaymentIntent {
  id: string;
  /** What the browser confirms with (Stripe.js, or the sandbox card form). Never log it. */
  clientSecret: string;
  status: PaymentIntentStatus;
  amountCents: number;
  currency: Currency;
  description: string | null;
  metadata: Record<string, string>;
  /** Why the last attempt failed (a decline), cleared by a later success. */
  lastPaymentError: { code: string | null; message: string } | null;
  /** Unix seconds. */
  created: number;
  /**
   * The card that paid a succeeded intent, as the provider reports it (Stripe: the latest charge's
   * `payment_method_details.card`, present where the charge is expanded, as `retrievePaymentIntent`
   * does; the sandbox: the card its form took). Brand and last 4 digits only, never more; null when
   * the provider does not say (a webhook's unexpanded charge, another payment method, not paid).
   */
  card: PaymentCard | null;
}

/** What a receipt may say of a card: Stripe's brand name (`visa`, `mastercard`, `amex`, …, `unknown`) and the last 4 digits. */
export interface PaymentCard {
  brand: string;
  last4: string;
}

export interface CreatePaymentIntentInput {
  amountCents: number;
  currency: Currency;
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
  customerEmail?: string;
}

export interface CheckoutSession {
  id: string;
  /** The hosted page the customer pays on (Stripe Checkout, or the sandbox's `/sandbox/checkout/{id}`). */
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid';
  paymentIntentId: string | null;
  amountCents: number;
  metadata: Record<string, string>;
}

export interface CreateCheckoutSessionInput extends CreatePaymentIntentInput {
  /** Where the provider sends the customer after paying; `{CHECKOUT_SESSION_ID}` is replaced by the session's id. */
  successUrl: string;
  cancelUrl: string;
  /**
   * When the session stops taking payments (Unix seconds; Stripe accepts 30 minutes to 24 hours
   * ahead, its default being 24 hours). After it the session reads `expired`.
   */
  expiresAt?: number;
}

export interface Refund {
  id: string;
  paymentIntentId: string;
  amountCents: number;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
}

export interface RefundInput {
  paymentIntentId: string;
  /** Default: whatever has not been refunded yet. */
  amountCents?: number;
  idempotencyKey: string;
}

interface EventBase {
  /** The provider's event id (`evt_…`): deliveries repeat, handle each id once. */
  eventId: string;
  /** Unix seconds. */
  created: number;
}

export type PaymentEvent =
  | (EventBase & { type: 'payment_intent.succeeded'; paymentIntent: PaymentIntent })
  | (EventBase & {
      type: 'payment_intent.payment_failed';
      paymentIntent: PaymentIntent;
      /** The provider's decline message ("Your card was declined."), shown to the customer. */
      failureMessage: string;
      failureCode: string | null;
    })
  /**
   * The customer finished a hosted checkout. Credit only a session whose `paymentStatus` is `paid`,
   * once per session id: a delayed payment method completes `unpaid` and arrives again paid
   * (Stripe's `checkout.session.async_payment_succeeded`, another event id).
   */
  | (EventBase & { type: 'checkout.session.completed'; session: CheckoutSession })
  | (EventBase & {
      type: 'charge.refunded';
      paymentIntentId: string;
      /** The whole amount refunded so far, and what was charged. */
      amountRefundedCents: number;
      amountCents: number;
    })
  /** Any other event the provider sends: acknowledge it and do nothing. */
  | (EventBase & { type: 'other'; providerType: string });

export interface PaymentPort {
  readonly kind: 'stripe' | 'sandbox';
  /** What the browser needs for Stripe Elements; null for the sandbox (its own card form). */
  readonly publishableKey: string | null;

  createPaymentIntent(input: CreatePaymentIntentInput): Promise<PaymentIntent>;
  /** `not_found` for an unknown id. */
  retrievePaymentIntent(id: string): Promise<PaymentIntent>;
  /**
   * Confirms on the server with a payment method id (a saved card, or Stripe's test methods
   * `pm_card_visa`, `pm_card_chargeDeclined`, `pm_card_authenticationRequired`, which the sandbox
   * understands too). Browsers confirm with the client secret instead. A decline throws
   * `card_declined` with the provider's message (the intent goes back to `requires_payment_method`);
   * a card asking for authentication answers the intent in `requires_action`.
   */
  confirmPaymentIntent(id: string, input: { paymentMethod: string; idempotencyKey?: string }): Promise<PaymentIntent>;
  /** Abandoned checkout. `invalid_request` once it succeeded; cancelling twice answers the canceled intent. */
  cancelPaymentIntent(id: string): Promise<PaymentIntent>;

  createCheckoutSession(input: CreateCheckoutSessionInput): Promise<{ id: string; url: string }>;
  retrieveCheckoutSession(id: string): Promise<CheckoutSession>;
  /**
   * The customer gave up (or the payment window closed): an open session takes no more payments and
   * reads `expired`. Answers the session as it is afterwards: a session paid meanwhile stays
   * `complete` (the caller completes instead), expiring twice is fine. `not_found` for an unknown id.
   */
  expireCheckoutSession(id: string): Promise<CheckoutSession>;

  /** `invalid_request` when the intent has not succeeded or the amount is more than is left to refund. */
  refund(input: RefundInput): Promise<Refund>;

  /**
   * A webhook delivery: the RAW request body (never re-serialised JSON: the signature covers the
   * bytes) and its signature header (`Stripe-Signature`). Throws `invalid_signature` for a missing,
   * wrong or too old signature.
   */
  parseWebhook(rawBody: Buffer | string, signatureHeader: string | undefined): PaymentEvent;

  /** Only the sandbox: what its card form and hosted checkout page call (routes refuse when absent). */
  readonly sandbox?: SandboxPaymentControls;
  /** Only providers that do not POST webhooks (the sandbox): their events, to consume as webhooks. */
  readonly outbox?: PaymentEventOutbox;
}

/** What the sandbox card form answers (`POST /api/sandbox/payments/{id}/confirm`). */
export interface CardResult {
  status: 'succeeded' | 'requires_payment_method' | 'requires_action';
  /** Why the card was declined, for the card form. */
  message?: string;
}

export interface SandboxPaymentControls {
  /**
   * The card form: Stripe's test cards (spaces ignored). A decline leaves the intent waiting for
   * another card; a paid intent answers `succeeded` again (two confirms at once: one pays, the
   * other sees it paid). `not_found`, or `invalid_request` for a canceled intent.
   */
  confirmWithCard(paymentIntentId: string, cardNumber: string): Promise<CardResult>;
  /** The customer's answer to the 3-D Secure challenge of an intent in `requires_action`. */
  completeAuthentication(paymentIntentId: string, approve: boolean): Promise<CardResult>;
  /** The hosted checkout page's card form; the checkout session completes when its payment succeeds. */
  completeCheckoutSession(checkoutSessionId: string, cardNumber: string): Promise<CardResult>;
  /** The hosted checkout page's 3-D Secure answer, for a checkout session whose card asked for it. */
  authenticateCheckoutSession(checkoutSessionId: string, approve: boolean): Promise<CardResult>;
  /** What the hosted checkout page shows and where it sends the customer (`{CHECKOUT_SESSION_ID}` replaced). */
  checkoutPage(checkoutSessionId: string): Promise<SandboxCheckoutPage>;
}

/** The sandbox's hosted checkout page (`/sandbox/checkout/{id}`): the order, and where Pay and Cancel lead. */
export interface SandboxCheckoutPage {
  checkoutSession: CheckoutSession;
  description: string;
  /** The success URL with the checkout session id in place of `{CHECKOUT_SESSION_ID}`. */
  successUrl: string;
  cancelUrl: string;
  /** The payment waits for the customer's 3-D Secure answer. */
  requiresAction: boolean;
}

/**
 * Provider events kept in order until the consumer marks them delivered: consume each exactly as a
 * webhook (idempotently by `eventId`), then `markDelivered`. Unmarked events are handed out again.
 */
export interface PaymentEventOutbox {
  pendingEvents(limit?: number): Promise<PaymentEvent[]>;
  markDelivered(eventId: string): Promise<void>;
  /** Wakes `onEvent` after each commit that recorded events (any process); polling stays the backstop. */
  listen(onEvent: (eventId: string) => void): Promise<{ unlisten(): Promise<void> }>;
}

export type PaymentErrorReason =
  /** The card was declined; the message is the provider's, for the customer. */
  | 'card_declined'
  /** The bank asks the customer to authenticate (off-session confirmation). */
  | 'authentication_required'
  /** Bad parameters, an idempotency key reused with other parameters, or a state that forbids it. */
  | 'invalid_request'
  | 'invalid_signature'
  | 'not_found'
  | 'rate_limited'
  /** Network failure, timeout, or a server error at the provider. */
  | 'unavailable';

const RETRYABLE: ReadonlySet<PaymentErrorReason> = new Set(['rate_limited', 'unavailable']);

export class PaymentError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly reason: PaymentErrorReason,
    message: string,
    readonly details: { code?: string | null; paymentIntentId?: string | null } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PaymentError';
    this.retryable = RETRYABLE.has(reason);
  }
}

/** Stripe's test payment methods, by the card each stands for (the sandbox honours the same cards). */
export const TEST_PAYMENT_METHODS: Readonly<Record<string, string>> = {
  pm_card_visa: '4242424242424242',
  pm_card_chargeDeclined: '4000000000000002',
  pm_card_authenticationRequired: '4000002500003155',
};

/** Stripe's limits: at least 50 cents, at most 99,999,999. */
export function assertAmount(amountCents: number): void {
  if (!Number.isSafeInteger(amountCents) || amountCents < 50 || amountCents > 99_999_999) {
    throw new PaymentError('invalid_request', `Amount must be a whole number of cents from 50 to 99999999, got ${amountCents}`);
  }
}

/** Stripe's metadata limits: 50 keys, keys up to 40 characters, values up to 500. */
export function assertMetadata(metadata: Record<string, string>): void {
  const entries = Object.entries(metadata);
  if (entries.length > 50) throw new PaymentError('invalid_request', 'Metadata can have at most 50 keys');
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > 40 || key.includes('[') || key.includes(']')) {
      throw new PaymentError('invalid_request', `Invalid metadata key: ${key.slice(0, 60)}`);
    }
    if (typeof value !== 'string' || value.length > 500) throw new PaymentError('invalid_request', `Metadata value for ${key} is too long`);
  }
}
