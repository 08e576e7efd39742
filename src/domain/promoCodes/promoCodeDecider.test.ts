import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { fold } from '../kit/decider.ts';
import type { PromoCodeEvent } from './promoCode.ts';
import {
  ADMINS_ONLY,
  CLAIM_MINUTES,
  PROMO_EXHAUSTED,
  PROMO_EXPIRED,
  PROMO_INACTIVE,
  PROMO_NOT_FOUND,
  PROMO_NOT_YET_VALID,
  PROMO_PERSON_LIMIT,
  promoCodeDecider,
  refusalOf,
} from './promoCodeDecider.ts';
import {
  CODE_CHARACTERS,
  CODE_REQUIRED,
  CODE_TOO_LONG,
  DISCOUNT_NOT_POSITIVE,
  MAX_USES_INVALID,
  PERCENTAGE_OVER_100,
  quoteWithPromo,
  VALIDITY_INVALID,
} from './promoTerms.ts';

const now = new Date('2026-11-23T12:00:00.000Z');
const at = now.toISOString();
const admin = { now, actorId: 'admin-1', actorRole: 'admin' };
const student = { now, actorId: 'u1', actorRole: 'student' };
const later = (minutes: number) => ({ ...student, now: new Date(now.getTime() + minutes * 60_000) });
const input = { code: ' save10 ', description: ' Ten percent ', discountType: 'percentage', discountValue: '10', maxUses: 2 };
const terms = {
  code: 'SAVE10',
  description: 'Ten percent',
  discountType: 'percentage' as const,
  discountValue: 1000,
  maxUses: 2,
  maxUsesPerPerson: null,
  validFrom: null,
  validUntil: null,
  isActive: true,
};
const created: PromoCodeEvent = { type: 'PromoCodeCreated', data: { promoCodeId: 'p1', ...terms, createdBy: 'admin-1', at } };
const expiresAt = new Date(now.getTime() + CLAIM_MINUTES * 60_000).toISOString();
const claimed = (claimId: string, userId = 'u1'): PromoCodeEvent => ({
  type: 'PromoUseClaimed',
  data: { promoCodeId: 'p1', claimId, userId, discountCents: 3000, expiresAt, at },
});
const claim = (claimId: string, metadata = student) => ({
  type: 'ClaimPromoUse' as const,
  data: { promoCodeId: 'p1', claimId, userId: 'u1', priceCents: 30000 },
  metadata,
});
const redeem = (claimId: string, metadata = student) => ({
  type: 'RedeemPromoCode' as const,
  data: { promoCodeId: 'p1', claimId, redemptionId: `r-${claimId}`, userId: 'u1', purchaseId: `buy-${claimId}`, priceCents: 30000 },
  metadata,
});
const redeemed = (claimId: string, at_ = at): PromoCodeEvent => ({
  type: 'PromoCodeRedeemed',
  data: {
    promoCodeId: 'p1',
    claimId,
    redemptionId: `r-${claimId}`,
    userId: 'u1',
    purchaseId: `buy-${claimId}`,
    discountCents: 3000,
    at: at_,
  },
});

