import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeStripeServer, parseStripeForm, signStripePayload } from '../../../../tests/fakes/fakeStripeServer.ts';
import type { PaymentError } from '../paymentPort.ts';
import { paymentsContract } from '../payments.contract.ts';
import { STRIPE_API_VERSION, StripePayments } from './stripePayments.ts';

const CARD = { visa: 'pm_card_visa', declined: 'pm_card_chargeDeclined', authentication: 'pm_card_authenticationRequired' } as const;

paymentsContract('stripe (a local server speaking the Stripe API)', async () => {
  const fake = await FakeStripeServer.start();
  const port = new StripePayments({
    secretKey: fake.secretKey,
    webhookSecret: fake.webhookSecret,
    maxNetworkRetries: 0,
    ...fake.connection,
  });
  // What Stripe.js does in the browser: confirm with the client secret's intent and a card.
  const browser = new Stripe(fake.secretKey, { apiVersion: STRIPE_API_VERSION, maxNetworkRetries: 0, ...fake.connection });
  return {
    port,
    async payWithCard(id, card) {
      await browser.paymentIntents.confirm(id, { payment_method: CARD[card] }).catch((error: { type?: string }) => {
        if (error.type !== 'StripeCardError') throw error;
      });
    },
    authenticate: async (id, approve) => fake.completeAuthentication(id, approve),
    completeCheckout: async (id) => fake.completeCheckoutSession(id),
    deliveries: async () => fake.deliveries(),
    dispose: () => fake.close(),
  };
});

