import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

export const discountTypes = ['percentage', 'fixed_amount'] as const;
export type DiscountType = (typeof discountTypes)[number];

/** The terms an admin sets (spec part 2 §3 "Promo code"); money in cents, a percentage in hundredths of a percent. */
export const promoTermsSchema = z.object({
  code: z.string(),
  description: z.string().nullable(),
  discountType: z.enum(discountTypes),
  /** Percentage: hundredths of a percent (10% = 1000); fixed amount: cents. */
  discountValue: z.number().int(),
  maxUses: z.number().int().nullable(),
  /** Uses one account may make (held or redeemed); null or absent (codes made before it existed): no limit. */
  maxUsesPerPerson: z.number().int().nullish(),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
  isActive: z.boolean(),
});
export type PromoTerms = z.output<typeof promoTermsSchema>;

export const promoCodeCreated = promoTermsSchema.extend({ promoCodeId: z.string(), createdBy: z.string().nullable(), at: z.string() });
/** The whole terms after the edit (an edit sends every field, spec part 2 §7 PATCH). */
export const promoCodeEdited = promoTermsSchema.extend({ promoCodeId: z.string(), at: z.string() });

/**
 * A use held for a payment in progress (`claimId`: the payment intent), counted against the
 * limit until it is redeemed, released, or expires.
 */
export const promoUseClaimed = z.object({
  promoCodeId: z.string(),
  claimId: z.string(),
  userId: z.string(),
  discountCents: z.number().int(),
  expiresAt: z.string(),
  at: z.string(),
});
export const promoUseReleased = z.object({
  promoCodeId: z.string(),
  claimId: z.string(),
  reason: z.enum(['payment_failed', 'abandoned', 'expired']),
  at: z.string(),
});
/** The purchase completed: the claimed use becomes a redemption (spec part 1 §3 `promo_redemptions`). */
export const promoCodeRedeemed = z.object({
  promoCodeId: z.string(),
  claimId: z.string(),
  redemptionId: z.string(),
  userId: z.string(),
  purchaseId: z.string(),
  discountCents: z.number().int(),
  at: z.string(),
});

/**
 * The purchase the use was for was refunded: its redemption (or a claim not yet redeemed) no longer
 * counts against the limit, and a late redemption of it changes nothing.
 */
export const promoUseRefunded = z.object({
  promoCodeId: z.string(),
  claimId: z.string(),
  purchaseId: z.string(),
  /** Whether a redemption was cancelled (the code's use count drops), rather than a held claim. */
  wasRedeemed: z.boolean(),
  at: z.string(),
});

/**
 * The purchase was refunded in part (sessions already used or booked were kept): the family kept
 * that share of the discounted package, so the redemption stays, counted, with the discount of what
 * was kept (issue 24 item 2). `discountCents` is the redemption's new amount.
 */
export const promoRedemptionReduced = z.object({
  promoCodeId: z.string(),
  claimId: z.string(),
  purchaseId: z.string(),
  discountCents: z.number().int(),
  /** The refunded share of the discount: what `discountCents` went down by. */
  refundedCents: z.number().int(),
  at: z.string(),
});

/**
 * The discount that stays with a partly refunded purchase: the refunded sessions' share of it goes,
 * rounded as the refund's own share of the price is (down), so the kept share is never below its due.
 */
export function keptDiscountCents(discountCents: number, kept: { credits: number; of: number }): number {
  if (kept.of < 1 || kept.credits >= kept.of) return discountCents;
  const refunded = Math.floor((discountCents * (kept.of - Math.max(0, kept.credits))) / kept.of);
  return discountCents - refunded;
}

