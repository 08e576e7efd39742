import { type PromoCodeBody, promoCodeSchema, promoRedemptionSchema } from '@shared/promoCodes/promoCodeApi.ts';
import { api, jsonQuery } from '../../app/api.ts';

/** The admin's promo code calls (spec part 2 §7); answers read through `@shared/promoCodes/promoCodeApi.ts`. */
export const promoCodesApi = {
  listKey: ['/api/admin/promo-codes'] as const,
  list: jsonQuery('/api/admin/promo-codes', promoCodeSchema.array()),
  /** Every redemption (the endpoint is not filtered by code; the panel picks the selected code's). */
  redemptionsKey: ['/api/admin/promo-redemptions'] as const,
  redemptions: jsonQuery('/api/admin/promo-redemptions', promoRedemptionSchema.array()),
  create: (body: PromoCodeBody) => api.send('POST', '/api/admin/promo-codes', body, promoCodeSchema),
  update: (id: string, body: PromoCodeBody) => api.send('PATCH', `/api/admin/promo-codes/${encodeURIComponent(id)}`, body, promoCodeSchema),
};