describe('stripe adapter', () => {
  let fake: FakeStripeServer;
  let port: StripePayments;
  beforeAll(async () => {
    fake = await FakeStripeServer.start();
    port = new StripePayments({
      secretKey: fake.secretKey,
      publishableKey: 'pk_test_123',
      webhookSecret: fake.webhookSecret,
      maxNetworkRetries: 0,
      ...fake.connection,
    });
  });
  afterAll(async () => fake.close());

  const failure = async (p: Promise<unknown>) =>
    (await p.then(
      () => null,
      (e: unknown) => e,
    )) as PaymentError | null;
  const input = () => ({
    amountCents: 25_650,
    currency: 'cad' as const,
    idempotencyKey: `purchase-${randomUUID()}`,
    description: 'Grade 11 Physics — 12 sessions',
    metadata: { purchaseId: 'p-1', promoCode: 'SAVE10' },
    customerEmail: 'parent@example.com',
  });

  it('sends form-encoded parameters with the idempotency key and the pinned API version', async () => {
    fake.requests.length = 0;
    const created = await port.createPaymentIntent(input());
    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/payment_intents',
      stripeVersion: STRIPE_API_VERSION,
      form: {
        amount: '25650',
        currency: 'cad',
        metadata: { purchaseId: 'p-1', promoCode: 'SAVE10' },
        automatic_payment_methods: { enabled: 'true' },
        receipt_email: 'parent@example.com',
      },
    });
    expect(request!.idempotencyKey).toMatch(/^purchase-/);
    expect(created.amountCents).toBe(25_650);
    expect(port.kind).toBe('stripe');
    expect(port.publishableKey).toBe('pk_test_123');
  });

  it('replays a retried create from Stripe’s idempotency store: one intent, one created event', async () => {
    fake.deliveries();
    const same = input();
    const [a, b] = await Promise.all([port.createPaymentIntent(same), port.createPaymentIntent(same)]);
    const c = await port.createPaymentIntent(same);
    expect(new Set([a.id, b.id, c.id]).size).toBe(1);
    expect(fake.deliveries().filter((d) => d.type === 'payment_intent.created')).toHaveLength(1);
  });

  it('reads the nested form encoding Stripe uses', () => {
    expect(parseStripeForm('line_items[0][price_data][unit_amount]=500&line_items[0][quantity]=1&metadata[a]=b&mode=payment')).toEqual({
      line_items: [{ price_data: { unit_amount: '500' }, quantity: '1' }],
      metadata: { a: 'b' },
      mode: 'payment',
    });
  });

  it('sends checkout sessions as one CAD line item with the metadata on the session and its payment intent', async () => {
    fake.requests.length = 0;
    const session = await port.createCheckoutSession({
      ...input(),
      successUrl: 'http://x/ok?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'http://x/no',
    });
    expect(session.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(fake.requests[0]).toMatchObject({
      path: '/v1/checkout/sessions',
      form: {
        mode: 'payment',
        line_items: [
          {
            quantity: '1',
            price_data: { currency: 'cad', unit_amount: '25650', product_data: { name: 'Grade 11 Physics — 12 sessions' } },
          },
        ],
        success_url: 'http://x/ok?session_id={CHECKOUT_SESSION_ID}',
        metadata: { purchaseId: 'p-1' },
        payment_intent_data: { metadata: { purchaseId: 'p-1' } },
        customer_email: 'parent@example.com',
      },
    });
  });

  it('reads the card that paid from the expanded latest charge: brand and last 4 digits, nothing more', async () => {
    const intent = await port.createPaymentIntent(input());
    expect(intent.card).toBeNull();
    fake.requests.length = 0;
    const paid = await port.confirmPaymentIntent(intent.id, { paymentMethod: 'pm_card_mastercard' });
    expect(paid.card).toEqual({ brand: 'mastercard', last4: '4444' });
    fake.requests.length = 0;
    const read = await port.retrievePaymentIntent(intent.id);
    expect(read.card).toEqual({ brand: 'mastercard', last4: '4444' });
    expect(fake.requests[0]).toMatchObject({
      method: 'GET',
      path: `/v1/payment_intents/${intent.id}`,
      form: { expand: ['latest_charge'] },
    });
    // Stripe's charge says more of the card (expiry, fingerprint, country): none of it is kept.
    expect(Object.keys(read.card ?? {}).sort()).toEqual(['brand', 'last4']);
    expect(JSON.stringify(read)).not.toMatch(/fingerprint|exp_year|2034/);

    // A webhook carries the charge as an id only: no card there (the purchase asks for the intent).
    const succeeded = fake
      .deliveries()
      .map((d) => port.parseWebhook(d.body, d.signature))
      .find((e) => e.type === 'payment_intent.succeeded' && e.paymentIntent.id === intent.id);
    expect(succeeded?.type === 'payment_intent.succeeded' && succeeded.paymentIntent.card).toBeNull();

    // A declined intent names no card.
    const other = await port.createPaymentIntent(input());
    await failure(port.confirmPaymentIntent(other.id, { paymentMethod: 'pm_card_chargeDeclined' }));
    expect((await port.retrievePaymentIntent(other.id)).card).toBeNull();
  });

  it('a decline is card_declined with Stripe’s message and the intent’s id', async () => {
    const intent = await port.createPaymentIntent(input());
    const declined = await failure(port.confirmPaymentIntent(intent.id, { paymentMethod: 'pm_card_chargeDeclined' }));
    expect(declined).toMatchObject({
      reason: 'card_declined',
      message: 'Your card was declined.',
      retryable: false,
      details: { code: 'card_declined', paymentIntentId: intent.id },
    });
  });

  it('maps rate limits and server errors to retryable errors, a wrong key to a non-retryable one', async () => {
    fake.failures.push({
      path: /payment_intents/,
      status: 429,
      body: { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests' } },
    });
    expect(await failure(port.createPaymentIntent(input()))).toMatchObject({ reason: 'rate_limited', retryable: true });
    fake.failures.push({ path: /payment_intents/, status: 500, body: { error: { type: 'api_error', message: 'Something went wrong' } } });
    expect(await failure(port.createPaymentIntent(input()))).toMatchObject({ reason: 'unavailable', retryable: true });
    const wrongKey = new StripePayments({ secretKey: 'sk_test_wrong', maxNetworkRetries: 0, ...fake.connection });
    expect(await failure(wrongKey.createPaymentIntent(input()))).toMatchObject({ reason: 'invalid_request', retryable: false });
    const nobody = new StripePayments({ secretKey: 'sk_test_x', maxNetworkRetries: 0, host: '127.0.0.1', port: 1, protocol: 'http' });
    expect(await failure(nobody.retrievePaymentIntent('pi_1'))).toMatchObject({ reason: 'unavailable', retryable: true });
  });

  describe('webhooks', () => {
    const succeededEvent = async () => {
      const intent = await port.createPaymentIntent(input());
      fake.deliveries();
      await port.confirmPaymentIntent(intent.id, { paymentMethod: 'pm_card_visa' });
      const event = fake.events.find(
        (e) => e.type === 'payment_intent.succeeded' && (e.data as { object: { id: string } }).object.id === intent.id,
      );
      return { intent, body: JSON.stringify(event) };
    };

    it('parses a payload signed as Stripe signs it (also Stripe’s own test header)', async () => {
      const { intent, body } = await succeededEvent();
      const parsed = port.parseWebhook(Buffer.from(body), signStripePayload(body, fake.webhookSecret));
      expect(parsed).toMatchObject({ type: 'payment_intent.succeeded', paymentIntent: { id: intent.id, status: 'succeeded' } });
      const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: fake.webhookSecret });
      expect(port.parseWebhook(body, header).eventId).toBe(parsed.eventId);
      expect(header).toBe(signStripePayload(body, fake.webhookSecret, Number(/t=(\d+)/.exec(header)![1])));
    });

    it('refuses a tampered body, a wrong secret, a stale timestamp, and any webhook without a configured secret', async () => {
      const { body } = await succeededEvent();
      const refused = (raw: string, header: string | undefined, p: StripePayments = port) => {
        try {
          p.parseWebhook(raw, header);
          return null;
        } catch (error) {
          return error as PaymentError;
        }
      };
      const good = signStripePayload(body, fake.webhookSecret);
      expect(refused(body.replace('25650', '100'), good)?.reason).toBe('invalid_signature');
      expect(refused(JSON.stringify(JSON.parse(body), null, 2), good)?.reason).toBe('invalid_signature');
      expect(refused(body, signStripePayload(body, 'whsec_wrong'))?.reason).toBe('invalid_signature');
      const stale = signStripePayload(body, fake.webhookSecret, Math.floor(Date.now() / 1000) - 301);
      expect(refused(body, stale)).toMatchObject({ reason: 'invalid_signature', message: expect.stringMatching(/tolerance/i) });
      expect(refused(body, 'garbage')?.reason).toBe('invalid_signature');
      const lenient = new StripePayments({ secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, webhookToleranceSeconds: 600 });
      expect(refused(body, stale, lenient)).toBeNull();
      const unconfigured = new StripePayments({ secretKey: fake.secretKey });
      expect(refused(body, good, unconfigured)?.reason).toBe('invalid_signature');
    });

    it('reads a delayed checkout payment that succeeded later as a completed, paid session', () => {
      const session = {
        id: 'cs_test_1',
        object: 'checkout.session',
        status: 'complete',
        payment_status: 'paid',
        payment_intent: 'pi_1',
        amount_total: 500,
        metadata: { courseId: 'c' },
        url: null,
      };
      const body = JSON.stringify({
        id: 'evt_2',
        object: 'event',
        type: 'checkout.session.async_payment_succeeded',
        created: 2,
        data: { object: session },
      });
      expect(port.parseWebhook(body, signStripePayload(body, fake.webhookSecret))).toMatchObject({
        type: 'checkout.session.completed',
        eventId: 'evt_2',
        session: { id: 'cs_test_1', paymentStatus: 'paid', paymentIntentId: 'pi_1', metadata: { courseId: 'c' } },
      });
    });

    it('acknowledges other event types as `other`', () => {
      const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'customer.created', created: 1, data: { object: {} } });
      expect(port.parseWebhook(body, signStripePayload(body, fake.webhookSecret))).toEqual({
        type: 'other',
        providerType: 'customer.created',
        eventId: 'evt_1',
        created: 1,
      });
    });
  });
});
