import type { Sql } from '../../adapters/db/db.ts';
import type { DiscountType } from '../../domain/promoCodes/promoCode.ts';
import type { ReadRowOf } from '../kit/table.ts';
import type { promoCodes, promoRedemptions } from './tables.ts';

type PromoRead = ReadRowOf<typeof promoCodes>;

/** A promo code as the admin API shows it (spec part 2 §3): the discount as a decimal string. */
export interface PromoCodeView {
  id: string;
  code: string;
  description: string | null;
  discountType: DiscountType;
  discountValue: string;
  maxUses: number | null;
  maxUsesPerPerson: number | null;
  currentUses: number;
  validFrom: string | null;
  validUntil: string | null;
  isActive: boolean;
  createdAt: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const view = (r: PromoRead): PromoCodeView => ({
  id: r.id,
  code: r.code,
  description: r.description,
  discountType: r.discount_type,
  discountValue: (r.discount_value / 100).toFixed(2),
  maxUses: r.max_uses,
  maxUsesPerPerson: r.max_uses_per_person,
  currentUses: r.current_uses,
  validFrom: iso(r.valid_from),
  validUntil: iso(r.valid_until),
  isActive: r.is_active,
  createdAt: r.created_at.toISOString(),
});

/** Every promo code, newest first. */
export async function listPromoCodes(sql: Sql): Promise<PromoCodeView[]> {
  const rows = await sql<PromoRead[]>`SELECT * FROM promo_codes ORDER BY created_at DESC, code`;
  return rows.map(view);
}

export async function findPromoCode(sql: Sql, promoCodeId: string): Promise<PromoCodeView | null> {
  const [row] = await sql<PromoRead[]>`SELECT * FROM promo_codes WHERE id = ${promoCodeId}`;
  return row ? view(row) : null;
}

/** The id of the code as typed (already upper-cased by the caller), or null: a look-up only, the code's stream decides. */
export async function promoCodeIdOf(sql: Sql, code: string): Promise<string | null> {
  const [row] = await sql<{ id: string }[]>`SELECT id FROM promo_codes WHERE code = ${code} ORDER BY created_at LIMIT 1`;
  return row?.id ?? null;
}

/** A redemption as the admin API shows it (spec part 2 §3): the discount in dollars. */
export interface PromoRedemptionView {
  id: string;
  promoCodeId: string;
  userId: string;
  purchaseId: string;
  discountAmount: number;
  redeemedAt: string;
}

/** Every redemption, newest first (the admin panel does not filter by code, spec part 2 §7). */
export async function listPromoRedemptions(sql: Sql): Promise<PromoRedemptionView[]> {
  const rows = await sql<ReadRowOf<typeof promoRedemptions>[]>`SELECT * FROM promo_redemptions ORDER BY redeemed_at DESC, id`;
  return rows.map((r) => ({
    id: r.id,
    promoCodeId: r.promo_code_id,
    userId: r.user_id,
    purchaseId: r.purchase_id,
    discountAmount: r.discount_cents / 100,
    redeemedAt: r.redeemed_at.toISOString(),
  }));
}
