import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { PROMO_EXHAUSTED } from '../../domain/promoCodes/promoCodeDecider.ts';
import { PROMO_CODE_TAKEN } from '../../domain/promoCodes/promoCodeReservationDecider.ts';
import { findPromoCode, listPromoRedemptions } from '../../projections/promoCodes/queries.ts';
import { waitForProjections } from '../../projections/runner/projectionRunner.ts';
import { commandContext } from '../kit/commandContext.ts';
import { createPromoCode } from './managePromoCodes.ts';
import { promoCodeHandlers } from './promoCodeHandlers.ts';
import { claimPromoUse, redeemPromoCode, releasePromoUse } from './promoUses.ts';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem('all');
});
afterAll(() => system.dispose());

const admin = () => commandContext({ actorId: 'admin-1', actorRole: 'admin', now: system.clock.now() });
const buyer = (n: number) => commandContext({ actorId: `u${n}`, actorRole: 'student', now: system.clock.now() });

describe('promo code uses on real PostgreSQL', () => {
  it('12 concurrent claims on a code limited to 5 uses: exactly 5 succeed, the rest are told it is used up', async () => {
    const handlers = promoCodeHandlers(system.store);
    const { promoCodeId } = await createPromoCode(
      handlers,
      { code: 'five', discountType: 'percentage', discountValue: '10', maxUses: 5 },
      admin(),
    );
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, n) =>
        claimPromoUse(handlers, { promoCodeId, claimId: `pi-${n}`, userId: `u${n}`, priceCents: 57_000 }, buyer(n)),
      ),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(won).toHaveLength(5);
    for (const o of lost) expect([o.reason instanceof DomainError, (o.reason as Error).message]).toEqual([true, PROMO_EXHAUSTED]);

    // A released use frees its place for the next checkout; a redeemed one counts once however often it is redeemed.
    const claimed = (await handlers.promoCodes.load(promoCodeId)).claims;
    const [first, second] = Object.keys(claimed);
    await releasePromoUse(handlers, { promoCodeId, claimId: first as string, reason: 'payment_failed' }, buyer(1));
    await claimPromoUse(handlers, { promoCodeId, claimId: 'pi-late', userId: 'u99', priceCents: 57_000 }, buyer(99));
    await expect(
      claimPromoUse(handlers, { promoCodeId, claimId: 'pi-later', userId: 'u98', priceCents: 57_000 }, buyer(98)),
    ).rejects.toThrow(PROMO_EXHAUSTED);
    const redemption = {
      promoCodeId,
      claimId: second as string,
      userId: 'u2',
      priceCents: 57_000,
      redemptionId: 'r-1',
      purchaseId: 'buy-1',
    };
    await redeemPromoCode(handlers, redemption, buyer(2));
    const again = await redeemPromoCode(handlers, redemption, buyer(2));
    expect(again.events).toEqual([]);

    expect(await waitForProjections(system.sql, ['promo_codes', 'promo_redemptions'], await system.store.committedPosition(), 30_000)).toBe(
      true,
    );
    expect(await findPromoCode(system.sql, promoCodeId)).toMatchObject({
      code: 'FIVE',
      currentUses: 1,
      maxUses: 5,
      discountValue: '10.00',
    });
    expect(await listPromoRedemptions(system.sql)).toEqual([
      expect.objectContaining({ id: 'r-1', promoCodeId, userId: 'u2', purchaseId: 'buy-1', discountAmount: 57 }),
    ]);
  });

  it('20 concurrent creates of one code: one is created, the rest are refused as taken', async () => {
    const handlers = promoCodeHandlers(system.store);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        createPromoCode(handlers, { code: 'race', discountType: 'fixed_amount', discountValue: '5' }, admin()),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as Error).message).toBe(PROMO_CODE_TAKEN);
  });
});
