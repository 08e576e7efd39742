import { defineProjection } from '../kit/defineProjection.ts';
import { foldRows } from '../kit/foldRows.ts';
import { insertRows } from '../kit/writes.ts';
import { type PromoRedemptionRow, promoCodes, promoRedemptions } from './tables.ts';

/** The promo codes with their terms and redemption counts. */
export const promoCodesProjector = defineProjection({
  name: 'promo_codes',
  handles: ['PromoCodeCreated', 'PromoCodeEdited', 'PromoCodeRedeemed', 'PromoUseRefunded'],
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
              max_uses_per_person: d.maxUsesPerPerson ?? null,
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
          case 'PromoUseRefunded':
            return row && (e.data.wasRedeemed ? { ...row, current_uses: Math.max(0, row.current_uses - 1) } : row);
        }
      },
    }),
});

/**
 * Every redemption, once; a refunded purchase's redemption is gone, and a partly refunded one stays
 * with the discount of the sessions kept.
 */
export const promoRedemptionsProjector = defineProjection({
  name: 'promo_redemptions',
  handles: ['PromoCodeRedeemed', 'PromoUseRefunded', 'PromoRedemptionReduced'],
  tables: [promoRedemptions],
  async apply(tx, events) {
    const refunds = events.filter((e) => e.type !== 'PromoCodeRedeemed');
    if (refunds.length > 0) {
      // Rare: written in log order, so a redemption and its refund in one batch end as the refund left it.
      for (const e of events) {
        if (e.type === 'PromoCodeRedeemed') await insertRows(tx, promoRedemptions, [redemptionRow(e.data)], 'nothing');
        else if (e.type === 'PromoRedemptionReduced')
          await tx`UPDATE promo_redemptions SET discount_cents = ${e.data.discountCents}
            WHERE purchase_id = ${e.data.purchaseId} AND promo_code_id = ${e.data.promoCodeId}`;
        else await tx`DELETE FROM promo_redemptions WHERE purchase_id = ${e.data.purchaseId} AND promo_code_id = ${e.data.promoCodeId}`;
      }
      return;
    }
    const rows = events.flatMap((e) => (e.type === 'PromoCodeRedeemed' ? [redemptionRow(e.data)] : []));
    await insertRows(tx, promoRedemptions, rows, 'nothing');
  },
});

const redemptionRow = (data: {
  redemptionId: string;
  promoCodeId: string;
  userId: string;
  purchaseId: string;
  discountCents: number;
  at: string;
}): PromoRedemptionRow => ({
  id: data.redemptionId,
  promo_code_id: data.promoCodeId,
  user_id: data.userId,
  purchase_id: data.purchaseId,
  discount_cents: data.discountCents,
  redeemed_at: data.at,
});
