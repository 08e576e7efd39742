import { randomBytes } from 'node:crypto';
import type { Sql } from '../../db/db.ts';
import type {
  CardResult,
  CheckoutSession,
  CreateCheckoutSessionInput,
  CreatePaymentIntentInput,
  PaymentEvent,
  PaymentEventOutbox,
  PaymentIntent,
  PaymentPort,
  Refund,
  RefundInput,
  SandboxCheckoutPage,
  SandboxPaymentControls,
} from '../paymentPort.ts';
import { SandboxCheckoutSessions } from './checkoutSessions.ts';
import { SandboxIntents } from './intents.ts';
import { SandboxOutbox } from './outbox.ts';
import { signDelivery, verifyDelivery } from './webhooks.ts';

export { AUTHENTICATION_FAILED, cardBrandOf, cardOutcome, luhnValid } from './cards.ts';
export { SANDBOX_EVENTS_CHANNEL } from './outbox.ts';

/**
 * The sandbox payment provider (DESIGN.md "External services and the embedded default"): a
 * complete provider kept in PostgreSQL (migration 0011), used when STRIPE_SECRET_KEY is not set and
 * refused in production. It behaves as the Stripe adapter does (same contract suite): payment
 * intents with client secrets, Stripe's test cards, declines with Stripe's messages, 3-D Secure
 * approval, cancellation, hosted checkout sessions, partial refunds, and idempotency keys.
 *
 * Cards (spaces ignored, Luhn checked; only the brand and the last 4 digits are kept, and a paid
 * intent reports them as its `card`, as Stripe's expanded charge does):
 *   4242 4242 4242 4242  succeeds
 *   4000 0000 0000 0002  declined: "Your card was declined."
 *   4000 0000 0000 9995  declined: "Your card has insufficient funds."
 *   4000 0000 0000 0069  declined: "Your card has expired."
 *   4000 0025 0000 3155  requires authentication (`completeAuthentication` approves or fails it)
 *   anything else        declined: "Your card number is incorrect."
 *
 * Events: every change a Stripe webhook would report (`payment_intent.succeeded`,
 * `payment_intent.payment_failed`, `checkout.session.completed`, `charge.refunded`) is written to
 * the outbox `sandbox_payment_events` in the same transaction as the change, with an `evt_…` id.
 * A consumer (the payment saga) reads `pendingEvents()` in order, handles each by its id exactly as
 * it handles a webhook, and calls `markDelivered(id)`; an event not marked is handed out again
 * (at least once, like webhooks). After each commit a NOTIFY on `sandbox_payment_events` wakes
 * `listen()`ers; polling stays the backstop. `signedDelivery()` wraps an event as a Stripe-style
 * signed webhook that `parseWebhook` accepts, so the webhook route can be exercised too.
 *
 * One concern a file: `cards.ts` (test cards, Luhn, brands), `intents.ts` (payment intents and
 * refunds), `checkoutSessions.ts` (hosted checkout), `outbox.ts` (events and their NOTIFY),
 * `webhooks.ts` (signing), `idempotency.ts` (keys), `records.ts` (rows). This class only composes
 * them behind the three interfaces the rest of the system sees.
 */

export interface SandboxPaymentsOptions {
  /** The site's origin: hosted checkout pages are `${publicUrl}/sandbox/checkout/{id}`. */
  publicUrl: string;
  /** `production` refuses the sandbox: real payments need Stripe. */
  environment: 'development' | 'production' | 'test';
  /** Signs `signedDelivery` webhooks; default random per process. */
  webhookSecret?: string;
  webhookToleranceSeconds?: number;
  /** Open checkout sessions expire after this long (Stripe: 24 h). */
  checkoutTtlSeconds?: number;
}

