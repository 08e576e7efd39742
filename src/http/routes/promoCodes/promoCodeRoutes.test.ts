import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { seedPackages } from '../../../commands/packages/seedPackages.ts';
import { promoCodeHandlers } from '../../../commands/promoCodes/promoCodeHandlers.ts';
import { claimPromoUse, redeemPromoCode } from '../../../commands/promoCodes/promoUses.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { type PromoCode, promoCodeSchema, promoRedemptionSchema, promoValidationSchema } from '../../../domain/promoCodes/promoCodeApi.ts';
import {
  PROMO_EXHAUSTED,
  PROMO_EXPIRED,
  PROMO_INACTIVE,
  PROMO_NOT_FOUND,
  PROMO_NOT_YET_VALID,
} from '../../../domain/promoCodes/promoCodeDecider.ts';
import { PROMO_CODE_TAKEN } from '../../../domain/promoCodes/promoCodeReservationDecider.ts';
import {
  CODE_CHARACTERS,
  CODE_REQUIRED,
  CODE_TOO_LONG,
  DATE_INVALID,
  DISCOUNT_NOT_POSITIVE,
  DISCOUNT_TYPE_INVALID,
  MAX_USES_INVALID,
  PERCENTAGE_OVER_100,
  VALIDITY_INVALID,
} from '../../../domain/promoCodes/promoTerms.ts';
import { listPackages } from '../../../projections/packages/queries.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

let admin: string;
let student: { cookie: string; userId: string };
let other: { cookie: string; userId: string };
let tutor: string;
/** Grade 11-12, 8 sessions: $570. */
let packageId: string;

