import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import {
  evolvePromoCode,
  initialPromoCodeState,
  keptDiscountCents,
  type PromoCodeEvent,
  type PromoCodeState,
  type PromoTerms,
} from './promoCode.ts';
import { type PromoTermsInput, promoTermsOf, quoteWithPromo } from './promoTerms.ts';

export const PROMO_NOT_FOUND = 'Invalid promo code';
export const PROMO_EXISTS = 'A promo code with this id already exists';
export const PROMO_INACTIVE = 'This promo code is not active';
export const PROMO_NOT_YET_VALID = 'This promo code is not valid yet';
export const PROMO_EXPIRED = 'This promo code has expired';
export const PROMO_EXHAUSTED = 'This promo code has reached its maximum number of uses';
export const PROMO_PERSON_LIMIT = 'You have already used this promo code as many times as it allows';
export const ADMINS_ONLY = 'Only admins can manage promo codes';

/** How long a use stays held for a payment that neither succeeds nor fails (then a saga releases it). */
export const CLAIM_MINUTES = 30;

export type PromoCodeCommand =
  | Command<'CreatePromoCode', { promoCodeId: string; terms: PromoTermsInput }>
  | Command<'EditPromoCode', { promoCodeId: string; terms: PromoTermsInput }>
  /** `claimId`: the payment it is held for; `priceCents`: the package price the server computed. */
  | Command<'ClaimPromoUse', { promoCodeId: string; claimId: string; userId: string; priceCents: number }>
  | Command<'ReleasePromoUse', { promoCodeId: string; claimId: string; reason: 'payment_failed' | 'abandoned' | 'expired' }>
  | Command<
      'RedeemPromoCode',
      { promoCodeId: string; claimId: string; redemptionId: string; userId: string; purchaseId: string; priceCents: number }
    >
  /**
   * The purchase (`claimId`) was refunded: its use stops counting. `kept`: a partial refund, the
   * sessions the family kept of the package and the redemption's discount, which is reduced instead.
   */
  | Command<
      'RefundPromoUse',
      {
        promoCodeId: string;
        claimId: string;
        purchaseId: string;
        kept?: { credits: number; of: number; discountCents: number } | undefined;
      }
    >;

/** Uses that count against the limit at `now`: redemptions and claims not yet expired. */
export function usesAt(state: PromoCodeState, now: Date): number {
  const held = Object.values(state.claims).filter((c) => Date.parse(c.expiresAt) > now.getTime()).length;
  return state.redeemed.length + held;
}

/** The uses `userId` holds at `now`: their redemptions and their claims not yet expired. */
export function usesByAt(state: PromoCodeState, userId: string, now: Date): number {
  const held = Object.values(state.claims).filter((c) => c.userId === userId && Date.parse(c.expiresAt) > now.getTime()).length;
  return Object.values(state.redeemedBy).filter((by) => by === userId).length + held;
}

/**
 * Why a code cannot be used at `now` (by `userId`, when given), or null (spec part 2 §2: inactive,
 * not yet valid, expired, exhausted; and the optional per-person limit).
 */
export function refusalOf(state: PromoCodeState, now: Date, userId?: string): string | null {
  const terms = state.terms;
  if (!terms) return PROMO_NOT_FOUND;
  if (!terms.isActive) return PROMO_INACTIVE;
  if (terms.validFrom && Date.parse(terms.validFrom) > now.getTime()) return PROMO_NOT_YET_VALID;
  if (terms.validUntil && Date.parse(terms.validUntil) <= now.getTime()) return PROMO_EXPIRED;
  if (terms.maxUses !== null && usesAt(state, now) >= terms.maxUses) return PROMO_EXHAUSTED;
  const perPerson = terms.maxUsesPerPerson ?? null;
  if (userId !== undefined && perPerson !== null && usesByAt(state, userId, now) >= perPerson) return PROMO_PERSON_LIMIT;
  return null;
}

function usable(state: PromoCodeState, now: Date, userId: string): PromoTerms {
  const refusal = refusalOf(state, now, userId);
  if (refusal === PROMO_NOT_FOUND) throw new DomainError(refusal, 'not_found');
  if (refusal) throw new DomainError(refusal, 'conflict');
  return state.terms as PromoTerms;
}

function adminOnly(role: string | null | undefined) {
  if (role !== 'admin' && role !== 'system') throw new DomainError(ADMINS_ONLY, 'forbidden');
}