describe('promo code decider', () => {
  const spec = deciderSpec(promoCodeDecider);

  it('creates a code upper-cased and trimmed, the discount in hundredths; only admins', () => {
    spec
      .given([])
      .when({ type: 'CreatePromoCode', data: { promoCodeId: 'p1', terms: input }, metadata: admin })
      .thenEvents([created]);
    spec
      .given([])
      .when({ type: 'CreatePromoCode', data: { promoCodeId: 'p1', terms: input }, metadata: student })
      .thenThrows(ADMINS_ONLY, 'forbidden');
    spec
      .given([created])
      .when({ type: 'CreatePromoCode', data: { promoCodeId: 'p1', terms: input }, metadata: admin })
      .thenNothing();
  });

  it('refuses terms the spec forbids, with its messages', () => {
    const refused: [Record<string, unknown>, string][] = [
      [{ code: '  ' }, CODE_REQUIRED],
      [{ code: 'X'.repeat(51) }, CODE_TOO_LONG],
      [{ code: 'TEN OFF' }, CODE_CHARACTERS],
      [{ discountValue: '0' }, DISCOUNT_NOT_POSITIVE],
      [{ discountValue: '0.001' }, DISCOUNT_NOT_POSITIVE],
      [{ discountValue: '-5' }, DISCOUNT_NOT_POSITIVE],
      [{ discountValue: '100.01' }, PERCENTAGE_OVER_100],
      [{ maxUses: 0 }, MAX_USES_INVALID],
      [{ validFrom: '2026-12-01T00:00:00Z', validUntil: '2026-11-30T00:00:00Z' }, VALIDITY_INVALID],
    ];
    for (const [change, message] of refused)
      spec
        .given([])
        .when({ type: 'CreatePromoCode', data: { promoCodeId: 'p1', terms: { ...input, ...change } }, metadata: admin })
        .thenThrows(message, 'invalid');
    // 50 characters and a 0.01 discount are allowed.
    const smallest = promoCodeDecider.decide(
      {
        type: 'CreatePromoCode',
        data: { promoCodeId: 'p1', terms: { ...input, code: 'X'.repeat(50), discountType: 'fixed_amount', discountValue: '0.01' } },
        metadata: admin,
      },
      promoCodeDecider.initialState,
    );
    expect(smallest[0]?.data).toMatchObject({ code: 'X'.repeat(50), discountValue: 1 });
  });

  it('edits the whole terms; an unchanged edit records nothing; an unknown code is not found', () => {
    spec
      .given([created])
      .when({ type: 'EditPromoCode', data: { promoCodeId: 'p1', terms: { ...input, isActive: false } }, metadata: admin })
      .thenEvents([{ type: 'PromoCodeEdited', data: { promoCodeId: 'p1', ...terms, isActive: false, at } }]);
    spec
      .given([created])
      .when({ type: 'EditPromoCode', data: { promoCodeId: 'p1', terms: input }, metadata: admin })
      .thenNothing();
    spec
      .given([])
      .when({ type: 'EditPromoCode', data: { promoCodeId: 'p1', terms: input }, metadata: admin })
      .thenThrows(PROMO_NOT_FOUND, 'not_found');
  });

  it('claims a use for a payment with the discount the server computes, once per payment', () => {
    spec
      .given([created])
      .when(claim('pi-1'))
      .thenEvents([claimed('pi-1')]);
    spec
      .given([created, claimed('pi-1')])
      .when(claim('pi-1'))
      .thenNothing();
    spec.given([]).when(claim('pi-1')).thenThrows(PROMO_NOT_FOUND, 'not_found');
  });

  it("holds each person to the optional per-person limit: their held claims and redemptions count, not others' uses", () => {
    const onceEach: PromoCodeEvent = {
      type: 'PromoCodeCreated',
      data: { promoCodeId: 'p1', ...terms, maxUses: null, maxUsesPerPerson: 1, createdBy: 'admin-1', at },
    };
    spec
      .given([onceEach, claimed('pi-1')])
      .when(claim('pi-2'))
      .thenThrows(PROMO_PERSON_LIMIT, 'conflict');
    spec
      .given([onceEach, claimed('pi-1'), redeemed('pi-1')])
      .when(claim('pi-2'))
      .thenThrows(PROMO_PERSON_LIMIT, 'conflict');
    const bob = { ...claim('pi-2'), data: { ...claim('pi-2').data, userId: 'bob' } };
    expect(promoCodeDecider.decide(bob, fold(promoCodeDecider, [onceEach, claimed('pi-1')])).map((e) => e.type)).toEqual([
      'PromoUseClaimed',
    ]);
    // A claim that expired unredeemed no longer counts.
    expect(
      promoCodeDecider.decide(claim('pi-2', later(CLAIM_MINUTES + 1)), fold(promoCodeDecider, [onceEach, claimed('pi-1')])),
    ).toHaveLength(1);
    expect(refusalOf(fold(promoCodeDecider, [onceEach, claimed('pi-1')]), now, 'u1')).toBe(PROMO_PERSON_LIMIT);
    expect(refusalOf(fold(promoCodeDecider, [onceEach, claimed('pi-1')]), now, 'bob')).toBeNull();
  });

  it('never lets uses pass the limit: held claims and redemptions both count', () => {
    spec
      .given([created, claimed('pi-1'), claimed('pi-2')])
      .when(claim('pi-3'))
      .thenThrows(PROMO_EXHAUSTED, 'conflict');
    spec
      .given([created, claimed('pi-1'), redeemed('pi-2')])
      .when(claim('pi-3'))
      .thenThrows(PROMO_EXHAUSTED, 'conflict');
    // A released claim frees its place; so does one that expired unreleased.
    spec
      .given([
        created,
        claimed('pi-1'),
        claimed('pi-2'),
        { type: 'PromoUseReleased', data: { promoCodeId: 'p1', claimId: 'pi-2', reason: 'payment_failed', at } },
      ])
      .when(claim('pi-3'))
      .thenEvents([claimed('pi-3')]);
    const afterExpiry = promoCodeDecider.decide(
      claim('pi-3', later(CLAIM_MINUTES)),
      fold(promoCodeDecider, [created, claimed('pi-1'), claimed('pi-2')]),
    );
    expect(afterExpiry.map((e) => e.type)).toEqual(['PromoUseClaimed']);
  });

  it('refuses inactive, not-yet-valid and expired codes with clear messages', () => {
    const withTerms = (change: Record<string, unknown>): PromoCodeEvent =>
      ({ ...created, data: { ...created.data, ...change } }) as PromoCodeEvent;
    spec
      .given([withTerms({ isActive: false })])
      .when(claim('pi-1'))
      .thenThrows(PROMO_INACTIVE, 'conflict');
    spec
      .given([withTerms({ validFrom: '2026-11-24T00:00:00.000Z' })])
      .when(claim('pi-1'))
      .thenThrows(PROMO_NOT_YET_VALID, 'conflict');
    spec
      .given([withTerms({ validUntil: at })])
      .when(claim('pi-1'))
      .thenThrows(PROMO_EXPIRED, 'conflict');
  });

  it('redeems a claimed use once; a late payment redeems only if the limit still allows', () => {
    spec
      .given([created, claimed('pi-1')])
      .when(redeem('pi-1'))
      .thenEvents([redeemed('pi-1')]);
    spec
      .given([created, claimed('pi-1'), redeemed('pi-1')])
      .when(redeem('pi-1'))
      .thenNothing();
    // pi-1's claim expired and two others took the places: its redemption would pass the limit.
    const afterExpiry = later(CLAIM_MINUTES + 1);
    const laterClaim = (id: string): PromoCodeEvent => ({
      type: 'PromoUseClaimed',
      data: { ...(claimed(id).data as object), expiresAt: new Date(afterExpiry.now.getTime() + 60_000).toISOString() } as never,
    });
    spec
      .given([created, claimed('pi-1'), laterClaim('pi-2'), laterClaim('pi-3')])
      .when(redeem('pi-1', afterExpiry))
      .thenThrows(PROMO_EXHAUSTED, 'conflict');
    spec
      .given([created, claimed('pi-1')])
      .when(redeem('pi-1', afterExpiry))
      .thenEvents([redeemed('pi-1', afterExpiry.now.toISOString())]);
  });

  it('releases only a held claim', () => {
    const release = {
      type: 'ReleasePromoUse' as const,
      data: { promoCodeId: 'p1', claimId: 'pi-1', reason: 'abandoned' as const },
      metadata: student,
    };
    spec
      .given([created, claimed('pi-1')])
      .when(release)
      .thenEvents([{ type: 'PromoUseReleased', data: { ...release.data, at } }]);
    spec.given([created]).when(release).thenNothing();
    spec
      .given([created, claimed('pi-1'), redeemed('pi-1')])
      .when(release)
      .thenNothing();
  });

  it('says why a code cannot be used, from its state', () => {
    const state = fold(promoCodeDecider, [created, redeemed('a'), redeemed('b')]);
    expect(refusalOf(state, now)).toBe(PROMO_EXHAUSTED);
    expect(refusalOf(fold(promoCodeDecider, [created]), now)).toBeNull();
  });
});

describe('price with a promo code', () => {
  it('rounds a percentage to the cent and never goes below zero', () => {
    expect(quoteWithPromo({ discountType: 'percentage', discountValue: 1000 }, 57_000)).toEqual({
      originalCents: 57_000,
      discountCents: 5_700,
      finalCents: 51_300,
    });
    expect(quoteWithPromo({ discountType: 'percentage', discountValue: 1250 }, 999)).toMatchObject({ discountCents: 125, finalCents: 874 });
    expect(quoteWithPromo({ discountType: 'percentage', discountValue: 10_000 }, 24_000)).toMatchObject({ finalCents: 0 });
    expect(quoteWithPromo({ discountType: 'fixed_amount', discountValue: 50_000 }, 24_000)).toMatchObject({
      discountCents: 24_000,
      finalCents: 0,
    });
  });
});
