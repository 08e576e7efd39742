import type { DiscountType } from '../../domain/promoCodes/promoCode.ts';
import { boolean, int, type RowOf, table, text, timestamptz } from '../kit/table.ts';

/**
 * Promo codes (spec part 1 §3 `promo_codes`): the discount in hundredths (of a percent, or cents).
 * `current_uses` counts redemptions (completed purchases); uses held by payments in progress are
 * counted on the code's stream, where the limit is enforced, and are not shown here.
 */
export const promoCodes = table(
  'promo_codes',
  {
    id: text().primaryKey(),
    code: text(),
    description: text().nullable(),
    discount_type: text<DiscountType>(),
    discount_value: int(),
    max_uses: int().nullable(),
    /** Uses one account may make; null: no limit per person. */
    max_uses_per_person: int().nullable(),
    current_uses: int().default(0),
    valid_from: timestamptz().nullable(),
    valid_until: timestamptz().nullable(),
    is_active: boolean().default(true),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  { indexes: [{ name: 'promo_codes_code', on: ['code'] }] },
);
export type PromoCodeRow = RowOf<typeof promoCodes>;

/** Redemptions (spec part 1 §3 `promo_redemptions`): one per completed purchase with a code. */
export const promoRedemptions = table(
  'promo_redemptions',
  {
    id: text().primaryKey(),
    promo_code_id: text(),
    user_id: text(),
    purchase_id: text(),
    discount_cents: int(),
    redeemed_at: timestamptz(),
  },
  { indexes: [{ name: 'promo_redemptions_code', on: ['promo_code_id'] }] },
);
export type PromoRedemptionRow = RowOf<typeof promoRedemptions>;