/**
 * A promo code's terms and its uses. The limits (in all, and per person when set) are enforced here, on the code's own stream: a use
 * is claimed when a payment starts (so concurrent checkouts cannot all pass a limit that only one
 * of them may take), released when it fails or is abandoned, and becomes a redemption when the
 * purchase completes.
 */
export const decidePromoCode = decideWith<PromoCodeCommand, PromoCodeEvent, PromoCodeState>({
  CreatePromoCode: ({ data, metadata }, state) => {
    adminOnly(metadata.actorRole);
    const terms = promoTermsOf(data.terms);
    if (state.terms) {
      if (JSON.stringify(state.terms) === JSON.stringify(terms)) return [];
      throw new DomainError(PROMO_EXISTS, 'conflict');
    }
    return [
      {
        type: 'PromoCodeCreated',
        data: { promoCodeId: data.promoCodeId, ...terms, createdBy: metadata.actorId ?? null, at: metadata.now.toISOString() },
      },
    ];
  },

  EditPromoCode: ({ data, metadata }, state) => {
    adminOnly(metadata.actorRole);
    if (!state.terms) throw new DomainError(PROMO_NOT_FOUND, 'not_found');
    const terms = promoTermsOf(data.terms);
    if (JSON.stringify(state.terms) === JSON.stringify(terms)) return [];
    return [{ type: 'PromoCodeEdited', data: { promoCodeId: data.promoCodeId, ...terms, at: metadata.now.toISOString() } }];
  },

  ClaimPromoUse: ({ data, metadata: { now } }, state) => {
    if (state.claims[data.claimId] || state.redeemed.includes(data.claimId) || state.refunded.includes(data.claimId)) return [];
    const terms = usable(state, now, data.userId);
    const { discountCents } = quoteWithPromo(terms, data.priceCents);
    const expiresAt = new Date(now.getTime() + CLAIM_MINUTES * 60_000).toISOString();
    return [
      {
        type: 'PromoUseClaimed',
        data: {
          promoCodeId: data.promoCodeId,
          claimId: data.claimId,
          userId: data.userId,
          discountCents,
          expiresAt,
          at: now.toISOString(),
        },
      },
    ];
  },

  ReleasePromoUse: ({ data, metadata: { now } }, state) =>
    state.claims[data.claimId] ? [{ type: 'PromoUseReleased', data: { ...data, at: now.toISOString() } }] : [],

  RedeemPromoCode: ({ data, metadata: { now } }, state) => {
    // Refunded before its fulfilment redeemed it: the use is gone for good.
    if (state.redeemed.includes(data.claimId) || state.refunded.includes(data.claimId)) return [];
    const claim = state.claims[data.claimId];
    const live = claim && Date.parse(claim.expiresAt) > now.getTime();
    // A payment that outlived its claim still redeems if the limit allows (an expired claim no
    // longer holds its place); otherwise the caller refunds the payment.
    if (!live) usable(state, now, data.userId);
    const discountCents = claim ? claim.discountCents : quoteWithPromo(state.terms as PromoTerms, data.priceCents).discountCents;
    return [
      {
        type: 'PromoCodeRedeemed',
        data: {
          promoCodeId: data.promoCodeId,
          claimId: data.claimId,
          redemptionId: data.redemptionId,
          userId: data.userId,
          purchaseId: data.purchaseId,
          discountCents,
          at: now.toISOString(),
        },
      },
    ];
  },

  RefundPromoUse: ({ data, metadata: { now } }, state) => {
    if (state.refunded.includes(data.claimId)) return [];
    const { kept, ...use } = data;
    const wasRedeemed = state.redeemed.includes(data.claimId);
    // Part of the package was kept: the redemption stays with the discount of what was kept.
    if (kept && kept.credits > 0 && wasRedeemed) {
      const discountCents = keptDiscountCents(kept.discountCents, kept);
      return [
        {
          type: 'PromoRedemptionReduced',
          data: { ...use, discountCents, refundedCents: kept.discountCents - discountCents, at: now.toISOString() },
        },
      ];
    }
    return [{ type: 'PromoUseRefunded', data: { ...use, wasRedeemed, at: now.toISOString() } }];
  },
});

export const promoCodeDecider: Decider<PromoCodeCommand, PromoCodeEvent, PromoCodeState> = {
  initialState: initialPromoCodeState,
  evolve: evolvePromoCode,
  decide: decidePromoCode,
};
