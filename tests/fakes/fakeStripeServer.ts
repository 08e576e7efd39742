import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STRIPE_API_VERSION } from '../../src/adapters/payments/stripe/stripePayments.ts';

/**
 * Test support: a local server speaking Stripe's REST wire format for the endpoints the Stripe
 * adapter uses (PaymentIntents create/retrieve/confirm/cancel, Checkout Sessions create/retrieve,
 * Refunds create), so the adapter is tested through the real `stripe` package (`host`, `port`,
 * `protocol: 'http'`). As Stripe does, it reads form-encoded bodies (`metadata[key]=…`,
 * `line_items[0][price_data][unit_amount]=…`), checks the secret key, answers JSON objects shaped
 * like Stripe's, honours `Idempotency-Key` (the same key and parameters replay the first answer
 * with `Idempotent-Replayed: true`; other parameters or another endpoint are a 400
 * `idempotency_error`), declines with 402 `card_error`, and records the events a Stripe account
 * would send as webhooks; `deliveries()` signs them as Stripe does (`signStripePayload`).
 *
 * Test cards are Stripe's test payment methods: `pm_card_visa` (and `pm_card_mastercard`) succeed, `pm_card_chargeDeclined`
 * is declined ("Your card was declined."), `pm_card_authenticationRequired` asks for 3-D Secure
 * (`completeAuthentication` plays the customer's answer). Each charge carries Stripe's
 * `payment_method_details.card`; `expand[]=latest_charge` on retrieving or confirming an intent
 * answers the charge as an object, as Stripe does.
 */

type Json = Record<string, unknown>;
type Form = { [key: string]: string | Form | Form[] | string[] };

/** Stripe's webhook signature: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<payload>")>`. */
export function signStripePayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

class StripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(`HTTP ${status}`);
  }
}

const invalidRequest = (message: string, extra: Json = {}, status = 400) =>
  new StripeHttpError(status, { error: { type: 'invalid_request_error', message, ...extra } });
