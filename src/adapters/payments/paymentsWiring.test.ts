import { describe, expect, it } from 'vitest';
import { createTestSystem } from '../../../tests/support/system.ts';
import { createSystem } from '../../system.ts';
import { loadConfig } from '../config/config.ts';

describe('payments in the composition root', () => {
  it('uses the sandbox without Stripe keys, Stripe with them', async () => {
    const sandbox = await createTestSystem('cli');
    try {
      expect(sandbox.payments.kind).toBe('sandbox');
      expect(sandbox.payments.publishableKey).toBeNull();
      expect(sandbox.payments.sandbox).toBeDefined();
      expect(sandbox.payments.outbox).toBeDefined();
    } finally {
      await sandbox.dispose();
    }
    const stripe = await createTestSystem('cli', {
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    });
    try {
      expect(stripe.payments.kind).toBe('stripe');
      expect(stripe.payments.publishableKey).toBe('pk_test_x');
      expect(stripe.payments.sandbox).toBeUndefined();
      expect(stripe.payments.outbox).toBeUndefined();
    } finally {
      await stripe.dispose();
    }
  });

  it('refuses to start in production without Stripe, before touching anything', async () => {
    const config = loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', LOG_LEVEL: 'silent' });
    await expect(createSystem(config, 'cli')).rejects.toThrow(/NODE_ENV=production needs Stripe: set STRIPE_SECRET_KEY/);
  });
});
