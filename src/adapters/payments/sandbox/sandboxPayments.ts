import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Sql, TransactionSql } from '../../db/db.ts';
import {
  assertAmount,
  assertMetadata,
  type CardResult,
  type CheckoutSession,
  type CreateCheckoutSessionInput,
  type CreatePaymentIntentInput,
  PaymentError,
  type PaymentEvent,
  type PaymentEventOutbox,
  type PaymentIntent,
  type PaymentIntentStatus,
  type PaymentPort,
  type Refund,
  type RefundInput,
  type SandboxCheckoutPage,
  type SandboxPaymentControls,
  TEST_PAYMENT_METHODS,
} from '../paymentPort.ts';

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
 */

export const SANDBOX_EVENTS_CHANNEL = 'sandbox_payment_events';
const EVENT_TYPES: ReadonlySet<string> = new Set([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'checkout.session.completed',
  'charge.refunded',
  'other',
]);

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

type Outcome = { kind: 'succeed' } | { kind: 'authenticate' } | { kind: 'decline'; code: string; message: string; declineCode?: string };

const DECLINED = 'Your card was declined.';
const INCORRECT = 'Your card number is incorrect.';
export const AUTHENTICATION_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

const CARDS: Record<string, Outcome> = {
  '4242424242424242': { kind: 'succeed' },
  '4000000000000002': { kind: 'decline', code: 'card_declined', declineCode: 'generic_decline', message: DECLINED },
  '4000000000009995': {
    kind: 'decline',
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000000069': { kind: 'decline', code: 'expired_card', message: 'Your card has expired.' },
  '4000002500003155': { kind: 'authenticate' },
};

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Stripe's brand name of a card number, from its leading digits (the IIN ranges of each network). */
export function cardBrandOf(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9][1-9]|2[3-9]|[3-6]|7[01]|720))/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  if (/^3(0[0-5]|[689])/.test(digits)) return 'diners';
  if (/^35/.test(digits)) return 'jcb';
  if (/^62/.test(digits)) return 'unionpay';
  return 'unknown';
}

/** What a test card does; never logs or returns the number (its brand and last 4 digits at most). */
export function cardOutcome(cardNumber: string): { outcome: Outcome; last4: string | null; brand: string | null } {
  const digits = cardNumber.replace(/\s+/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) {
    return { outcome: { kind: 'decline', code: 'incorrect_number', message: INCORRECT }, last4: null, brand: null };
  }
  return {
    outcome: CARDS[digits] ?? { kind: 'decline', code: 'incorrect_number', message: INCORRECT },
    last4: digits.slice(-4),
    brand: cardBrandOf(digits),
  };
}

interface IntentRow {
  id: string;
  client_secret: string;
  amount_cents: number;
  description: string | null;
  metadata: Record<string, string>;
  status: PaymentIntentStatus;
  last_error_code: string | null;
  last_error_message: string | null;
  amount_refunded_cents: number;
  checkout_session_id: string | null;
  card_last4: string | null;
  card_brand: string | null;
  created_at: Date;
}

interface SessionRow {
  id: string;
  amount_cents: number;
  description: string;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  status: CheckoutSession['status'];
  payment_intent_id: string | null;
  expires_at: Date;
}

const token = (bytes = 12) => randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x');
const newId = (prefix: string) => `${prefix}_sbx_${token()}`;
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
const hashOf = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
const sortedRecord = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : 1)));

function intentOf(row: IntentRow): PaymentIntent {
  return {
    id: row.id,
    clientSecret: row.client_secret,
    status: row.status,
    amountCents: row.amount_cents,
    currency: 'cad',
    description: row.description,
    metadata: row.metadata,
    lastPaymentError: row.last_error_message ? { code: row.last_error_code, message: row.last_error_message } : null,
    created: seconds(row.created_at),
    card: row.status === 'succeeded' && row.card_last4 ? { brand: row.card_brand ?? 'unknown', last4: row.card_last4 } : null,
  };
}

export class SandboxPayments implements PaymentPort, SandboxPaymentControls, PaymentEventOutbox {
  readonly kind = 'sandbox' as const;
  readonly publishableKey = null;
  readonly sandbox: SandboxPaymentControls = this;
  readonly outbox: PaymentEventOutbox = this;
  private readonly webhookSecret: string;

  constructor(
    private readonly sql: Sql,
    private readonly options: SandboxPaymentsOptions,
  ) {
    if (options.environment === 'production') {
      throw new Error(
        'The sandbox payment provider cannot be used in production: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET.',
      );
    }
    this.webhookSecret = options.webhookSecret ?? `whsec_sbx_${randomBytes(24).toString('hex')}`;
  }

