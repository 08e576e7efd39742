import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentError, PaymentEvent, PaymentPort } from './paymentPort.ts';

export interface PaymentsContractTarget {
  port: PaymentPort;
  /** The customer's browser confirms with a test card: 'visa' succeeds, 'declined' is declined, 'authentication' asks for 3-D Secure. */
  payWithCard(paymentIntentId: string, card: 'visa' | 'declined' | 'authentication'): Promise<void>;
  /** The customer answers the 3-D Secure challenge. */
  authenticate(paymentIntentId: string, approve: boolean): Promise<void>;
  /** The customer pays on the hosted checkout page with a card that succeeds. */
  completeCheckout(sessionId: string): Promise<void>;
  /** The provider's events since the last call, as webhook deliveries (raw body and signature header). */
  deliveries(): Promise<{ body: string; signature: string }[]>;
  dispose(): Promise<void>;
}

const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as PaymentError | null;

/** One behaviour, two adapters: Stripe (against a local server speaking its wire format) and the sandbox. */
export function paymentsContract(name: string, create: () => Promise<PaymentsContractTarget>): void {
  describe(`payments contract: ${name}`, () => {
    let h: PaymentsContractTarget;
    beforeAll(async () => {
      h = await create();
    });
    afterAll(async () => h?.dispose());

    const key = () => `contract-${randomUUID()}`;
    const intentInput = (idempotencyKey = key()) => ({
      amountCents: 38_000,
      currency: 'cad' as const,
      idempotencyKey,
      description: 'Grade 9 Math — 8 sessions',
      metadata: { purchaseId: `p-${randomUUID()}`, studentId: 's-1' },
    });
    const events = async (): Promise<PaymentEvent[]> => (await h.deliveries()).map((d) => h.port.parseWebhook(d.body, d.signature));
    const interesting = (list: PaymentEvent[]) => list.filter((e) => e.type !== 'other');

    it('creates a payment intent waiting for a card; a retry with the same key answers the same intent', async () => {
      const input = intentInput();
      const created = await h.port.createPaymentIntent(input);
      expect(created).toMatchObject({
        status: 'requires_payment_method',
        amountCents: 38_000,
        currency: 'cad',
        metadata: input.metadata,
        lastPaymentError: null,
      });
      expect(created.id).toMatch(/^pi_/);
      expect(created.clientSecret.startsWith(`${created.id}_secret_`)).toBe(true);
      const retried = await h.port.createPaymentIntent(input);
      expect(retried.id).toBe(created.id);
      expect(retried.clientSecret).toBe(created.clientSecret);
      expect((await h.port.retrievePaymentIntent(created.id)).id).toBe(created.id);
    });

    it('refuses the same idempotency key with other parameters, and bad amounts', async () => {
      const input = intentInput();
      await h.port.createPaymentIntent(input);
      const reused = await failure(h.port.createPaymentIntent({ ...input, amountCents: 1_000 }));
      expect(reused).toMatchObject({ reason: 'invalid_request', retryable: false });
      expect((await failure(h.port.createPaymentIntent({ ...intentInput(), amountCents: 12.5 })))?.reason).toBe('invalid_request');
      expect((await failure(h.port.createPaymentIntent({ ...intentInput(), amountCents: 10 })))?.reason).toBe('invalid_request');
    });

    it('answers not_found for an unknown intent or session', async () => {
      expect((await failure(h.port.retrievePaymentIntent('pi_doesnotexist')))?.reason).toBe('not_found');
      expect((await failure(h.port.retrieveCheckoutSession('cs_test_doesnotexist')))?.reason).toBe('not_found');
    });

    it('a good card succeeds and the provider says so in a signed event carrying the metadata', async () => {
      await h.deliveries();
      const input = intentInput();
      const intent = await h.port.createPaymentIntent(input);
      expect(intent.card).toBeNull();
      await h.payWithCard(intent.id, 'visa');
      // The card that paid, for the receipt: its brand and last 4 digits only.
      expect(await h.port.retrievePaymentIntent(intent.id)).toMatchObject({
        status: 'succeeded',
        lastPaymentError: null,
        card: { brand: 'visa', last4: '4242' },
      });
      const succeeded = interesting(await events());
      expect(succeeded.map((e) => e.type)).toEqual(['payment_intent.succeeded']);
      const [event] = succeeded;
      expect(event).toMatchObject({ paymentIntent: { id: intent.id, amountCents: 38_000, metadata: input.metadata } });
      expect(event!.eventId).toMatch(/^evt_/);
    });

    it('a declined card leaves the intent waiting for another card, with the decline message in the event', async () => {
      await h.deliveries();
      const intent = await h.port.createPaymentIntent(intentInput());
      await h.payWithCard(intent.id, 'declined');
      const after = await h.port.retrievePaymentIntent(intent.id);
      expect(after).toMatchObject({ status: 'requires_payment_method', lastPaymentError: { message: 'Your card was declined.' } });
      expect(after.card).toBeNull();
      const [failed] = interesting(await events());
      expect(failed).toMatchObject({
        type: 'payment_intent.payment_failed',
        failureMessage: 'Your card was declined.',
        paymentIntent: { id: intent.id },
      });
      // another card then succeeds
      await h.payWithCard(intent.id, 'visa');
      expect((await h.port.retrievePaymentIntent(intent.id)).status).toBe('succeeded');
    });

    it('confirming on the server with a declined test method throws card_declined with the message', async () => {
      const intent = await h.port.createPaymentIntent(intentInput());
      const declined = await failure(h.port.confirmPaymentIntent(intent.id, { paymentMethod: 'pm_card_chargeDeclined' }));
      expect(declined).toMatchObject({ reason: 'card_declined', message: 'Your card was declined.', retryable: false });
      const paid = await h.port.confirmPaymentIntent(intent.id, { paymentMethod: 'pm_card_visa' });
      expect(paid.status).toBe('succeeded');
    });

    it('a card asking for authentication waits in requires_action; approved it succeeds, failed it is declined', async () => {
      await h.deliveries();
      const approved = await h.port.createPaymentIntent(intentInput());
      await h.payWithCard(approved.id, 'authentication');
      expect((await h.port.retrievePaymentIntent(approved.id)).status).toBe('requires_action');
      expect((await h.port.retrievePaymentIntent(approved.id)).card).toBeNull();
      await h.authenticate(approved.id, true);
      expect(await h.port.retrievePaymentIntent(approved.id)).toMatchObject({
        status: 'succeeded',
        card: { brand: 'visa', last4: '3155' },
      });

      const refused = await h.port.createPaymentIntent(intentInput());
      await h.payWithCard(refused.id, 'authentication');
      await h.authenticate(refused.id, false);
      const after = await h.port.retrievePaymentIntent(refused.id);
      expect(after.status).toBe('requires_payment_method');
      expect(after.lastPaymentError?.message).toMatch(/^We are unable to authenticate your payment method\./);
      expect(interesting(await events()).map((e) => e.type)).toEqual(['payment_intent.succeeded', 'payment_intent.payment_failed']);
    });

    it('cancels an abandoned intent (twice is fine) but not a paid one', async () => {
      const intent = await h.port.createPaymentIntent(intentInput());
      expect((await h.port.cancelPaymentIntent(intent.id)).status).toBe('canceled');
      expect((await h.port.cancelPaymentIntent(intent.id)).status).toBe('canceled');
      const paid = await h.port.createPaymentIntent(intentInput());
      await h.payWithCard(paid.id, 'visa');
      expect((await failure(h.port.cancelPaymentIntent(paid.id)))?.reason).toBe('invalid_request');
    });

    it('creates a checkout session (idempotently) that completes once paid, with its metadata and intent', async () => {
      await h.deliveries();
      const input = {
        ...intentInput(),
        amountCents: 20_000,
        description: 'Repurchase: 4 sessions',
        successUrl: 'http://127.0.0.1:3000/repurchase/success?session_id={CHECKOUT_SESSION_ID}',
        cancelUrl: 'http://127.0.0.1:3000/student',
      };
      const created = await h.port.createCheckoutSession(input);
      expect(created.id).toMatch(/^cs_/);
      expect(created.url).toMatch(/^https?:\/\//);
      expect((await h.port.createCheckoutSession(input)).id).toBe(created.id);
      expect(await h.port.retrieveCheckoutSession(created.id)).toMatchObject({
        id: created.id,
        status: 'open',
        paymentStatus: 'unpaid',
        paymentIntentId: null,
        amountCents: 20_000,
        metadata: input.metadata,
      });
      await h.completeCheckout(created.id);
      const done = await h.port.retrieveCheckoutSession(created.id);
      expect(done).toMatchObject({ status: 'complete', paymentStatus: 'paid', metadata: input.metadata });
      expect(done.paymentIntentId).toMatch(/^pi_/);
      const paidIntent = await h.port.retrievePaymentIntent(done.paymentIntentId!);
      expect(paidIntent).toMatchObject({ status: 'succeeded', amountCents: 20_000, metadata: input.metadata });
      const completed = interesting(await events()).find((e) => e.type === 'checkout.session.completed');
      expect(completed).toMatchObject({
        session: { id: created.id, paymentStatus: 'paid', paymentIntentId: done.paymentIntentId, metadata: input.metadata },
      });
    });

    it('a checkout session takes an expiry 30 minutes to 24 hours ahead (idempotently), and refuses any other', async () => {
      const nowSeconds = Math.floor(Date.now() / 1000);
      const input = {
        ...intentInput(),
        amountCents: 20_000,
        description: 'Repurchase: 4 sessions',
        successUrl: 'http://127.0.0.1:3000/checkout?repurchase=true&session_id={CHECKOUT_SESSION_ID}',
        cancelUrl: 'http://127.0.0.1:3000/checkout?repurchase=true&cancelled=true',
        expiresAt: nowSeconds + 31 * 60,
      };
      const created = await h.port.createCheckoutSession(input);
      expect((await h.port.createCheckoutSession(input)).id).toBe(created.id);
      expect((await h.port.retrieveCheckoutSession(created.id)).status).toBe('open');
      const tooSoon = await failure(h.port.createCheckoutSession({ ...input, idempotencyKey: key(), expiresAt: nowSeconds + 60 }));
      expect(tooSoon?.reason).toBe('invalid_request');
      const tooLate = await failure(h.port.createCheckoutSession({ ...input, idempotencyKey: key(), expiresAt: nowSeconds + 2 * 86_400 }));
      expect(tooLate?.reason).toBe('invalid_request');
    });

    it('expires an open checkout session (twice is fine), which then takes no payment; a paid one stays complete', async () => {
      const input = {
        ...intentInput(),
        amountCents: 20_000,
        description: 'Repurchase: 8 sessions',
        successUrl: 'http://127.0.0.1:3000/checkout?repurchase=true&session_id={CHECKOUT_SESSION_ID}',
        cancelUrl: 'http://127.0.0.1:3000/checkout?repurchase=true&cancelled=true',
      };
      const open = await h.port.createCheckoutSession(input);
      expect(await h.port.expireCheckoutSession(open.id)).toMatchObject({
        id: open.id,
        status: 'expired',
        paymentStatus: 'unpaid',
        url: null,
      });
      expect((await h.port.expireCheckoutSession(open.id)).status).toBe('expired');
      expect(
        await h.completeCheckout(open.id).then(
          () => 'paid',
          () => 'refused',
        ),
      ).toBe('refused');
      expect((await h.port.retrieveCheckoutSession(open.id)).status).toBe('expired');

      const paid = await h.port.createCheckoutSession({ ...input, idempotencyKey: key() });
      await h.completeCheckout(paid.id);
      expect(await h.port.expireCheckoutSession(paid.id)).toMatchObject({ status: 'complete', paymentStatus: 'paid' });
      expect((await failure(h.port.expireCheckoutSession('cs_test_doesnotexist')))?.reason).toBe('not_found');
    });

    it('refunds part then the rest, idempotently, never more than was paid', async () => {
      await h.deliveries();
      const intent = await h.port.createPaymentIntent(intentInput());
      expect((await failure(h.port.refund({ paymentIntentId: intent.id, idempotencyKey: key() })))?.reason).toBe('invalid_request');
      await h.payWithCard(intent.id, 'visa');
      const partKey = key();
      const part = await h.port.refund({ paymentIntentId: intent.id, amountCents: 10_000, idempotencyKey: partKey });
      expect(part).toMatchObject({ paymentIntentId: intent.id, amountCents: 10_000, status: 'succeeded' });
      expect((await h.port.refund({ paymentIntentId: intent.id, amountCents: 10_000, idempotencyKey: partKey })).id).toBe(part.id);
      expect((await failure(h.port.refund({ paymentIntentId: intent.id, amountCents: 30_000, idempotencyKey: key() })))?.reason).toBe(
        'invalid_request',
      );
      const rest = await h.port.refund({ paymentIntentId: intent.id, idempotencyKey: key() });
      expect(rest.amountCents).toBe(28_000);
      const refunds = interesting(await events()).filter((e) => e.type === 'charge.refunded');
      expect(refunds).toMatchObject([
        { paymentIntentId: intent.id, amountRefundedCents: 10_000, amountCents: 38_000 },
        { paymentIntentId: intent.id, amountRefundedCents: 38_000, amountCents: 38_000 },
      ]);
    });

    it('refuses a webhook whose body was changed or whose signature is missing', async () => {
      const intent = await h.port.createPaymentIntent(intentInput());
      await h.payWithCard(intent.id, 'visa');
      const [delivery] = (await h.deliveries()).slice(-1);
      expect(h.port.parseWebhook(Buffer.from(delivery!.body, 'utf8'), delivery!.signature).eventId).toMatch(/^evt_/);
      const tampered = delivery!.body.replace('"succeeded"', '"canceled"');
      expect(() => h.port.parseWebhook(tampered, delivery!.signature)).toThrow(expect.objectContaining({ reason: 'invalid_signature' }));
      expect(() => h.port.parseWebhook(delivery!.body, undefined)).toThrow(expect.objectContaining({ reason: 'invalid_signature' }));
    });
  });
}
