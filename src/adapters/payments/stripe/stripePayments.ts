import Stripe from 'stripe';
import {
  assertAmount,
  assertMetadata,
  type CheckoutSession,
  type CreateCheckoutSessionInput,
  type CreatePaymentIntentInput,
  type PaymentCard,
  PaymentError,
  type PaymentEvent,
  type PaymentIntent,
  type PaymentIntentStatus,
  type PaymentPort,
  type Refund,
  type RefundInput,
} from '../paymentPort.ts';

/**
 * Stripe (`stripe` package), used when STRIPE_SECRET_KEY is set. Every create carries the
 * caller's idempotency key; the API version is pinned, so an account upgraded in Stripe's
 * dashboard does not change the objects we read. Webhooks are verified with
 * `stripe.webhooks.constructEvent` on the raw body (signature and age). Tests point `host`,
 * `port` and `protocol` at `tests/fakes/fakeStripeServer.ts` (test-only; nothing here runs it).
 */

/** The API version the adapter is written against (the `stripe` package's own). */
export const STRIPE_API_VERSION = '2026-10-28.endive' satisfies Stripe.LatestApiVersion;

export interface StripePaymentsOptions {
  secretKey: string;
  publishableKey?: string | null;
  /** `whsec_…` of the webhook endpoint; without it every webhook is refused. */
  webhookSecret?: string | null;
  /** Oldest webhook accepted, in seconds (Stripe's default: 300). */
  webhookToleranceSeconds?: number;
  /** Tests: a local server speaking Stripe's wire format. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  /** Network retries by the client (same idempotency key). Default 2. */
  maxNetworkRetries?: number;
  timeoutMs?: number;
}

const STATUS: Record<string, PaymentIntentStatus> = {
  requires_payment_method: 'requires_payment_method',
  requires_confirmation: 'requires_payment_method',
  requires_action: 'requires_action',
  processing: 'processing',
  requires_capture: 'processing',
  succeeded: 'succeeded',
  canceled: 'canceled',
};

export class StripePayments implements PaymentPort {
  readonly kind = 'stripe' as const;
  readonly publishableKey: string | null;
  private readonly stripe: Stripe;

  constructor(private readonly options: StripePaymentsOptions) {
    this.publishableKey = options.publishableKey ?? null;
    this.stripe = new Stripe(options.secretKey, {
      apiVersion: STRIPE_API_VERSION,
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
      timeout: options.timeoutMs ?? 30_000,
      telemetry: false,
      appInfo: { name: 'Topmark' },
      ...(options.host ? { host: options.host } : {}),
      ...(options.port ? { port: options.port } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
    });
  }

  async createPaymentIntent(input: CreatePaymentIntentInput): Promise<PaymentIntent> {
    checkCreate(input);
    const intent = await call('Creating a payment intent', () =>
      this.stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: input.currency,
          description: input.description,
          metadata: input.metadata,
          automatic_payment_methods: { enabled: true },
          ...(input.customerEmail ? { receipt_email: input.customerEmail } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return intentOf(intent);
  }

  /** With its latest charge expanded: the card that paid is read from it. */
  async retrievePaymentIntent(id: string): Promise<PaymentIntent> {
    return intentOf(await call('Reading a payment intent', () => this.stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] })));
  }

  async confirmPaymentIntent(id: string, input: { paymentMethod: string; idempotencyKey?: string }): Promise<PaymentIntent> {
    const intent = await call('Confirming a payment intent', () =>
      this.stripe.paymentIntents.confirm(
        id,
        { payment_method: input.paymentMethod, expand: ['latest_charge'] },
        input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {},
      ),
    );
    return intentOf(intent);
  }

  async cancelPaymentIntent(id: string): Promise<PaymentIntent> {
    try {
      return intentOf(await call('Cancelling a payment intent', () => this.stripe.paymentIntents.cancel(id)));
    } catch (error) {
      // Stripe refuses to cancel twice; the port answers the canceled intent.
      if (error instanceof PaymentError && error.details.code === 'payment_intent_unexpected_state') {
        const current = await this.retrievePaymentIntent(id);
        if (current.status === 'canceled') return current;
      }
      throw error;
    }
  }

