import type { CommandContext } from '../kit/commandContext.ts';
import { HOT_STREAM_ATTEMPTS, type PromoCodeHandlers } from './promoCodeHandlers.ts';

/**
 * A checkout's use of a code, decided on the code's own stream so that the limit holds however
 * many payments start at once. `claimId` is the payment (intent) the use is held for; `priceCents`
 * the package price the server computed. Checkout calls these (payment intent created → claim;
 * failed or abandoned → release; purchase completed → redeem).
 */
export interface PromoUse {
  promoCodeId: string;
  claimId: string;
  userId: string;
  priceCents: number;
}

export const claimPromoUse = (handlers: PromoCodeHandlers, use: PromoUse, ctx: CommandContext) =>
  handlers.promoCodes.handle(use.promoCodeId, { type: 'ClaimPromoUse', data: use }, ctx, { maxAttempts: HOT_STREAM_ATTEMPTS });

export const releasePromoUse = (
  handlers: PromoCodeHandlers,
  release: { promoCodeId: string; claimId: string; reason: 'payment_failed' | 'abandoned' | 'expired' },
  ctx: CommandContext,
) => handlers.promoCodes.handle(release.promoCodeId, { type: 'ReleasePromoUse', data: release }, ctx, { maxAttempts: HOT_STREAM_ATTEMPTS });

export const redeemPromoCode = (
  handlers: PromoCodeHandlers,
  redemption: PromoUse & { redemptionId: string; purchaseId: string },
  ctx: CommandContext,
) =>
  handlers.promoCodes.handle(redemption.promoCodeId, { type: 'RedeemPromoCode', data: redemption }, ctx, {
    maxAttempts: HOT_STREAM_ATTEMPTS,
  });

/** The purchase the use was for was refunded: its redemption (or held claim) stops counting. */
export const refundPromoUse = (
  handlers: PromoCodeHandlers,
  refund: { promoCodeId: string; claimId: string; purchaseId: string },
  ctx: CommandContext,
) => handlers.promoCodes.handle(refund.promoCodeId, { type: 'RefundPromoUse', data: refund }, ctx, { maxAttempts: HOT_STREAM_ATTEMPTS });
