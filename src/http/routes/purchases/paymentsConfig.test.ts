import { afterAll, describe, expect, it } from 'vitest';
import { FakeStripeServer } from '../../../../tests/fakes/fakeStripeServer.ts';
import { createTestSystem, type TestSystem } from '../../../../tests/support/system.ts';
import { StripePayments } from '../../../adapters/payments/stripe/stripePayments.ts';
import { paymentsConfigSchema } from '../../../domain/purchases/purchaseApi.ts';
import { buildApp } from '../../app.ts';

/** Which card form checkout shows, and the CSP that lets Stripe's form load only where Stripe takes payments. */
const opened: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const o of opened.reverse()) await o.close();
});

async function appWith(env: Record<string, string>, options: Parameters<typeof createTestSystem>[2] = {}) {
  const system: TestSystem = await createTestSystem('api', env, options);
  opened.push({ close: () => system.dispose() });
  const app = await buildApp(system, { logger: false });
  opened.push(app);
  const res = await app.inject({ method: 'GET', url: '/api/payments/config' });
  expect(res.statusCode, res.body).toBe(200);
  return { config: paymentsConfigSchema.parse(res.json()), csp: String(res.headers['content-security-policy']) };
}

describe('payments config', () => {
  it('the sandbox: its own card form, no key, nothing of Stripe allowed by the CSP', async () => {
    const { config, csp } = await appWith({});
    expect(config).toEqual({ provider: 'sandbox', publishableKey: null });
    expect(csp).not.toContain('stripe.com');
    expect(csp).toContain("script-src 'self'");
  });

  it('Stripe: the publishable key for the Payment Element, and Stripe.js, its frames and API allowed', async () => {
    const fake = await FakeStripeServer.start();
    opened.push(fake);
    const payments = new StripePayments({
      secretKey: fake.secretKey,
      publishableKey: 'pk_test_topmark',
      webhookSecret: fake.webhookSecret,
      maxNetworkRetries: 0,
      ...fake.connection,
    });
    const { config, csp } = await appWith(
      { STRIPE_SECRET_KEY: fake.secretKey, STRIPE_PUBLISHABLE_KEY: 'pk_test_topmark', STRIPE_WEBHOOK_SECRET: fake.webhookSecret },
      { payments },
    );
    expect(config).toEqual({ provider: 'stripe', publishableKey: 'pk_test_topmark' });
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toContain('frame-src https://js.stripe.com https://hooks.stripe.com');
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