  async createCheckoutSession(input: CreateCheckoutSessionInput): Promise<{ id: string; url: string }> {
    checkCreate(input);
    const session = await call('Creating a checkout session', () =>
      this.stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: { currency: input.currency, unit_amount: input.amountCents, product_data: { name: input.description } },
            },
          ],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata: input.metadata,
          payment_intent_data: { description: input.description, metadata: input.metadata },
          ...(input.expiresAt !== undefined ? { expires_at: input.expiresAt } : {}),
          ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    if (!session.url) throw new PaymentError('unavailable', 'Stripe created a checkout session without a URL');
    return { id: session.id, url: session.url };
  }

  async retrieveCheckoutSession(id: string): Promise<CheckoutSession> {
    return sessionOf(await call('Reading a checkout session', () => this.stripe.checkout.sessions.retrieve(id)));
  }

  async expireCheckoutSession(id: string): Promise<CheckoutSession> {
    try {
      return sessionOf(await call('Expiring a checkout session', () => this.stripe.checkout.sessions.expire(id)));
    } catch (error) {
      // Stripe refuses to expire a session that is no longer open: answer it as it is.
      if (error instanceof PaymentError && error.reason === 'invalid_request') {
        const current = await this.retrieveCheckoutSession(id);
        if (current.status !== 'open') return current;
      }
      throw error;
    }
  }

  async refund(input: RefundInput): Promise<Refund> {
    if (input.amountCents !== undefined && (!Number.isSafeInteger(input.amountCents) || input.amountCents < 1)) {
      throw new PaymentError('invalid_request', `A refund is a whole number of cents above 0, got ${input.amountCents}`);
    }
    const refund = await call('Refunding a payment', () =>
      this.stripe.refunds.create(
        { payment_intent: input.paymentIntentId, ...(input.amountCents !== undefined ? { amount: input.amountCents } : {}) },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return {
      id: refund.id,
      paymentIntentId: idOf(refund.payment_intent) ?? input.paymentIntentId,
      amountCents: refund.amount,
      status: (['pending', 'succeeded', 'failed', 'canceled'].includes(refund.status ?? '')
        ? refund.status
        : 'pending') as Refund['status'],
    };
  }

  parseWebhook(rawBody: Buffer | string, signatureHeader: string | undefined): PaymentEvent {
    const secret = this.options.webhookSecret;
    if (!secret) throw new PaymentError('invalid_signature', 'No webhook secret is configured (STRIPE_WEBHOOK_SECRET)');
    if (!signatureHeader) throw new PaymentError('invalid_signature', 'The webhook has no Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, this.options.webhookToleranceSeconds ?? 300);
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0]! : 'invalid';
      throw new PaymentError('invalid_signature', `Webhook refused: ${message}`, {}, { cause: error });
    }
    return eventOf(event);
  }
}

