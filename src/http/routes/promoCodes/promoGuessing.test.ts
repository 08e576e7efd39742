import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../../../tests/support/system.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { seedPackages } from '../../../commands/packages/seedPackages.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { listPackages } from '../../../projections/packages/queries.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { buildApp } from '../../app.ts';

/**
 * Issue 23 item 5: checking promo codes is limited per account and per client address (the
 * defaults: 30 a minute per account, 60 a minute per address), and an account that keeps trying
 * codes that do not exist (20 in an hour) raises one alert.
 */

let system: TestSystem;
let app: FastifyInstance;
beforeAll(async () => {
  system = await createTestSystem('all');
  app = await buildApp(system, { logger: false });
  await seedSubjectCatalog(system);
  await seedPackages(system);
  const { userId } = await createStaffAccount(system.accounts, system.clock, {
    username: 'guess-admin',
    email: 'guess-admin@example.com',
    firstName: 'Gu',
    lastName: 'Ess',
    password: 'Guess-admin-2026!',
    role: 'admin',
  });
  admin = `tm_session=${(await system.signIns.create(userId, 'admin')).token}`;
  await waitForProjections(system.sql, ['users', 'packages'], await system.store.committedPosition(), 30_000);
  packageId = (await listPackages(system.sql))[0]?.id as string;
  const created = await app.inject({
    method: 'POST',
    url: '/api/admin/promo-codes',
    headers: { cookie: admin },
    payload: {
      code: 'REAL10',
      description: null,
      discountType: 'percentage',
      discountValue: '10',
      maxUses: null,
      validFrom: null,
      validUntil: null,
      isActive: true,
    },
  });
  if (created.statusCode !== 201) throw new Error(`promo ${created.statusCode} ${created.body}`);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await system?.dispose();
});

let admin: string;
let packageId: string;

const student = async (userId: string) => ({ userId, cookie: `tm_session=${(await system.signIns.create(userId, 'student')).token}` });

const check = (who: { userId: string; cookie: string }, code: string, address: string) =>
  app.inject({
    method: 'POST',
    url: '/api/promo-codes/validate',
    headers: { cookie: who.cookie },
    remoteAddress: address,
    payload: { code, packageId, userId: who.userId },
  });

const guessAlerts = async (userId: string) => {
  expect(await waitForProjections(system.sql, ['alerts'], await system.store.committedPosition(), 30_000)).toBe(true);
  return system.sql<
    { type: string; severity: string }[]
  >`SELECT type, severity FROM alerts WHERE type = 'promo_code_guessing' AND user_id = ${userId}`;
};

describe('promo code checks resist guessing', () => {
  it('an account gets 30 checks a minute, then a 429 saying when to try again; another account is unaffected', async () => {
    const guesser = await student('guesser-1');
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await check(guesser, `GUESS${i}`, '10.1.0.1')).statusCode);
    expect(new Set(statuses)).toEqual(new Set([404]));

    const refused = await check(guesser, 'REAL10', '10.1.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: expect.stringMatching(/^Too many promo code checks\. Please try again in (\d+ seconds?|1 minute)\.$/),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // From another address too: the limit is the account's.
    expect((await check(guesser, 'REAL10', '10.1.0.2')).statusCode).toBe(429);

    const neighbour = await student('neighbour-1');
    const found = await check(neighbour, 'real10', '10.1.0.1');
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ promoCode: { code: 'REAL10' } });
  });

  it('an address gets 60 checks a minute across accounts, then every account there is refused; another address is not', async () => {
    const address = '10.2.0.1';
    const accounts = await Promise.all([1, 2, 3].map((n) => student(`sharing-${n}`)));
    const statuses: number[] = [];
    for (const who of accounts) for (let i = 0; i < 20; i++) statuses.push((await check(who, 'REAL10', address)).statusCode);
    expect(new Set(statuses)).toEqual(new Set([200]));

    const fresh = await student('sharing-4');
    const refused = await check(fresh, 'REAL10', address);
    expect(refused.statusCode).toBe(429);
    expect((refused.json() as { message: string }).message).toMatch(/^Too many promo code checks/);
    expect((await check(fresh, 'REAL10', '10.2.0.2')).statusCode).toBe(200);
  });

  it('20 unknown codes within the hour raise one alert for that account, not for one that mistyped once', async () => {
    // guesser-1 tried 30 unknown codes in the first test.
    expect(await guessAlerts('guesser-1')).toEqual([{ type: 'promo_code_guessing', severity: 'medium' }]);
    const typo = await student('typo-1');
    expect((await check(typo, 'REAL1O', '10.3.0.1')).statusCode).toBe(404);
    expect(await guessAlerts('typo-1')).toEqual([]);

    // More misses in the same window record nothing more.
    const slow = await student('slow-guesser');
    for (let i = 0; i < 25; i++) expect((await check(slow, `NOPE${i}`, `10.4.0.${i}`)).statusCode).toBe(404);
    expect(await guessAlerts('slow-guesser')).toHaveLength(1);
    const [flags] = await system.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM es_events WHERE type = 'PromoCodeGuessingFlagged' AND data->>'userId' = 'slow-guesser'`;
    expect(flags?.n).toBe(1);
  });
});