const missing = (kind: string, id: string, param: string) =>
  invalidRequest(
    `No such ${kind}: '${id}'`,
    { code: 'resource_missing', param, doc_url: 'https://stripe.com/docs/error-codes/resource-missing' },
    404,
  );

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const now = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=v` → `{ a: { b: [{ c: 'v' }] } }`, as Stripe reads its form bodies. */
export function parseStripeForm(raw: string): Form {
  const root: Form = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        node[part] = value;
        return;
      }
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return arraysOf(root) as Form;
}

function arraysOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, arraysOf(v)] as const);
  if (entries.length > 0 && entries.every(([k], i) => k === String(i))) return entries.map(([, v]) => v);
  return Object.fromEntries(entries);
}

const str = (form: Form, key: string): string | undefined => (typeof form[key] === 'string' ? (form[key] as string) : undefined);
const obj = (form: Form, key: string): Form => (typeof form[key] === 'object' && !Array.isArray(form[key]) ? (form[key] as Form) : {});
const metadataOf = (form: Form): Record<string, string> =>
  Object.fromEntries(Object.entries(obj(form, 'metadata')).filter(([, v]) => typeof v === 'string')) as Record<string, string>;

function amountOf(raw: string | undefined, param = 'amount'): number {
  const amount = Number(raw);
  if (raw === undefined) throw invalidRequest(`Missing required param: ${param}.`, { code: 'parameter_missing', param });
  if (!Number.isInteger(amount) || amount < 1)
    throw invalidRequest(`Invalid integer: ${raw}`, { code: 'parameter_invalid_integer', param });
  if (amount < 50) throw invalidRequest('Amount must be at least $0.50 cad', { code: 'amount_too_small', param });
  return amount;
}

interface StoredResponse {
  method: string;
  path: string;
  body: string;
  status: number;
  payload: Json;
}

export interface RecordedStripeRequest {
  method: string;
  path: string;
  form: Form;
  idempotencyKey: string | null;
  stripeVersion: string | null;
}

const CARDS: Record<string, { brand: string; last4: string; outcome: 'succeed' | 'decline' | 'authenticate' }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', outcome: 'succeed' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', outcome: 'succeed' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', outcome: 'decline' },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3155', outcome: 'authenticate' },
};

export class FakeStripeServer {
  readonly requests: RecordedStripeRequest[] = [];
  /** Answer the next request whose path matches with this status and body instead (e.g. 429, 500). */
  readonly failures: { path: RegExp; status: number; body: Json }[] = [];
  /** Every event the account emitted, oldest first (what Stripe would POST to the webhook endpoint). */
  readonly events: Json[] = [];
  private delivered = 0;
  private readonly intents = new Map<string, Json>();
  private readonly sessions = new Map<string, Json>();
  private readonly charges = new Map<string, Json>();
  private readonly idempotency = new Map<string, StoredResponse>();
  private readonly server = createServer((req, res) => {
    this.handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  port = 0;

  private constructor(
    readonly secretKey: string,
    readonly webhookSecret: string,
  ) {}

  static async start(options: { secretKey?: string; webhookSecret?: string } = {}): Promise<FakeStripeServer> {
    const fake = new FakeStripeServer(
      options.secretKey ?? `sk_test_${randomBytes(12).toString('hex')}`,
      options.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`,
    );
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** What the adapter's options need to reach this server. */
  get connection() {
    return { host: '127.0.0.1', port: this.port, protocol: 'http' as const };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Events not handed out yet, each as Stripe would POST it: the JSON body and its `Stripe-Signature`. */
  deliveries(options: { secret?: string; timestamp?: number } = {}): { body: string; signature: string; type: string }[] {
    const fresh = this.events.slice(this.delivered);
    this.delivered = this.events.length;
    return fresh.map((event) => {
      const body = JSON.stringify(event, null, 2);
      return {
        body,
        signature: signStripePayload(body, options.secret ?? this.webhookSecret, options.timestamp),
        type: String(event.type),
      };
    });
  }

  /** The customer answers the 3-D Secure challenge of an intent in `requires_action`. */
  completeAuthentication(intentId: string, approve: boolean): void {
    const intent = this.intents.get(intentId);
    if (intent?.status !== 'requires_action') throw new Error(`${intentId} is not waiting for authentication`);
    intent.next_action = null;
    if (approve) this.succeed(intent, 'pm_card_authenticationRequired');
    else
      this.fail(
        intent,
        {
          code: 'payment_intent_authentication_failure',
          message: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
        },
        'pm_card_authenticationRequired',
      );
  }

  /** The customer pays on the hosted Checkout page with a test card. */
  completeCheckoutSession(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (session?.status !== 'open') throw new Error(`${sessionId} is not open`);
    const pid = obj(session as Form, 'payment_intent_data');
    const intent = this.newIntent({
      amount: session.amount_total as number,
      currency: 'cad',
      description: (pid.description as string | undefined) ?? null,
      metadata: { ...((pid.metadata as Record<string, string>) ?? {}) },
    });
    delete session.payment_intent_data;
    this.succeed(intent, 'pm_card_visa');
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intent.id });
    this.emit('checkout.session.completed', session);
  }

  // ---------------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const raw = await new Promise<string>((resolve) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        text += chunk;
      });
      req.on('end', () => resolve(text));
    });
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
    const form = parseStripeForm(method === 'GET' ? url.search.slice(1) : raw);
    this.requests.push({
      method,
      path: url.pathname,
      form,
      idempotencyKey,
      stripeVersion: (req.headers['stripe-version'] as string) ?? null,
    });

    const send = (status: number, payload: Json, replayed = false) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': id('req'),
        ...(idempotencyKey && method === 'POST' ? { 'idempotency-key': idempotencyKey } : {}),
        ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
      });
      res.end(JSON.stringify(payload));
    };
    const injected = this.failures.findIndex((f) => f.path.test(url.pathname));
    if (injected >= 0) {
      const [failure] = this.failures.splice(injected, 1);
      return send(failure!.status, failure!.body);
    }
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      return send(401, {
        error: {
          type: 'invalid_request_error',
          message: `Invalid API Key provided: ${String(req.headers.authorization).slice(7, 15)}****`,
        },
      });
    }
    if (method === 'POST' && idempotencyKey) {
      const stored = this.idempotency.get(idempotencyKey);
      if (stored) {
        if (stored.path !== url.pathname || stored.method !== method) {
          return send(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${stored.method} ${stored.path}' vs '${method} ${url.pathname}'). Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          });
        }
        if (stored.body !== raw) {
          return send(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          });
        }
        return send(stored.status, stored.payload, true);
      }
    }
    let status = 200;
    let payload: Json;
    try {
      payload = this.route(method, url.pathname, form);
    } catch (error) {
      if (!(error instanceof StripeHttpError)) throw error;
      status = error.status;
      payload = error.body;
    }
    if (method === 'POST' && idempotencyKey)
      this.idempotency.set(idempotencyKey, { method, path: url.pathname, body: raw, status, payload });
    return send(status, payload);
  }

  private route(method: string, path: string, form: Form): Json {
    const m = /^\/v1\/(payment_intents|checkout\/sessions|refunds)(?:\/([^/]+))?(?:\/(confirm|cancel|expire))?$/.exec(path);
    const [, resource, target, action] = m ?? [];
    const call = `${method} ${resource ?? ''}${target ? '/:id' : ''}${action ? `/${action}` : ''}`;
    switch (call) {
      case 'POST payment_intents':
        return this.createIntent(form);
      case 'GET payment_intents/:id':
        return this.expanded(this.intent(target!), form);
      case 'POST payment_intents/:id/confirm':
        return this.expanded(this.confirm(this.intent(target!), form), form);
      case 'POST payment_intents/:id/cancel':
        return this.cancel(this.intent(target!));
      case 'POST checkout/sessions':
        return this.createSession(form);
      case 'POST checkout/sessions/:id/expire': {
        const session = this.sessions.get(target!);
        if (!session) throw missing('checkout.session', target!, 'session');
        if (session.status !== 'open') {
          throw invalidRequest(
            `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`,
          );
        }
        Object.assign(session, { status: 'expired' });
        this.emit('checkout.session.expired', session);
        return this.presentSession(session);
      }
      case 'GET checkout/sessions/:id': {
        const session = this.sessions.get(target!);
        if (!session) throw missing('checkout.session', target!, 'session');
        return this.presentSession(session);
      }
      case 'POST refunds':
        return this.refund(form);
      default:
        throw invalidRequest(`Unrecognized request URL (${method}: ${path}).`, {}, 404);
    }
  }

  /** `expand[]=latest_charge`: the intent with its latest charge as an object (Stripe answers only the id otherwise). */
  private expanded(intent: Json, form: Form): Json {
    const expand = Array.isArray(form.expand) ? (form.expand as string[]) : [];
    if (!expand.includes('latest_charge') || typeof intent.latest_charge !== 'string') return intent;
    return { ...intent, latest_charge: this.charges.get(intent.latest_charge) ?? intent.latest_charge };
  }

  private intent(intentId: string): Json {
    const intent = this.intents.get(intentId);
    if (!intent) throw missing('payment_intent', intentId, 'intent');
    return intent;
  }

  private newIntent(
    input: { amount: number; currency: string; description: string | null; metadata: Record<string, string> },
    receiptEmail?: string,
  ) {
    const intentId = id('pi');
    const intent: Json = {
      id: intentId,
      object: 'payment_intent',
      amount: input.amount,
      amount_capturable: 0,
      amount_received: 0,
      automatic_payment_methods: { enabled: true },
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic',
      client_secret: `${intentId}_secret_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'y')}`,
      confirmation_method: 'automatic',
      created: now(),
      currency: input.currency,
      description: input.description,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: input.metadata,
      next_action: null,
      payment_method: null,
      payment_method_types: ['card'],
      receipt_email: receiptEmail ?? null,
      status: 'requires_payment_method',
    };
    this.intents.set(intentId, intent);
    this.emit('payment_intent.created', intent);
    return intent;
  }

  private createIntent(form: Form): Json {
    const currency = str(form, 'currency');
    if (!currency) throw invalidRequest('Missing required param: currency.', { code: 'parameter_missing', param: 'currency' });
    const intent = this.newIntent(
      { amount: amountOf(str(form, 'amount')), currency, description: str(form, 'description') ?? null, metadata: metadataOf(form) },
      str(form, 'receipt_email'),
    );
    return intent;
  }

  private confirm(intent: Json, form: Form): Json {
    if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_confirmation') {
      throw invalidRequest(
        `You cannot confirm this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_payment_method.`,
        { code: 'payment_intent_unexpected_state', payment_intent: intent },
      );
    }
    const paymentMethod = str(form, 'payment_method');
    const card = paymentMethod ? CARDS[paymentMethod] : undefined;
    if (!paymentMethod || !card) throw missing('payment_method', paymentMethod ?? '', 'payment_method');
    intent.payment_method = id('pm');
    if (card.outcome === 'succeed') return this.succeed(intent, paymentMethod);
    if (card.outcome === 'authenticate') {
      Object.assign(intent, {
        status: 'requires_action',
        next_action: { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } },
      });
      this.emit('payment_intent.requires_action', intent);
      return intent;
    }
    const charge = this.fail(
      intent,
      { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
      paymentMethod,
    );
    throw new StripeHttpError(402, {
      error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
        charge: charge.id,
        doc_url: 'https://stripe.com/docs/error-codes/card-declined',
        payment_intent: intent,
      },
    });
  }

  private newCharge(intent: Json, status: 'succeeded' | 'failed', paymentMethod: string): Json {
    const card = CARDS[paymentMethod];
    const charge: Json = {
      id: id('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: status === 'succeeded' ? intent.amount : 0,
      amount_refunded: 0,
      currency: intent.currency,
      payment_intent: intent.id,
      paid: status === 'succeeded',
      refunded: false,
      status,
      metadata: intent.metadata,
      created: now(),
      payment_method: intent.payment_method,
      // As Stripe reports the card: more than a receipt needs (expiry, fingerprint, country), never the number.
      payment_method_details: card
        ? {
            type: 'card',
            card: {
              brand: card.brand,
              last4: card.last4,
              exp_month: 12,
              exp_year: 2034,
              country: 'US',
              funding: 'credit',
              fingerprint: `fp${card.last4}${'x'.repeat(12)}`,
              network: card.brand,
              checks: { cvc_check: 'pass', address_line1_check: null, address_postal_code_check: null },
              three_d_secure: null,
              wallet: null,
            },
          }
        : null,
    };
    this.charges.set(charge.id as string, charge);
    intent.latest_charge = charge.id;
    return charge;
  }

  private succeed(intent: Json, paymentMethod: string): Json {
    const charge = this.newCharge(intent, 'succeeded', paymentMethod);
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, last_payment_error: null, next_action: null });
    this.emit('charge.succeeded', charge);
    this.emit('payment_intent.succeeded', intent);
    return intent;
  }

  private fail(intent: Json, error: { code: string; decline_code?: string; message: string }, paymentMethod: string): Json {
    const charge = this.newCharge(intent, 'failed', paymentMethod);
    Object.assign(intent, {
      status: 'requires_payment_method',
      payment_method: null,
      last_payment_error: { type: 'card_error', ...error, charge: charge.id },
    });
    this.emit('charge.failed', charge);
    this.emit('payment_intent.payment_failed', intent);
    return charge;
  }

  private cancel(intent: Json): Json {
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      throw invalidRequest(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
        { code: 'payment_intent_unexpected_state', payment_intent: intent },
      );
    }
    Object.assign(intent, { status: 'canceled', canceled_at: now(), cancellation_reason: 'requested_by_customer', next_action: null });
    this.emit('payment_intent.canceled', intent);
    return intent;
  }

  private createSession(form: Form): Json {
    if (str(form, 'mode') !== 'payment')
      throw invalidRequest('Missing required param: mode.', { code: 'parameter_missing', param: 'mode' });
    for (const param of ['success_url', 'cancel_url']) {
      if (!str(form, param)) throw invalidRequest(`Missing required param: ${param}.`, { code: 'parameter_missing', param });
    }
    const items = Array.isArray(form.line_items) ? (form.line_items as Form[]) : [];
    if (items.length === 0) throw invalidRequest('Missing required param: line_items.', { code: 'parameter_missing', param: 'line_items' });
    let total = 0;
    for (const item of items) {
      const price = obj(item, 'price_data');
      total += amountOf(str(price, 'unit_amount'), 'line_items[0][price_data][unit_amount]') * Number(str(item, 'quantity') ?? '1');
    }
    const expiresParam = str(form, 'expires_at');
    const expiresAt = expiresParam === undefined ? now() + 86_400 : Number(expiresParam);
    if (!Number.isSafeInteger(expiresAt) || expiresAt < now() + 1_800 - 60 || expiresAt > now() + 86_400) {
      throw invalidRequest('The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.', {
        param: 'expires_at',
      });
    }
    const sessionId = `cs_test_${randomBytes(20).toString('base64url').replace(/[-_]/g, 'z')}`;
    const session: Json = {
      id: sessionId,
      object: 'checkout.session',
      amount_subtotal: total,
      amount_total: total,
      cancel_url: str(form, 'cancel_url'),
      created: now(),
      currency: str(obj(items[0]!, 'price_data'), 'currency') ?? 'cad',
      customer_email: str(form, 'customer_email') ?? null,
      expires_at: expiresAt,
      livemode: false,
      metadata: metadataOf(form),
      mode: 'payment',
      payment_intent: null,
      payment_intent_data: obj(form, 'payment_intent_data'),
      payment_status: 'unpaid',
      status: 'open',
      success_url: str(form, 'success_url'),
      url: `https://checkout.stripe.com/c/pay/${sessionId}`,
    };
    this.sessions.set(sessionId, session);
    return this.presentSession(session);
  }

  private presentSession(session: Json): Json {
    const { payment_intent_data: _hidden, ...visible } = session;
    return { ...visible, url: visible.status === 'open' ? visible.url : null };
  }

  private refund(form: Form): Json {
    const intentId = str(form, 'payment_intent');
    if (!intentId) throw invalidRequest('Missing required param: payment_intent.', { code: 'parameter_missing', param: 'payment_intent' });
    const intent = this.intents.get(intentId);
    if (!intent) throw missing('payment_intent', intentId, 'payment_intent');
    const charge = intent.status === 'succeeded' ? this.charges.get(intent.latest_charge as string) : undefined;
    if (!charge) {
      throw invalidRequest(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`, {
        code: 'charge_not_refundable',
        param: 'payment_intent',
      });
    }
    const left = (charge.amount as number) - (charge.amount_refunded as number);
    if (left === 0) throw invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
    const amount = str(form, 'amount') === undefined ? left : Number(str(form, 'amount'));
    if (!Number.isInteger(amount) || amount < 1)
      throw invalidRequest(`Invalid integer: ${str(form, 'amount')}`, { code: 'parameter_invalid_integer', param: 'amount' });
    if (amount > left) {
      throw invalidRequest(
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
        {
          code: 'amount_too_large',
          param: 'amount',
        },
      );
    }
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const refund: Json = {
      id: id('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      metadata: metadataOf(form),
      payment_intent: intentId,
      status: 'succeeded',
    };
    this.emit('refund.created', refund);
    this.emit('charge.refunded', charge);
    return refund;
  }

  private emit(type: string, object: Json) {
    this.events.push({
      id: id('evt'),
      object: 'event',
      api_version: STRIPE_API_VERSION,
      created: now(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: id('req'), idempotency_key: null },
      type,
    });
  }
}