function checkCreate(input: CreatePaymentIntentInput): void {
  assertAmount(input.amountCents);
  assertMetadata(input.metadata);
  if (input.currency !== 'cad') throw new PaymentError('invalid_request', `Unsupported currency: ${String(input.currency)}`);
  if (!input.idempotencyKey || input.idempotencyKey.length > 255) {
    throw new PaymentError('invalid_request', 'An idempotency key of 1 to 255 characters is required');
  }
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

function intentOf(intent: Stripe.PaymentIntent): PaymentIntent {
  const error = intent.last_payment_error;
  return {
    id: intent.id,
    clientSecret: intent.client_secret ?? '',
    status: STATUS[intent.status] ?? 'processing',
    amountCents: intent.amount,
    currency: 'cad',
    description: intent.description ?? null,
    metadata: { ...(intent.metadata ?? {}) },
    lastPaymentError: error ? { code: error.code ?? null, message: error.message ?? 'The payment failed.' } : null,
    created: intent.created,
    card: intent.status === 'succeeded' ? cardOf(intent.latest_charge) : null,
  };
}

/**
 * The card of an expanded charge (`payment_method_details.card`): its brand and last 4 digits, and
 * nothing else of it (expiry, fingerprint, country stay at Stripe). Null for a charge that is only
 * an id (webhooks do not expand it) or was paid by another method.
 */
export function cardOf(charge: string | Stripe.Charge | null | undefined): PaymentCard | null {
  if (!charge || typeof charge === 'string') return null;
  const card = charge.payment_method_details?.card;
  if (!card?.last4 || !/^\d{4}$/.test(card.last4)) return null;
  return { brand: /^[a-z_]{1,30}$/.test(card.brand ?? '') ? (card.brand as string) : 'unknown', last4: card.last4 };
}

function sessionOf(session: Stripe.Checkout.Session): CheckoutSession {
  return {
    id: session.id,
    url: session.url ?? null,
    status: session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open',
    paymentStatus: session.payment_status === 'unpaid' ? 'unpaid' : 'paid',
    paymentIntentId: idOf(session.payment_intent),
    amountCents: session.amount_total ?? 0,
    metadata: { ...(session.metadata ?? {}) },
  };
}

function eventOf(event: Stripe.Event): PaymentEvent {
  const base = { eventId: event.id, created: event.created };
  switch (event.type) {
    case 'payment_intent.succeeded':
      return { ...base, type: 'payment_intent.succeeded', paymentIntent: intentOf(event.data.object) };
    case 'payment_intent.payment_failed': {
      const paymentIntent = intentOf(event.data.object);
      return {
        ...base,
        type: 'payment_intent.payment_failed',
        paymentIntent,
        failureMessage: paymentIntent.lastPaymentError?.message ?? 'The payment failed.',
        failureCode: paymentIntent.lastPaymentError?.code ?? null,
      };
    }
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return { ...base, type: 'checkout.session.completed', session: sessionOf(event.data.object) };
    case 'charge.refunded': {
      const charge = event.data.object;
      return {
        ...base,
        type: 'charge.refunded',
        paymentIntentId: idOf(charge.payment_intent) ?? '',
        amountRefundedCents: charge.amount_refunded,
        amountCents: charge.amount,
      };
    }
    default:
      return { ...base, type: 'other', providerType: event.type };
  }
}

interface StripeFailure {
  type?: string;
  statusCode?: number;
  code?: string;
  message?: string;
  raw?: { payment_intent?: { id?: string } };
}

async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toPaymentError(error, what);
  }
}

/** Stripe's errors as the port's reasons; the customer-facing message of a decline is kept as is. */
export function toPaymentError(error: unknown, what: string): PaymentError {
  if (error instanceof PaymentError) return error;
  const failure = (error ?? {}) as StripeFailure;
  const code = failure.code ?? null;
  const message = failure.message ?? 'failed';
  const details = { code, paymentIntentId: failure.raw?.payment_intent?.id ?? null };
  const options = { cause: error };
  switch (failure.type) {
    case 'StripeCardError':
      if (code === 'authentication_required') return new PaymentError('authentication_required', message, details, options);
      return new PaymentError('card_declined', message, details, options);
    case 'StripeRateLimitError':
      return new PaymentError('rate_limited', `${what}: ${message}`, details, options);
    case 'StripeAPIError':
    case 'StripeConnectionError':
      return new PaymentError('unavailable', `${what}: ${message}`, details, options);
    case 'StripeIdempotencyError':
      return new PaymentError('invalid_request', `${what}: ${message}`, details, options);
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return new PaymentError('invalid_request', `${what}: Stripe refused the API key (check STRIPE_SECRET_KEY)`, details, options);
    default:
      break;
  }
  if (failure.statusCode === 429) return new PaymentError('rate_limited', `${what}: ${message}`, details, options);
  if (failure.statusCode === 404 || code === 'resource_missing')
    return new PaymentError('not_found', `${what}: ${message}`, details, options);
  if (failure.statusCode !== undefined && failure.statusCode < 500)
    return new PaymentError('invalid_request', `${what}: ${message}`, details, options);
  return new PaymentError('unavailable', `${what}: ${message}`, details, options);
}
