import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { promoCodesProjector, promoRedemptionsProjector } from './promoCodesProjector.ts';
import { listPromoCodes, listPromoRedemptions, promoCodeIdOf } from './queries.ts';

const at = '2026-11-23T12:00:00.000Z';
const terms = {
  code: 'SAVE10',
  description: 'Ten percent',
  discountType: 'percentage' as const,
  discountValue: 1000,
  maxUses: 5,
  validFrom: null,
  validUntil: null,
  isActive: true,
};
const created = (id: string, code: string) =>
  event(`promoCode-${id}`, 'PromoCodeCreated', { promoCodeId: id, ...terms, code, createdBy: 'admin-1', at });
const redeemed = (id: string, n: number) =>
  event(`promoCode-${id}`, 'PromoCodeRedeemed', {
    promoCodeId: id,
    claimId: `pi-${n}`,
    redemptionId: `r-${id}-${n}`,
    userId: `u${n}`,
    purchaseId: `buy-${n}`,
    discountCents: 5700,
    at: `2026-11-23T12:0${n}:00.000Z`,
  });

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('promo codes, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('promos');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [promoCodesProjector, promoRedemptionsProjector], { batchSize });
  });
  afterAll(() => db.drop());

  it('a created code is listed with its discount as a decimal string; an edit replaces its terms', async () => {
    await spec.given(
      created('p1', 'SAVE10'),
      event('promoCode-p1', 'PromoCodeEdited', { promoCodeId: 'p1', ...terms, code: 'SAVE15', discountValue: 1525, isActive: false, at }),
    );
    expect(await listPromoCodes(db.sql)).toEqual([
      {
        id: 'p1',
        code: 'SAVE15',
        description: 'Ten percent',
        discountType: 'percentage',
        discountValue: '15.25',
        maxUses: 5,
        // Recorded before the per-person limit existed: none.
        maxUsesPerPerson: null,
        currentUses: 0,
        validFrom: null,
        validUntil: null,
        isActive: false,
        createdAt: at,
      },
    ]);
    expect(await promoCodeIdOf(db.sql, 'SAVE15')).toBe('p1');
    expect(await promoCodeIdOf(db.sql, 'SAVE10')).toBeNull();
  });

  it('currentUses counts redemptions; each redemption is listed once, in dollars, newest first', async () => {
    await spec.given(created('p2', 'TWO'), redeemed('p2', 1), redeemed('p2', 2));
    const listed = await listPromoCodes(db.sql);
    expect(listed.find((p) => p.id === 'p2')).toMatchObject({ currentUses: 2 });
    expect((await listPromoRedemptions(db.sql)).map((r) => [r.id, r.userId, r.discountAmount])).toEqual([
      ['r-p2-2', 'u2', 57],
      ['r-p2-1', 'u1', 57],
    ]);
  });

  it('a partial refund keeps the redemption, counted, with its amount reduced; a full refund removes it', async () => {
    await spec.given(
      created('p3', 'THREE'),
      redeemed('p3', 3),
      redeemed('p3', 4),
      // buy-3 refunded in part (2 of 4 sessions kept): half the discount stays.
      event('promoCode-p3', 'PromoRedemptionReduced', {
        promoCodeId: 'p3',
        claimId: 'pi-3',
        purchaseId: 'buy-3',
        discountCents: 2850,
        refundedCents: 2850,
        at,
      }),
      event('promoCode-p3', 'PromoUseRefunded', { promoCodeId: 'p3', claimId: 'pi-4', purchaseId: 'buy-4', wasRedeemed: true, at }),
    );
    expect((await listPromoCodes(db.sql)).find((p) => p.id === 'p3')).toMatchObject({ currentUses: 1 });
    const ofP3 = (await listPromoRedemptions(db.sql)).filter((r) => r.id.startsWith('r-p3-'));
    expect(ofP3.map((r) => [r.id, r.discountAmount])).toEqual([['r-p3-3', 28.5]]);
  });

  it('a rebuild from the log yields exactly the live rows', async () => {
    const live = await spec.snapshot();
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
    expect(spec.failures()).toEqual([]);
  });
});