  // --- PaymentPort --------------------------------------------------------------------------------

  async createPaymentIntent(input: CreatePaymentIntentInput): Promise<PaymentIntent> {
    checkCreate(input);
    const id = await this.idempotent(input.idempotencyKey, 'payment_intent', requestOf(input), async (tx) => {
      const intentId = newId('pi');
      await tx`
        INSERT INTO sandbox_payment_intents (id, client_secret, amount_cents, currency, description, metadata)
        VALUES (${intentId}, ${`${intentId}_secret_${token(18)}`}, ${input.amountCents}, ${input.currency},
                ${input.description}, ${tx.json(input.metadata)})`;
      return intentId;
    });
    return this.retrievePaymentIntent(id);
  }

  async retrievePaymentIntent(id: string): Promise<PaymentIntent> {
    return intentOf(await this.intentRow(this.sql, id));
  }

  async confirmPaymentIntent(id: string, input: { paymentMethod: string }): Promise<PaymentIntent> {
    const card = TEST_PAYMENT_METHODS[input.paymentMethod];
    if (!card) throw new PaymentError('not_found', `No such PaymentMethod: '${input.paymentMethod}'`, { code: 'resource_missing' });
    const result = await this.confirmWithCard(id, card);
    const intent = await this.retrievePaymentIntent(id);
    if (result.status === 'requires_payment_method') {
      throw new PaymentError('card_declined', result.message ?? DECLINED, {
        code: intent.lastPaymentError?.code ?? null,
        paymentIntentId: id,
      });
    }
    return intent;
  }

  async cancelPaymentIntent(id: string): Promise<PaymentIntent> {
    return this.begin(async (tx) => {
      const row = await this.intentRow(tx, id, true);
      if (row.status === 'canceled') return intentOf(row);
      if (row.status === 'succeeded') {
        throw new PaymentError('invalid_request', `You cannot cancel this PaymentIntent because it has a status of ${row.status}.`, {
          code: 'payment_intent_unexpected_state',
          paymentIntentId: id,
        });
      }
      const [updated] = await tx<IntentRow[]>`
        UPDATE sandbox_payment_intents SET status = 'canceled', updated_at = now() WHERE id = ${id} RETURNING *`;
      return intentOf(updated!);
    });
  }

