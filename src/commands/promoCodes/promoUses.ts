import type { CommandContext } from '../kit/commandContext.ts';
import { compensating } from '../kit/processStep.ts';
import { retriedClaim } from '../kit/retriedClaim.ts';
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

/** Whether the code's stream still counts the use for `claimId` (held, redeemed or refunded; not given back). */
async function promoUseKept(handlers: PromoCodeHandlers, promoCodeId: string, claimId: string): Promise<boolean> {
  const state = await handlers.promoCodes.load(promoCodeId);
  return Boolean(state.claims[claimId]) || state.redeemed.includes(claimId) || state.refunded.includes(claimId);
}

/**
 * A checkout request's claim of a use, safe to retry after its compensation gave the use back: the
 * retried claim step would be answered "already handled" from the stream and the payment would go
 * on with no use held, so the claim is made again under the next step name (`retriedClaim`). The
 * compensation releases under `release-promo` + the returned suffix.
 */
export async function claimPromoUseOnce(
  handlers: PromoCodeHandlers,
  use: PromoUse,
  step: (name: string) => CommandContext,
): Promise<{ suffix: string }> {
  const { suffix } = await retriedClaim(
    step,
    'claim-promo',
    (ctx) => claimPromoUse(handlers, use, ctx),
    () => promoUseKept(handlers, use.promoCodeId, use.claimId),
  );
  return { suffix };
}

export const releasePromoUse = (
  handlers: PromoCodeHandlers,
  release: { promoCodeId: string; claimId: string; reason: 'payment_failed' | 'abandoned' | 'expired' },
  ctx: CommandContext,
) => handlers.promoCodes.handle(release.promoCodeId, { type: 'ReleasePromoUse', data: release }, ctx, { maxAttempts: HOT_STREAM_ATTEMPTS });

/**
 * Runs a checkout's `work` holding the code's use (nothing to hold without a code): the use is
 * claimed first (`claimPromoUseOnce`) and given back, as a failed payment's, if `work` fails.
 */
export async function holdingPromoUse<T>(
  handlers: PromoCodeHandlers,
  use: PromoUse | null,
  step: (name: string) => CommandContext,
  work: () => Promise<T>,
): Promise<T> {
  if (!use) return work();
  const { suffix } = await claimPromoUseOnce(handlers, use, step);
  return compensating(work, () =>
    releasePromoUse(
      handlers,
      { promoCodeId: use.promoCodeId, claimId: use.claimId, reason: 'payment_failed' },
      step(`release-promo${suffix}`),
    ),
  );
}

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
  refund: {
    promoCodeId: string;
    claimId: string;
    purchaseId: string;
    kept?: { credits: number; of: number; discountCents: number } | undefined;
  },
  ctx: CommandContext,
) => handlers.promoCodes.handle(refund.promoCodeId, { type: 'RefundPromoUse', data: refund }, ctx, { maxAttempts: HOT_STREAM_ATTEMPTS });
