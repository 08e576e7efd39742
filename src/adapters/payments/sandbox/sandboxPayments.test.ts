import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/database.ts';
import { migrate } from '../../db/migrate.ts';
import type { PaymentError } from '../paymentPort.ts';
import { paymentsContract } from '../payments.contract.ts';
import { AUTHENTICATION_FAILED, cardOutcome, SandboxPayments } from './sandboxPayments.ts';

const CARD = { visa: '4242 4242 4242 4242', declined: '4000 0000 0000 0002', authentication: '4000 0025 0000 3155' } as const;
const PUBLIC_URL = 'http://127.0.0.1:3000';

paymentsContract('sandbox (PostgreSQL)', async () => {
  const db = await createTestDatabase('payments');
  await migrate(db.sql, { eventStore: true });
  const port = new SandboxPayments(db.sql, { publicUrl: PUBLIC_URL, environment: 'test' });
  return {
    port,
    payWithCard: async (id, card) => {
      await port.confirmWithCard(id, CARD[card]);
    },
    authenticate: async (id, approve) => {
      await port.completeAuthentication(id, approve);
    },
    completeCheckout: async (id) => {
      await port.completeCheckoutSession(id, CARD.visa);
    },
    async deliveries() {
      const events = await port.pendingEvents(1000);
      for (const event of events) await port.markDelivered(event.eventId);
      return events.map((event) => port.signedDelivery(event));
    },
    dispose: () => db.drop(),
  };
});