  async createCheckoutSession(input: CreateCheckoutSessionInput): Promise<{ id: string; url: string }> {
    checkCreate(input);
    for (const url of [input.successUrl, input.cancelUrl]) {
      if (!URL.canParse(url)) throw new PaymentError('invalid_request', 'success and cancel URLs must be absolute URLs');
    }
    const nowSeconds = Math.floor(Date.now() / 1000);
    if (
      input.expiresAt !== undefined &&
      (!Number.isSafeInteger(input.expiresAt) || input.expiresAt < nowSeconds + 1_800 - 60 || input.expiresAt > nowSeconds + 86_400)
    ) {
      // As Stripe: 30 minutes to 24 hours ahead (a minute's leeway for the caller's clock).
      throw new PaymentError(
        'invalid_request',
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from checkout session creation.',
      );
    }
    const request = { ...requestOf(input), successUrl: input.successUrl, cancelUrl: input.cancelUrl, expiresAt: input.expiresAt ?? null };
    const id = await this.idempotent(input.idempotencyKey, 'checkout_session', request, async (tx) => {
      const sessionId = `cs_sbx_${token(20)}`;
      const ttl = this.options.checkoutTtlSeconds ?? 86_400;
      const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt * 1000);
      await tx`
        INSERT INTO sandbox_checkout_sessions (id, amount_cents, currency, description, metadata, success_url, cancel_url, expires_at)
        VALUES (${sessionId}, ${input.amountCents}, ${input.currency}, ${input.description}, ${tx.json(input.metadata)},
                ${input.successUrl}, ${input.cancelUrl}, COALESCE(${expiresAt}::timestamptz, now() + make_interval(secs => ${ttl})))`;
      return sessionId;
    });
    return { id, url: this.checkoutUrl(id) };
  }

  async retrieveCheckoutSession(id: string): Promise<CheckoutSession> {
    return this.sessionOf(await this.sessionRow(this.sql, id));
  }

  async expireCheckoutSession(id: string): Promise<CheckoutSession> {
    return this.begin(async (tx) => {
      const row = await this.sessionRow(tx, id, true);
      if (row.status !== 'open') return this.sessionOf(row);
      // A payment waiting for its 3-D Secure answer is given up with the session.
      if (row.payment_intent_id) {
        await tx`
          UPDATE sandbox_payment_intents SET status = 'canceled', updated_at = now()
          WHERE id = ${row.payment_intent_id} AND status IN ('requires_payment_method', 'requires_action')`;
      }
      const [expired] = await tx<SessionRow[]>`
        UPDATE sandbox_checkout_sessions SET status = 'expired' WHERE id = ${id} RETURNING *`;
      return this.sessionOf(expired!);
    });
  }

  private sessionOf(row: SessionRow): CheckoutSession {
    const status = row.status === 'open' && row.expires_at.getTime() <= Date.now() ? 'expired' : row.status;
    return {
      id: row.id,
      url: status === 'open' ? this.checkoutUrl(row.id) : null,
      status,
      paymentStatus: status === 'complete' ? 'paid' : 'unpaid',
      paymentIntentId: row.payment_intent_id,
      amountCents: row.amount_cents,
      metadata: row.metadata,
    };
  }

  async refund(input: RefundInput): Promise<Refund> {
    if (input.amountCents !== undefined && (!Number.isSafeInteger(input.amountCents) || input.amountCents < 1)) {
      throw new PaymentError('invalid_request', `A refund is a whole number of cents above 0, got ${input.amountCents}`);
    }
    const request = { paymentIntentId: input.paymentIntentId, amountCents: input.amountCents ?? null };
    const id = await this.idempotent(input.idempotencyKey, 'refund', request, async (tx) => {
      const intent = await this.intentRow(tx, input.paymentIntentId, true);
      if (intent.status !== 'succeeded') {
        throw new PaymentError('invalid_request', `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
          code: 'charge_not_refundable',
          paymentIntentId: intent.id,
        });
      }
      const left = intent.amount_cents - intent.amount_refunded_cents;
      if (left === 0)
        throw new PaymentError('invalid_request', `${intent.id} has already been refunded.`, { code: 'charge_already_refunded' });
      const amount = input.amountCents ?? left;
      if (amount > left) {
        throw new PaymentError(
          'invalid_request',
          `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
          { code: 'amount_too_large' },
        );
      }
      const refundId = newId('re');
      await tx`INSERT INTO sandbox_refunds (id, payment_intent_id, amount_cents) VALUES (${refundId}, ${intent.id}, ${amount})`;
      await tx`
        UPDATE sandbox_payment_intents SET amount_refunded_cents = amount_refunded_cents + ${amount}, updated_at = now()
        WHERE id = ${intent.id}`;
      await this.emit(tx, {
        type: 'charge.refunded',
        paymentIntentId: intent.id,
        amountRefundedCents: intent.amount_refunded_cents + amount,
        amountCents: intent.amount_cents,
      });
      return refundId;
    });
    const [row] = await this.sql<{ id: string; payment_intent_id: string; amount_cents: number }[]>`
      SELECT id, payment_intent_id, amount_cents FROM sandbox_refunds WHERE id = ${id}`;
    return { id: row!.id, paymentIntentId: row!.payment_intent_id, amountCents: row!.amount_cents, status: 'succeeded' };
  }

  parseWebhook(rawBody: Buffer | string, signatureHeader: string | undefined): PaymentEvent {
    const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
    if (!signatureHeader) throw new PaymentError('invalid_signature', 'The webhook has no signature header');
    const parts = signatureHeader.split(',').map((p) => p.split('=') as [string, string?]);
    const timestamp = Number(parts.find(([k]) => k === 't')?.[1]);
    const signatures = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => Buffer.from(v!, 'hex'));
    if (!Number.isInteger(timestamp) || signatures.length === 0) {
      throw new PaymentError('invalid_signature', 'Unable to extract timestamp and signatures from header');
    }
    const expected = createHmac('sha256', this.webhookSecret).update(`${timestamp}.${body}`, 'utf8').digest();
    if (!signatures.some((s) => s.length === expected.length && timingSafeEqual(s, expected))) {
      throw new PaymentError('invalid_signature', 'No signatures found matching the expected signature for payload');
    }
    const tolerance = this.options.webhookToleranceSeconds ?? 300;
    if (Math.abs(Math.floor(Date.now() / 1000) - timestamp) > tolerance) {
      throw new PaymentError('invalid_signature', 'Timestamp outside the tolerance zone');
    }
    const event = JSON.parse(body) as Partial<PaymentEvent> | null;
    if (typeof event?.eventId !== 'string' || !EVENT_TYPES.has(String(event.type))) {
      throw new PaymentError('invalid_request', 'The webhook body is not a payment event');
    }
    return event as PaymentEvent;
  }

  // --- The sandbox's own surface: the card form, the hosted checkout page, the event outbox --------

  /**
   * The sandbox card form (`POST /api/sandbox/payments/{id}/confirm`). A decline leaves the intent
   * waiting for another card; a paid intent answers `succeeded` again (two confirms at once: one
   * pays, the other sees it paid). Refused for a canceled intent.
   */
  async confirmWithCard(paymentIntentId: string, cardNumber: string): Promise<CardResult> {
    const card = cardOutcome(cardNumber);
    const { outcome, last4 } = card;
    return this.begin(async (tx) => {
      const row = await this.intentRow(tx, paymentIntentId, true);
      if (row.status === 'succeeded') return { status: 'succeeded' as const };
      await this.assertSessionOpen(tx, row);
      if (row.status === 'canceled' || row.status === 'processing') {
        throw new PaymentError('invalid_request', `You cannot confirm this PaymentIntent because it has a status of ${row.status}.`, {
          code: 'payment_intent_unexpected_state',
          paymentIntentId,
        });
      }
      const taken = last4 && card.brand ? { last4, brand: card.brand } : null;
      if (outcome.kind === 'succeed') return this.succeed(tx, row, taken);
      if (outcome.kind === 'authenticate') {
        await tx`
          UPDATE sandbox_payment_intents
             SET status = 'requires_action', card_last4 = ${last4}, card_brand = ${card.brand}, updated_at = now()
           WHERE id = ${row.id}`;
        return { status: 'requires_action' as const };
      }
      return this.fail(tx, row, outcome.code, outcome.message);
    });
  }

  /** The customer's answer to the 3-D Secure challenge of an intent in `requires_action`. */
  async completeAuthentication(paymentIntentId: string, approve: boolean): Promise<CardResult> {
    return this.begin(async (tx) => {
      const row = await this.intentRow(tx, paymentIntentId, true);
      if (row.status === 'succeeded') return { status: 'succeeded' as const };
      await this.assertSessionOpen(tx, row);
      if (row.status !== 'requires_action') {
        throw new PaymentError('invalid_request', `This PaymentIntent is not waiting for authentication (status ${row.status}).`, {
          code: 'payment_intent_unexpected_state',
          paymentIntentId,
        });
      }
      if (approve) return this.succeed(tx, row, null);
      return this.fail(tx, row, 'payment_intent_authentication_failure', AUTHENTICATION_FAILED);
    });
  }

  /**
   * The hosted checkout page's card form: the session's payment intent is made at the first attempt
   * and follows the card like any other (`requires_action` → `completeAuthentication`); once it
   * succeeds the session is complete (`checkout.session.completed`).
   */
  async completeCheckoutSession(sessionId: string, cardNumber: string): Promise<CardResult> {
    const intentId = await this.begin(async (tx) => {
      const session = await this.sessionRow(tx, sessionId, true);
      if (session.payment_intent_id) return session.payment_intent_id;
      if (session.status !== 'open' || session.expires_at.getTime() <= Date.now()) {
        throw new PaymentError('invalid_request', 'This checkout session is no longer open.', { code: 'checkout_session_expired' });
      }
      const id = newId('pi');
      await tx`
        INSERT INTO sandbox_payment_intents (id, client_secret, amount_cents, description, metadata, checkout_session_id)
        VALUES (${id}, ${`${id}_secret_${token(18)}`}, ${session.amount_cents}, ${session.description}, ${tx.json(session.metadata)}, ${session.id})`;
      await tx`UPDATE sandbox_checkout_sessions SET payment_intent_id = ${id} WHERE id = ${session.id}`;
      return id;
    });
    return this.confirmWithCard(intentId, cardNumber);
  }

  /** The hosted page's 3-D Secure answer: the session's payment must be waiting for it. */
  async authenticateCheckoutSession(sessionId: string, approve: boolean): Promise<CardResult> {
    const session = await this.sessionRow(this.sql, sessionId);
    if (!session.payment_intent_id) {
      throw new PaymentError('invalid_request', 'This checkout session has no payment waiting for authentication.', {
        code: 'payment_intent_unexpected_state',
      });
    }
    return this.completeAuthentication(session.payment_intent_id, approve);
  }

  /** What the hosted checkout page shows: the order, its state, and where Pay and Cancel lead. */
  async checkoutPage(sessionId: string): Promise<SandboxCheckoutPage> {
    const row = await this.sessionRow(this.sql, sessionId);
    const intent = row.payment_intent_id ? await this.intentRow(this.sql, row.payment_intent_id) : null;
    return {
      session: this.sessionOf(row),
      description: row.description,
      successUrl: row.success_url.replaceAll('{CHECKOUT_SESSION_ID}', encodeURIComponent(row.id)),
      cancelUrl: row.cancel_url,
      requiresAction: intent?.status === 'requires_action',
    };
  }

  checkoutUrl(sessionId: string): string {
    return `${this.options.publicUrl.replace(/\/+$/, '')}/sandbox/checkout/${encodeURIComponent(sessionId)}`;
  }

  /** Events not yet marked delivered, oldest first. */
  async pendingEvents(limit = 100): Promise<PaymentEvent[]> {
    const rows = await this.sql<{ payload: PaymentEvent }[]>`
      SELECT payload FROM sandbox_payment_events WHERE delivered_at IS NULL ORDER BY seq LIMIT ${limit}`;
    return rows.map((r) => r.payload);
  }

  /** The consumer handled the event; marking twice is fine. */
  async markDelivered(eventId: string): Promise<void> {
    await this.sql`UPDATE sandbox_payment_events SET delivered_at = now() WHERE id = ${eventId} AND delivered_at IS NULL`;
  }

  /** Wakes `onEvent` (with the event id) after each commit that recorded events, in any process. */
  async listen(onEvent: (eventId: string) => void): Promise<{ unlisten(): Promise<void> }> {
    const { unlisten } = await this.sql.listen(SANDBOX_EVENTS_CHANNEL, onEvent);
    return { unlisten };
  }

  /** An event as a signed webhook delivery (raw body and `Stripe-Signature`-style header). */
  signedDelivery(event: PaymentEvent, timestamp = Math.floor(Date.now() / 1000)): { body: string; signature: string } {
    const body = JSON.stringify(event);
    const signature = createHmac('sha256', this.webhookSecret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
    return { body, signature: `t=${timestamp},v1=${signature}` };
  }

  // --- inside ---------------------------------------------------------------------------------------

  /** `card`: the card just taken; null keeps the one the 3-D Secure challenge was for. */
  private async succeed(tx: TransactionSql, row: IntentRow, card: { last4: string; brand: string } | null): Promise<CardResult> {
    const [updated] = await tx<IntentRow[]>`
      UPDATE sandbox_payment_intents
         SET status = 'succeeded', last_error_code = NULL, last_error_message = NULL,
             card_last4 = COALESCE(${card?.last4 ?? null}, card_last4),
             card_brand = COALESCE(${card?.brand ?? null}, card_brand), updated_at = now()
       WHERE id = ${row.id} RETURNING *`;
    const intent = intentOf(updated!);
    await this.emit(tx, { type: 'payment_intent.succeeded', paymentIntent: intent });
    if (row.checkout_session_id) {
      const [session] = await tx<SessionRow[]>`
        UPDATE sandbox_checkout_sessions SET status = 'complete' WHERE id = ${row.checkout_session_id} RETURNING *`;
      await this.emit(tx, {
        type: 'checkout.session.completed',
        session: {
          id: session!.id,
          url: null,
          status: 'complete',
          paymentStatus: 'paid',
          paymentIntentId: row.id,
          amountCents: session!.amount_cents,
          metadata: session!.metadata,
        },
      });
    }
    return { status: 'succeeded' };
  }

  /** The intent of a hosted checkout session is paid only while the session is open (not expired). */
  private async assertSessionOpen(tx: TransactionSql, row: IntentRow): Promise<void> {
    if (!row.checkout_session_id) return;
    const session = await this.sessionRow(tx, row.checkout_session_id, true);
    if (session.status !== 'open' || session.expires_at.getTime() <= Date.now()) {
      throw new PaymentError('invalid_request', 'This checkout session is no longer open.', { code: 'checkout_session_expired' });
    }
  }

  private async fail(tx: TransactionSql, row: IntentRow, code: string, message: string): Promise<CardResult> {
    const [updated] = await tx<IntentRow[]>`
      UPDATE sandbox_payment_intents
         SET status = 'requires_payment_method', last_error_code = ${code}, last_error_message = ${message}, updated_at = now()
       WHERE id = ${row.id} RETURNING *`;
    await this.emit(tx, {
      type: 'payment_intent.payment_failed',
      paymentIntent: intentOf(updated!),
      failureMessage: message,
      failureCode: code,
    });
    return { status: 'requires_payment_method', message };
  }

  private async emit(tx: TransactionSql, event: DistributiveOmit<PaymentEvent, 'eventId' | 'created'>): Promise<void> {
    const full = { ...event, eventId: newId('evt'), created: Math.floor(Date.now() / 1000) } as PaymentEvent;
    await tx`INSERT INTO sandbox_payment_events (id, type, payload) VALUES (${full.eventId}, ${full.type}, ${tx.json(full as never)})`;
    this.recorded.get(tx)?.push(full.eventId);
  }

  /** Events recorded by each open transaction, announced after it commits. */
  private readonly recorded = new WeakMap<TransactionSql, string[]>();

  /** A transaction whose recorded events are announced (NOTIFY, outside the transaction) once it commits. */
  private async begin<T>(run: (tx: TransactionSql) => Promise<T>): Promise<T> {
    const events: string[] = [];
    const result = await this.sql.begin(async (tx) => {
      this.recorded.set(tx, events);
      return run(tx);
    });
    const last = events.at(-1);
    if (last) await this.sql.notify(SANDBOX_EVENTS_CHANNEL, last).catch(() => {});
    return result as T;
  }

  /** Runs `create` once per idempotency key: the same request answers the first object, another is refused. */
  private async idempotent(
    key: string,
    operation: string,
    request: unknown,
    create: (tx: TransactionSql) => Promise<string>,
  ): Promise<string> {
    const requestHash = hashOf(request);
    const result = await this.begin(async (tx) => {
      const claimed = await tx`
        INSERT INTO sandbox_payment_idempotency (idempotency_key, operation, request_hash) VALUES (${key}, ${operation}, ${requestHash})
        ON CONFLICT DO NOTHING RETURNING idempotency_key`;
      if (claimed.length === 0) {
        const [earlier] = await tx<{ operation: string; request_hash: string; object_id: string | null }[]>`
          SELECT operation, request_hash, object_id FROM sandbox_payment_idempotency WHERE idempotency_key = ${key}`;
        if (earlier?.operation !== operation || earlier.request_hash !== requestHash || !earlier.object_id) {
          throw new PaymentError(
            'invalid_request',
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            { code: 'idempotency_error' },
          );
        }
        return earlier.object_id;
      }
      const id = await create(tx);
      await tx`UPDATE sandbox_payment_idempotency SET object_id = ${id} WHERE idempotency_key = ${key}`;
      return id;
    });
    return result;
  }

  private async intentRow(sql: Sql | TransactionSql, id: string, forUpdate = false): Promise<IntentRow> {
    const rows = forUpdate
      ? await sql<IntentRow[]>`SELECT * FROM sandbox_payment_intents WHERE id = ${id} FOR UPDATE`
      : await sql<IntentRow[]>`SELECT * FROM sandbox_payment_intents WHERE id = ${id}`;
    if (!rows[0]) throw new PaymentError('not_found', `No such payment_intent: '${id}'`, { code: 'resource_missing' });
    return rows[0];
  }

  private async sessionRow(sql: Sql | TransactionSql, id: string, forUpdate = false): Promise<SessionRow> {
    const rows = forUpdate
      ? await sql<SessionRow[]>`SELECT * FROM sandbox_checkout_sessions WHERE id = ${id} FOR UPDATE`
      : await sql<SessionRow[]>`SELECT * FROM sandbox_checkout_sessions WHERE id = ${id}`;
    if (!rows[0]) throw new PaymentError('not_found', `No such checkout.session: '${id}'`, { code: 'resource_missing' });
    return rows[0];
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function checkCreate(input: CreatePaymentIntentInput): void {
  assertAmount(input.amountCents);
  assertMetadata(input.metadata);
  if (input.currency !== 'cad') throw new PaymentError('invalid_request', `Unsupported currency: ${String(input.currency)}`);
  if (!input.idempotencyKey || input.idempotencyKey.length > 255) {
    throw new PaymentError('invalid_request', 'An idempotency key of 1 to 255 characters is required');
  }
}

/** What an idempotency key is bound to (the sandbox keeps no e-mail address, not even hashed). */
const requestOf = (input: CreatePaymentIntentInput) => ({
  amountCents: input.amountCents,
  currency: input.currency,
  description: input.description,
  metadata: sortedRecord(input.metadata),
});