export class SandboxPayments implements PaymentPort, SandboxPaymentControls, PaymentEventOutbox {
  readonly kind = 'sandbox' as const;
  readonly publishableKey = null;
  readonly sandbox: SandboxPaymentControls = this;
  readonly outbox: PaymentEventOutbox = this;
  private readonly webhookSecret: string;
  private readonly events: SandboxOutbox;
  private readonly intents: SandboxIntents;
  private readonly checkoutSessions: SandboxCheckoutSessions;

  constructor(
    sql: Sql,
    private readonly options: SandboxPaymentsOptions,
  ) {
    if (options.environment === 'production') {
      throw new Error(
        'The sandbox payment provider cannot be used in production: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET.',
      );
    }
    this.webhookSecret = options.webhookSecret ?? `whsec_sbx_${randomBytes(24).toString('hex')}`;
    this.events = new SandboxOutbox(sql);
    this.intents = new SandboxIntents(sql, this.events);
    this.checkoutSessions = new SandboxCheckoutSessions(sql, this.events, this.intents, options);
  }

  // --- PaymentPort --------------------------------------------------------------------------------

  createPaymentIntent(input: CreatePaymentIntentInput): Promise<PaymentIntent> {
    return this.intents.create(input);
  }

  retrievePaymentIntent(id: string): Promise<PaymentIntent> {
    return this.intents.retrieve(id);
  }

  confirmPaymentIntent(id: string, input: { paymentMethod: string }): Promise<PaymentIntent> {
    return this.intents.confirm(id, input);
  }

  cancelPaymentIntent(id: string): Promise<PaymentIntent> {
    return this.intents.cancel(id);
  }

  createCheckoutSession(input: CreateCheckoutSessionInput): Promise<{ id: string; url: string }> {
    return this.checkoutSessions.create(input);
  }

  retrieveCheckoutSession(id: string): Promise<CheckoutSession> {
    return this.checkoutSessions.retrieve(id);
  }

  expireCheckoutSession(id: string): Promise<CheckoutSession> {
    return this.checkoutSessions.expire(id);
  }

  refund(input: RefundInput): Promise<Refund> {
    return this.intents.refund(input);
  }

  parseWebhook(rawBody: Buffer | string, signatureHeader: string | undefined): PaymentEvent {
    return verifyDelivery(this.webhookSecret, this.options.webhookToleranceSeconds ?? 300, rawBody, signatureHeader);
  }

  // --- The sandbox's own surface: the card form, the hosted checkout page, the event outbox --------

  confirmWithCard(paymentIntentId: string, cardNumber: string): Promise<CardResult> {
    return this.intents.confirmWithCard(paymentIntentId, cardNumber);
  }

  completeAuthentication(paymentIntentId: string, approve: boolean): Promise<CardResult> {
    return this.intents.completeAuthentication(paymentIntentId, approve);
  }

  completeCheckoutSession(checkoutSessionId: string, cardNumber: string): Promise<CardResult> {
    return this.checkoutSessions.complete(checkoutSessionId, cardNumber);
  }

  authenticateCheckoutSession(checkoutSessionId: string, approve: boolean): Promise<CardResult> {
    return this.checkoutSessions.authenticate(checkoutSessionId, approve);
  }

  checkoutPage(checkoutSessionId: string): Promise<SandboxCheckoutPage> {
    return this.checkoutSessions.page(checkoutSessionId);
  }

  checkoutUrl(checkoutSessionId: string): string {
    return this.checkoutSessions.url(checkoutSessionId);
  }

  pendingEvents(limit?: number): Promise<PaymentEvent[]> {
    return this.events.pendingEvents(limit);
  }

  markDelivered(eventId: string): Promise<void> {
    return this.events.markDelivered(eventId);
  }

  listen(onEvent: (eventId: string) => void): Promise<{ unlisten(): Promise<void> }> {
    return this.events.listen(onEvent);
  }

  /** An event as a signed webhook delivery (raw body and `Stripe-Signature`-style header). */
  signedDelivery(event: PaymentEvent, timestamp = Math.floor(Date.now() / 1000)): { body: string; signature: string } {
    return signDelivery(this.webhookSecret, event, timestamp);
  }
}
