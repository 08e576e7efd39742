import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { PROMO_PERSON_LIMIT } from '../../domain/promoCodes/promoCodeDecider.ts';
import { findPromoCode } from '../../projections/promoCodes/queries.ts';
import { waitForProjections } from '../../projections/runner/projectionRunner.ts';
import { commandContext } from '../kit/commandContext.ts';
import { createPromoCode } from './managePromoCodes.ts';
import { promoCodeHandlers } from './promoCodeHandlers.ts';
import { claimPromoUse, redeemPromoCode, refundPromoUse } from './promoUses.ts';

/** Issue 23 item 5: a promo code's optional per-person limit, held on the code's stream. */

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem('all');
});
afterAll(() => system.dispose());

const admin = () => commandContext({ actorId: 'admin-1', actorRole: 'admin', now: system.clock.now() });
const as = (userId: string) => commandContext({ actorId: userId, actorRole: 'student', now: system.clock.now() });

describe('the per-person use limit on real PostgreSQL', () => {
  it('10 concurrent checkouts by one account on a code allowing 2 each: exactly 2 hold a use, another account still can', async () => {
    const handlers = promoCodeHandlers(system.store);
    const { promoCodeId } = await createPromoCode(
      handlers,
      { code: 'twice-each', discountType: 'percentage', discountValue: '10', maxUses: 100, maxUsesPerPerson: 2 },
      admin(),
    );
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, n) =>
        claimPromoUse(handlers, { promoCodeId, claimId: `pi-ann-${n}`, userId: 'ann', priceCents: 57_000 }, as('ann')),
      ),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(won).toHaveLength(2);
    expect(new Set(lost.map((o) => (o.reason as Error).message))).toEqual(new Set([PROMO_PERSON_LIMIT]));

    // Someone else is not held to Ann's uses.
    await claimPromoUse(handlers, { promoCodeId, claimId: 'pi-bob-1', userId: 'bob', priceCents: 57_000 }, as('bob'));

    // A redeemed use still counts; a refunded one gives the place back.
    const [first] = Object.keys((await handlers.promoCodes.load(promoCodeId)).claims).filter((id) => id.startsWith('pi-ann'));
    const claimId = first as string;
    await redeemPromoCode(
      handlers,
      { promoCodeId, claimId, userId: 'ann', priceCents: 57_000, redemptionId: 'r-ann', purchaseId: 'buy-ann' },
      as('ann'),
    );
    await expect(
      claimPromoUse(handlers, { promoCodeId, claimId: 'pi-ann-late', userId: 'ann', priceCents: 57_000 }, as('ann')),
    ).rejects.toThrow(PROMO_PERSON_LIMIT);
    await refundPromoUse(handlers, { promoCodeId, claimId, purchaseId: 'buy-ann' }, admin());
    await claimPromoUse(handlers, { promoCodeId, claimId: 'pi-ann-after-refund', userId: 'ann', priceCents: 57_000 }, as('ann'));

    expect(await waitForProjections(system.sql, ['promo_codes'], await system.store.committedPosition(), 30_000)).toBe(true);
    expect(await findPromoCode(system.sql, promoCodeId)).toMatchObject({ maxUses: 100, maxUsesPerPerson: 2 });
  });
});