export const promoCodeEvents = {
  PromoCodeCreated: eventType(promoCodeCreated, { describe: (d) => `Promo code ${d.code} created` }),
  PromoCodeEdited: eventType(promoCodeEdited, { describe: (d) => `Promo code ${d.code} edited` }),
  PromoUseClaimed: eventType(promoUseClaimed, { describe: () => 'Promo code use claimed for a payment' }),
  PromoUseReleased: eventType(promoUseReleased, { describe: (d) => `Promo code use released (${d.reason})` }),
  PromoCodeRedeemed: eventType(promoCodeRedeemed, { describe: () => 'Promo code redeemed' }),
  PromoUseRefunded: eventType(promoUseRefunded, { describe: () => 'Promo code use released (purchase refunded)' }),
  PromoRedemptionReduced: eventType(promoRedemptionReduced, {
    describe: (d) => `Promo redemption reduced to ${(d.discountCents / 100).toFixed(2)} (purchase refunded in part)`,
  }),
};

export type PromoCodeEvent = EventsOf<typeof promoCodeEvents>;

export interface PromoClaim {
  userId: string;
  discountCents: number;
  expiresAt: string;
}
export interface PromoCodeState {
  terms: PromoTerms | null;
  /** Uses held by payments in progress, by claim id. */
  claims: Record<string, PromoClaim>;
  /** Claim ids that became redemptions (a repeated redeem changes nothing). */
  redeemed: string[];
  /** Who made each redemption (claim id → user id), for the per-person limit. */
  redeemedBy: Record<string, string>;
  /** Claim ids whose purchase was refunded: never claimed nor redeemed again. */
  refunded: string[];
}
export const initialPromoCodeState: PromoCodeState = { terms: null, claims: {}, redeemed: [], redeemedBy: {}, refunded: [] };

export function evolvePromoCode(state: PromoCodeState, event: PromoCodeEvent): PromoCodeState {
  switch (event.type) {
    case 'PromoCodeCreated':
    case 'PromoCodeEdited': {
      const { promoCodeId: _id, at: _at, ...rest } = event.data;
      const terms: PromoTerms = {
        code: rest.code,
        description: rest.description,
        discountType: rest.discountType,
        discountValue: rest.discountValue,
        maxUses: rest.maxUses,
        maxUsesPerPerson: rest.maxUsesPerPerson ?? null,
        validFrom: rest.validFrom,
        validUntil: rest.validUntil,
        isActive: rest.isActive,
      };
      return { ...state, terms };
    }
    case 'PromoUseClaimed':
      return {
        ...state,
        claims: {
          ...state.claims,
          [event.data.claimId]: { userId: event.data.userId, discountCents: event.data.discountCents, expiresAt: event.data.expiresAt },
        },
      };
    case 'PromoUseReleased': {
      const { [event.data.claimId]: _released, ...claims } = state.claims;
      return { ...state, claims };
    }
    case 'PromoCodeRedeemed': {
      const { [event.data.claimId]: _redeemed, ...claims } = state.claims;
      return {
        ...state,
        claims,
        redeemed: [...state.redeemed, event.data.claimId],
        redeemedBy: { ...state.redeemedBy, [event.data.claimId]: event.data.userId },
      };
    }
    case 'PromoUseRefunded': {
      const { [event.data.claimId]: _refunded, ...claims } = state.claims;
      const { [event.data.claimId]: _by, ...redeemedBy } = state.redeemedBy;
      return {
        ...state,
        claims,
        redeemedBy,
        redeemed: state.redeemed.filter((id) => id !== event.data.claimId),
        refunded: [...state.refunded, event.data.claimId],
      };
    }
    case 'PromoRedemptionReduced':
      // Still a redemption (it keeps counting against the limits); refunded once, never again.
      return { ...state, refunded: [...state.refunded, event.data.claimId] };
    default:
      return state;
  }
}

export const promoCodeStreamId = (promoCodeId: string) => `promoCode-${promoCodeId}`;

/** Codes are compared and stored upper-case (spec part 2 §5: the code is uppercased). */
export const normalizePromoCode = (code: string) => code.normalize('NFC').trim().toUpperCase();