beforeAll(async () => {
  await seedSubjectCatalog(system);
  await seedPackages(system);
  const { userId } = await createStaffAccount(system.accounts, system.clock, {
    username: 'promo-admin',
    email: 'promo-admin@example.com',
    firstName: 'Pro',
    lastName: 'Mo',
    password: 'Promo-admin-2026!',
    role: 'admin',
  });
  await waitForProjections(system.sql, ['users', 'packages'], await system.store.committedPosition(), 30_000);
  admin = `tm_session=${(await system.signIns.create(userId, 'admin')).token}`;
  student = { userId: 'student-1', cookie: `tm_session=${(await system.signIns.create('student-1', 'student')).token}` };
  other = { userId: 'student-2', cookie: `tm_session=${(await system.signIns.create('student-2', 'student')).token}` };
  tutor = `tm_session=${(await system.signIns.create('tutor-1', 'tutor')).token}`;
  for (let i = 0; i < 300; i++) {
    const found = (await listPackages(system.sql)).find((p) => p.gradeTier.id === 'grade_11_12' && p.sessionCount === 8);
    if (found) {
      packageId = found.id;
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
});

const valid = {
  code: 'save10',
  description: 'Ten percent off',
  discountType: 'percentage',
  discountValue: '10',
  maxUses: null,
  validFrom: null,
  validUntil: null,
  isActive: true,
};

const call = (
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  cookie: string | null,
  payload?: unknown,
  headers: Record<string, string> = {},
) =>
  app.inject({
    method,
    url,
    headers: { ...(cookie ? { cookie } : {}), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const create = (body: unknown, headers?: Record<string, string>) => call('POST', '/api/admin/promo-codes', admin, body, headers);
const edit = (id: string, body: unknown) => call('PATCH', `/api/admin/promo-codes/${id}`, admin, body);
const validate = (body: unknown, cookie = student.cookie) => call('POST', '/api/promo-codes/validate', cookie, body);
const promoEventCount = async () =>
  Number((await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events WHERE type LIKE 'PromoCode%'`)[0]?.n);

describe('admin promo codes', () => {
  let save10: PromoCode;

  it('creates a code stored upper-case, the discount as a decimal string, and lists it', async () => {
    const res = await create(valid);
    expect(res.statusCode, res.body).toBe(201);
    save10 = promoCodeSchema.parse(res.json());
    expect(save10).toMatchObject({
      code: 'SAVE10',
      description: 'Ten percent off',
      discountType: 'percentage',
      discountValue: '10.00',
      maxUses: null,
      currentUses: 0,
      validFrom: null,
      validUntil: null,
      isActive: true,
    });
    const listed = await call('GET', '/api/admin/promo-codes', admin);
    expect(listed.statusCode).toBe(200);
    expect(promoCodeSchema.array().parse(listed.json())).toContainEqual(save10);
  });

  it('refuses a taken code with 409, in any case, also on an edit to it', async () => {
    const again = await create({ ...valid, code: 'Save10' });
    expect([again.statusCode, again.json().message]).toEqual([409, PROMO_CODE_TAKEN]);
    const fixed = await create({ ...valid, code: 'FIVE-OFF', discountType: 'fixed_amount', discountValue: '5.5', maxUses: 3 });
    expect(fixed.statusCode, fixed.body).toBe(201);
    const five = promoCodeSchema.parse(fixed.json());
    expect(five).toMatchObject({ discountType: 'fixed_amount', discountValue: '5.50', maxUses: 3 });
    const clash = await edit(five.id, { ...valid, code: 'save10' });
    expect([clash.statusCode, clash.json().message]).toEqual([409, PROMO_CODE_TAKEN]);
  });

  it('edits every field; a renamed code frees the old one', async () => {
    const res = await edit(save10.id, {
      ...valid,
      code: 'save15',
      discountValue: '15.25',
      maxUses: 10,
      validUntil: '2099-01-01T00:00:00.000Z',
      isActive: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: save10.id,
      code: 'SAVE15',
      discountValue: '15.25',
      maxUses: 10,
      validUntil: '2099-01-01T00:00:00.000Z',
      isActive: false,
    });
    const reuse = await create(valid);
    expect(reuse.statusCode, reuse.body).toBe(201);
    const back = await edit(save10.id, { ...valid, code: 'SAVE15' });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ isActive: true, maxUses: null, validUntil: null, discountValue: '10.00' });
    expect((await edit('00000000-0000-4000-8000-000000000000', valid)).statusCode).toBe(404);
    expect((await edit('not-an-id', valid)).statusCode).toBe(404);
  });

  it('20 concurrent creates of one code: one 201, the rest 409', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => create({ ...valid, code: 'rush' })));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(409)]);
  });

  it('an Idempotency-Key replays the first answer', async () => {
    const headers = { 'idempotency-key': 'promo-create-once-1' };
    const first = await create({ ...valid, code: 'ONCE' }, headers);
    const second = await create({ ...valid, code: 'ONCE' }, headers);
    expect([first.statusCode, second.statusCode, second.headers['idempotent-replayed']]).toEqual([201, 201, 'true']);
    expect(second.json()).toEqual(first.json());
  });

  const bad: [string, Record<string, unknown>, string | null, number][] = [
    ['no code', { code: undefined }, CODE_REQUIRED, 400],
    ['an empty code', { code: '   ' }, CODE_REQUIRED, 400],
    ['a code of 51 characters', { code: 'X'.repeat(51) }, CODE_TOO_LONG, 400],
    ['a code with spaces', { code: 'TEN OFF' }, CODE_CHARACTERS, 400],
    ['a code that is a number', { code: 10 }, CODE_REQUIRED, 400],
    ['a NUL in the code', { code: 'A\u0000B' }, null, 400],
    ['a NUL in the description', { description: 'a\u0000b' }, null, 400],
    ['a 200 kB description', { description: 'x'.repeat(200_000) }, null, 400],
    ['a 1 MB description', { description: 'x'.repeat(1_000_000) }, null, 413],
    ['an unknown discount type', { discountType: 'bogus' }, DISCOUNT_TYPE_INVALID, 400],
    ['a discount of 0', { discountValue: '0' }, DISCOUNT_NOT_POSITIVE, 400],
    ['a discount of 0.001', { discountValue: '0.001' }, DISCOUNT_NOT_POSITIVE, 400],
    ['a negative discount', { discountValue: '-1' }, DISCOUNT_NOT_POSITIVE, 400],
    ['a discount that is not a number', { discountValue: 'ten' }, DISCOUNT_NOT_POSITIVE, 400],
    ['a discount that is an object', { discountValue: { v: 1 } }, DISCOUNT_NOT_POSITIVE, 400],
    ['a percentage over 100', { discountValue: '100.01' }, PERCENTAGE_OVER_100, 400],
    ['max uses of 0', { maxUses: 0 }, MAX_USES_INVALID, 400],
    ['max uses of 1.5', { maxUses: 1.5 }, MAX_USES_INVALID, 400],
    ['max uses as text', { maxUses: 'many' }, MAX_USES_INVALID, 400],
    ['an unreadable date', { validFrom: 'tomorrow' }, DATE_INVALID, 400],
    ['valid until before valid from', { validFrom: '2030-01-02T00:00:00Z', validUntil: '2030-01-01T00:00:00Z' }, VALIDITY_INVALID, 400],
    ['isActive as text', { isActive: 'yes' }, null, 400],
    ['an unknown field', { currentUses: 0 }, null, 400],
  ];
  it.each(bad)('refuses %s (nothing appended)', async (_what, change, message, status) => {
    const before = await promoEventCount();
    const res = await create({ ...valid, code: 'FRESH', ...change });
    expect(res.statusCode, res.body).toBe(status);
    if (message) expect(res.json().message).toBe(message);
    const edited = await edit(save10.id, { ...valid, code: 'SAVE15', ...change });
    expect(edited.statusCode).toBe(status);
    expect(await promoEventCount()).toBe(before);
  });

  it('answers 401 to anonymous callers and 403 to non-admins', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/promo-codes'],
      ['POST', '/api/admin/promo-codes'],
      ['PATCH', `/api/admin/promo-codes/${save10.id}`],
      ['GET', '/api/admin/promo-redemptions'],
    ] as const) {
      expect((await call(method, url, null, method === 'GET' ? undefined : valid)).statusCode).toBe(401);
      expect((await call(method, url, student.cookie, method === 'GET' ? undefined : valid)).statusCode).toBe(403);
      expect((await call(method, url, tutor, method === 'GET' ? undefined : valid)).statusCode).toBe(403);
    }
  });
});

describe('POST /api/promo-codes/validate', () => {
  const made = async (code: string, change: Record<string, unknown> = {}) => {
    const res = await create({ ...valid, code, ...change });
    expect(res.statusCode, res.body).toBe(201);
    return promoCodeSchema.parse(res.json());
  };

  it('prices the package on the server with the code, case-insensitive', async () => {
    const code = await made('TENOFF', { description: 'Ten' });
    const res = await validate({ code: ' tenoff ', packageId, userId: student.userId });
    expect(res.statusCode, res.body).toBe(200);
    expect(promoValidationSchema.parse(res.json())).toEqual({
      promoCode: { id: code.id, code: 'TENOFF', description: 'Ten' },
      originalPrice: 570,
      discountAmount: 57,
      finalPrice: 513,
    });
  });

  it('never goes below zero', async () => {
    await made('BIGFIXED', { discountType: 'fixed_amount', discountValue: '1000' });
    const res = await validate({ code: 'bigfixed', packageId, userId: student.userId });
    expect(res.json()).toMatchObject({ originalPrice: 570, discountAmount: 570, finalPrice: 0 });
  });

  it('says why a code cannot be used', async () => {
    await made('OFFNOW', { isActive: false });
    await made('SOON', { validFrom: '2099-01-01T00:00:00.000Z' });
    await made('GONE', { validFrom: '2000-01-01T00:00:00.000Z', validUntil: '2001-01-01T00:00:00.000Z' });
    const once = await made('ONCEONLY', { maxUses: 1 });
    const handlers = promoCodeHandlers(system.store);
    const ctx = () => commandContext({ actorId: other.userId, actorRole: 'student', now: system.clock.now() });
    await claimPromoUse(handlers, { promoCodeId: once.id, claimId: 'pi-1', userId: other.userId, priceCents: 57_000 }, ctx());
    for (const [code, status, message] of [
      ['nosuchcode', 404, PROMO_NOT_FOUND],
      ['X'.repeat(60), 404, PROMO_NOT_FOUND],
      ['offnow', 409, PROMO_INACTIVE],
      ['soon', 409, PROMO_NOT_YET_VALID],
      ['gone', 409, PROMO_EXPIRED],
      ['onceonly', 409, PROMO_EXHAUSTED],
    ] as const) {
      const res = await validate({ code, packageId, userId: student.userId });
      expect([res.statusCode, res.json().message], code.slice(0, 12)).toEqual([status, message]);
    }
    // Redeemed, the use shows in the admin's lists.
    await redeemPromoCode(
      handlers,
      { promoCodeId: once.id, claimId: 'pi-1', userId: other.userId, priceCents: 57_000, redemptionId: 'red-1', purchaseId: 'buy-1' },
      ctx(),
    );
    await waitForProjections(system.sql, ['promo_codes', 'promo_redemptions'], await system.store.committedPosition(), 30_000);
    const redemptions = promoRedemptionSchema.array().parse((await call('GET', '/api/admin/promo-redemptions', admin)).json());
    expect(redemptions).toEqual([expect.objectContaining({ id: 'red-1', promoCodeId: once.id, userId: other.userId, discountAmount: 57 })]);
    const listed = promoCodeSchema.array().parse((await call('GET', '/api/admin/promo-codes', admin)).json());
    expect(listed.find((p) => p.id === once.id)).toMatchObject({ currentUses: 1, maxUses: 1 });
  });

  it('refuses someone else’s userId (403) unless an admin asks; an unknown package is 404', async () => {
    await made('MINE');
    const res = await validate({ code: 'MINE', packageId, userId: other.userId });
    expect(res.statusCode).toBe(403);
    expect((await validate({ code: 'MINE', packageId, userId: other.userId }, admin)).statusCode).toBe(200);
    const unknown = await validate({ code: 'MINE', packageId: 'nope', userId: student.userId });
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, 'Package not found']);
  });

  it('refuses bad input with 400, anonymous callers with 401, tutors with 403', async () => {
    for (const body of [
      {},
      { code: '', packageId, userId: student.userId },
      { code: 'MINE', packageId, userId: student.userId, amount: 1 },
      { code: 'MI\u0000NE', packageId, userId: student.userId },
      { code: 7, packageId, userId: student.userId },
      { code: 'x'.repeat(200_000), packageId, userId: student.userId },
    ]) {
      expect((await validate(body)).statusCode).toBe(400);
    }
    expect((await validate({ code: 'x'.repeat(1_000_000), packageId, userId: student.userId })).statusCode).toBe(413);
    expect((await call('POST', '/api/promo-codes/validate', null, { code: 'MINE', packageId, userId: 'x' })).statusCode).toBe(401);
    expect((await call('POST', '/api/promo-codes/validate', tutor, { code: 'MINE', packageId, userId: 'tutor-1' })).statusCode).toBe(403);
  });
});