describe('sandbox payments', () => {
  let db: TestDatabase;
  let port: SandboxPayments;
  beforeAll(async () => {
    db = await createTestDatabase('paysbx');
    await migrate(db.sql, { eventStore: true });
    port = new SandboxPayments(db.sql, { publicUrl: `${PUBLIC_URL}/`, environment: 'development' });
  });
  afterAll(async () => db.drop());

  const failure = async (p: Promise<unknown>) =>
    (await p.then(
      () => null,
      (e: unknown) => e,
    )) as PaymentError | null;
  const intent = () =>
    port.createPaymentIntent({
      amountCents: 15_000,
      currency: 'cad',
      idempotencyKey: `k-${randomUUID()}`,
      description: 'Grade 7 English — 4 sessions',
      metadata: { purchaseId: randomUUID() },
    });
  const drain = async () => {
    for (const e of await port.pendingEvents(1000)) await port.markDelivered(e.eventId);
  };

  it('is refused in production', () => {
    expect(() => new SandboxPayments(db.sql, { publicUrl: PUBLIC_URL, environment: 'production' })).toThrow(
      /cannot be used in production.*STRIPE_SECRET_KEY/,
    );
    expect(port.kind).toBe('sandbox');
    expect(port.publishableKey).toBeNull();
  });

  it('honours Stripe’s test cards, spaces ignored, Luhn checked, anything else incorrect', async () => {
    expect(cardOutcome('4242424242424242').outcome.kind).toBe('succeed');
    expect(cardOutcome(' 4242 4242  4242 4242 ').outcome.kind).toBe('succeed');
    expect(cardOutcome('4000 0025 0000 3155').outcome.kind).toBe('authenticate');
    expect(cardOutcome('4000 0000 0000 0002').outcome).toMatchObject({ kind: 'decline', message: 'Your card was declined.' });
    expect(cardOutcome('4242 4242 4242 4241').outcome).toMatchObject({ kind: 'decline', message: 'Your card number is incorrect.' });
    expect(cardOutcome('5555 5555 5555 4444').outcome).toMatchObject({ kind: 'decline', message: 'Your card number is incorrect.' });
    expect(cardOutcome('not a card').outcome).toMatchObject({ kind: 'decline', message: 'Your card number is incorrect.' });

    const a = await intent();
    expect(await port.confirmWithCard(a.id, '4000 0000 0000 0002')).toEqual({
      status: 'requires_payment_method',
      message: 'Your card was declined.',
    });
    expect(await port.confirmWithCard(a.id, '1234')).toEqual({
      status: 'requires_payment_method',
      message: 'Your card number is incorrect.',
    });
    expect(await port.confirmWithCard(a.id, '4242 4242 4242 4242')).toEqual({ status: 'succeeded' });

    const b = await intent();
    expect(await port.confirmWithCard(b.id, '4000 0025 0000 3155')).toEqual({ status: 'requires_action' });
    expect(await port.completeAuthentication(b.id, false)).toEqual({ status: 'requires_payment_method', message: AUTHENTICATION_FAILED });
    expect(AUTHENTICATION_FAILED.startsWith('We are unable to authenticate your payment method.')).toBe(true);
    expect(await port.confirmWithCard(b.id, '4000 0025 0000 3155')).toEqual({ status: 'requires_action' });
    expect(await port.completeAuthentication(b.id, true)).toEqual({ status: 'succeeded' });
    expect(await port.completeAuthentication(a.id, true)).toEqual({ status: 'succeeded' });
  });

  it('keeps only the last 4 digits of a card', async () => {
    const a = await intent();
    await port.confirmWithCard(a.id, '4242 4242 4242 4242');
    const [row] = await db.sql<{ card_last4: string; whole: string }[]>`
      SELECT card_last4, row_to_json(i)::text AS whole FROM sandbox_payment_intents i WHERE id = ${a.id}`;
    expect(row!.card_last4).toBe('4242');
    const everything = await db.sql<{ text: string }[]>`
      SELECT string_agg(payload::text, ' ') AS text FROM sandbox_payment_events`;
    expect(`${row!.whole} ${everything[0]!.text}`).not.toContain('4242424242424242');
  });

  it('two confirms of one intent at once: one payment, the other sees it paid', async () => {
    await drain();
    const a = await intent();
    const results = await Promise.all(Array.from({ length: 6 }, () => port.confirmWithCard(a.id, CARD.visa)));
    expect(results).toEqual(Array.from({ length: 6 }, () => ({ status: 'succeeded' })));
    const events = await port.pendingEvents();
    expect(events.filter((e) => e.type === 'payment_intent.succeeded')).toHaveLength(1);
  });

  it('creates one intent for concurrent requests with the same idempotency key', async () => {
    const input = {
      amountCents: 9_900,
      currency: 'cad' as const,
      idempotencyKey: `k-${randomUUID()}`,
      description: 'x',
      metadata: { a: '1', b: '2' },
    };
    const created = await Promise.all(Array.from({ length: 5 }, () => port.createPaymentIntent(input)));
    expect(new Set(created.map((c) => c.id)).size).toBe(1);
    // key order does not make another request
    expect((await port.createPaymentIntent({ ...input, metadata: { b: '2', a: '1' } })).id).toBe(created[0]!.id);
    const [{ count }] = (await db.sql`SELECT count(*)::int AS count FROM sandbox_payment_intents WHERE amount_cents = 9900`) as unknown as [
      { count: number },
    ];
    expect(count).toBe(1);
    expect((await failure(port.refund({ paymentIntentId: created[0]!.id, idempotencyKey: input.idempotencyKey })))?.reason).toBe(
      'invalid_request',
    );
  });

  it('refuses a canceled intent at the card form and an unknown one', async () => {
    const a = await intent();
    await port.cancelPaymentIntent(a.id);
    expect((await failure(port.confirmWithCard(a.id, CARD.visa)))?.reason).toBe('invalid_request');
    expect((await failure(port.confirmWithCard('pi_nope', CARD.visa)))?.reason).toBe('not_found');
  });

  it('hosts checkout under /sandbox/checkout/{id}; a declined card leaves it open, 3-D Secure then completes it', async () => {
    await drain();
    const session = await port.createCheckoutSession({
      amountCents: 40_000,
      currency: 'cad',
      idempotencyKey: `k-${randomUUID()}`,
      description: 'Repurchase',
      metadata: { courseId: 'c-1' },
      successUrl: `${PUBLIC_URL}/repurchase/success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${PUBLIC_URL}/student`,
    });
    expect(session.url).toBe(`${PUBLIC_URL}/sandbox/checkout/${session.id}`);
    expect(await port.completeCheckoutSession(session.id, CARD.declined)).toEqual({
      status: 'requires_payment_method',
      message: 'Your card was declined.',
    });
    expect((await port.retrieveCheckoutSession(session.id)).status).toBe('open');
    expect(await port.completeCheckoutSession(session.id, CARD.authentication)).toEqual({ status: 'requires_action' });
    const { paymentIntentId } = await port.retrieveCheckoutSession(session.id);
    expect(await port.completeAuthentication(paymentIntentId!, true)).toEqual({ status: 'succeeded' });
    expect(await port.retrieveCheckoutSession(session.id)).toMatchObject({ status: 'complete', paymentStatus: 'paid', url: null });
    expect(await port.completeCheckoutSession(session.id, CARD.visa)).toEqual({ status: 'succeeded' });
    const types = (await port.pendingEvents()).map((e) => e.type);
    expect(types).toEqual(['payment_intent.payment_failed', 'payment_intent.succeeded', 'checkout.session.completed']);
  });

  it('the hosted page shows the order and where Pay and Cancel lead; its 3-D Secure step; nothing is paid once the session expired', async () => {
    const session = await port.createCheckoutSession({
      amountCents: 22_800,
      currency: 'cad',
      idempotencyKey: `k-${randomUUID()}`,
      description: 'Calculus 4 sessions',
      metadata: { purchaseId: 'r-1' },
      successUrl: `${PUBLIC_URL}/checkout?repurchase=true&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${PUBLIC_URL}/checkout?repurchase=true&cancelled=true`,
      expiresAt: Math.floor(Date.now() / 1000) + 31 * 60,
    });
    const page = await port.checkoutPage(session.id);
    expect(page).toMatchObject({
      description: 'Calculus 4 sessions',
      successUrl: `${PUBLIC_URL}/checkout?repurchase=true&session_id=${session.id}`,
      cancelUrl: `${PUBLIC_URL}/checkout?repurchase=true&cancelled=true`,
      requiresAction: false,
      checkoutSession: { id: session.id, status: 'open', amountCents: 22_800 },
    });
    expect((await failure(port.authenticateCheckoutSession(session.id, true)))?.reason).toBe('invalid_request');
    expect(await port.completeCheckoutSession(session.id, CARD.authentication)).toEqual({ status: 'requires_action' });
    expect((await port.checkoutPage(session.id)).requiresAction).toBe(true);
    // The session expires while the customer is asked to authenticate: the answer pays nothing.
    await db.sql`UPDATE sandbox_checkout_sessions SET expires_at = now() - interval '1 second' WHERE id = ${session.id}`;
    expect((await failure(port.authenticateCheckoutSession(session.id, true)))?.reason).toBe('invalid_request');
    expect((await failure(port.completeCheckoutSession(session.id, CARD.visa)))?.reason).toBe('invalid_request');
    expect(await port.retrieveCheckoutSession(session.id)).toMatchObject({ status: 'expired', paymentStatus: 'unpaid' });
    expect((await failure(port.checkoutPage('cs_sbx_unknown')))?.reason).toBe('not_found');
  });

  it('expires open checkout sessions', async () => {
    const shortLived = new SandboxPayments(db.sql, { publicUrl: PUBLIC_URL, environment: 'test', checkoutTtlSeconds: 0 });
    const session = await shortLived.createCheckoutSession({
      amountCents: 5_000,
      currency: 'cad',
      idempotencyKey: `k-${randomUUID()}`,
      description: 'x',
      metadata: {},
      successUrl: `${PUBLIC_URL}/ok`,
      cancelUrl: `${PUBLIC_URL}/no`,
    });
    expect(await shortLived.retrieveCheckoutSession(session.id)).toMatchObject({ status: 'expired', url: null });
    expect((await failure(shortLived.completeCheckoutSession(session.id, CARD.visa)))?.reason).toBe('invalid_request');
  });

  it('hands out events until marked delivered, in order, and wakes listeners after the commit', async () => {
    await drain();
    const woken: string[] = [];
    const listener = await port.listen((id) => woken.push(id));
    try {
      const a = await intent();
      await port.confirmWithCard(a.id, CARD.declined);
      await port.confirmWithCard(a.id, CARD.visa);
      const first = await port.pendingEvents();
      expect(first.map((e) => e.type)).toEqual(['payment_intent.payment_failed', 'payment_intent.succeeded']);
      expect(await port.pendingEvents()).toEqual(first); // not marked: handed out again
      await port.markDelivered(first[0]!.eventId);
      await port.markDelivered(first[0]!.eventId);
      expect((await port.pendingEvents()).map((e) => e.eventId)).toEqual([first[1]!.eventId]);
      await expect.poll(() => woken).toEqual(first.map((e) => e.eventId));
      // the same events can be posted to the webhook route, signed
      const { body, signature } = port.signedDelivery(first[1]!);
      expect(port.parseWebhook(Buffer.from(body), signature)).toEqual(first[1]);
      const stale = port.signedDelivery(first[1]!, Math.floor(Date.now() / 1000) - 301);
      expect(() => port.parseWebhook(stale.body, stale.signature)).toThrow(expect.objectContaining({ reason: 'invalid_signature' }));
      const other = new SandboxPayments(db.sql, { publicUrl: PUBLIC_URL, environment: 'test' });
      expect(() => other.parseWebhook(body, signature)).toThrow(expect.objectContaining({ reason: 'invalid_signature' }));
    } finally {
      await listener.unlisten();
    }
  });
});
