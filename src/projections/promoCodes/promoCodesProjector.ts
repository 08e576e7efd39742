import { defineProjection } from '../kit/defineProjection.ts';
import { foldRows } from '../kit/foldRows.ts';
import { insertRows } from '../kit/writes.ts';
import { type PromoRedemptionRow, promoCodes, promoRedemptions } from './tables.ts';

/** The promo codes with their terms and redemption counts. */
export const promoCodesProjector = defineProjection({
  name: 'promo_codes',
  handles: ['PromoCodeCreated', 'PromoCodeEdited', 'PromoCodeRedeemed'],
  tables: [promoCodes],
  apply: (tx, events) =>
    foldRows(tx, promoCodes, events, {
      keyOf: (e) => e.data.promoCodeId,
      apply(row, e) {
        switch (e.type) {
          case 'PromoCodeCreated':
          case 'PromoCodeEdited': {
            const d = e.data;
            const terms = {
              code: d.code,
              description: d.description,
              discount_type: d.discountType,
              discount_value: d.discountValue,
              max_uses: d.maxUses,
              valid_from: d.validFrom,
              valid_until: d.validUntil,
              is_active: d.isActive,
              updated_at: d.at,
            };
            if (row) return { ...row, ...terms };
            return e.type === 'PromoCodeCreated' ? { id: d.promoCodeId, ...terms, current_uses: 0, created_at: d.at } : null;
          }
          case 'PromoCodeRedeemed':
            return row && { ...row, current_uses: row.current_uses + 1 };
        }
      },
    }),
});

/** Every redemption, once. */
export const promoRedemptionsProjector = defineProjection({
  name: 'promo_redemptions',
  handles: ['PromoCodeRedeemed'],
  tables: [promoRedemptions],
  async apply(tx, events) {
    const rows: PromoRedemptionRow[] = events.map(({ data }) => ({
      id: data.redemptionId,
      promo_code_id: data.promoCodeId,
      user_id: data.userId,
      purchase_id: data.purchaseId,
      discount_cents: data.discountCents,
      redeemed_at: data.at,
    }));
    await insertRows(tx, promoRedemptions, rows, 'nothing');
  },
});
