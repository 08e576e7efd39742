import { DomainError } from '../../domain/kit/decider.ts';
import { ADMINS_ONLY, PROMO_NOT_FOUND } from '../../domain/promoCodes/promoCodeDecider.ts';
import { type PromoTermsInput, promoTermsOf } from '../../domain/promoCodes/promoTerms.ts';
import { type CommandContext, deterministicUuid } from '../kit/commandContext.ts';
import { compensating, stepOf } from '../kit/processStep.ts';
import { HOT_STREAM_ATTEMPTS, type PromoCodeHandlers, promoCodeReservationStreamId } from './promoCodeHandlers.ts';

function adminOnly(ctx: CommandContext) {
  if (ctx.actorRole !== 'admin' && ctx.actorRole !== 'system') throw new DomainError(ADMINS_ONLY, 'forbidden');
}

/** Claims `code` for the promo code, then runs `next`; the claim is given back when `next` fails. */
async function withCodeClaimed<T>(
  handlers: PromoCodeHandlers,
  promoCodeId: string,
  code: string,
  step: (name: string) => CommandContext,
  next: () => Promise<T>,
): Promise<T> {
  const stream = promoCodeReservationStreamId(code);
  await handlers.reservations.handle(stream, { type: 'ReservePromoCode', data: { promoCodeId } }, step('reserve-code'), {
    maxAttempts: HOT_STREAM_ATTEMPTS,
  });
  return compensating(next, () =>
    handlers.reservations.handle(stream, { type: 'ReleasePromoCodeReservation', data: { promoCodeId } }, step('release-code')),
  );
}

/**
 * Creating spans streams: the terms are checked first (nothing is claimed for bad input), the
 * code is claimed on its reservation stream (409 when taken), then the code's stream is created.
 * The id derives from the command id, so a retried request lands on the same streams.
 */
export async function createPromoCode(handlers: PromoCodeHandlers, input: PromoTermsInput, ctx: CommandContext) {
  adminOnly(ctx);
  const terms = promoTermsOf(input);
  const promoCodeId = deterministicUuid(`promoCode/${ctx.commandId}`);
  const step = stepOf(ctx);
  const result = await withCodeClaimed(handlers, promoCodeId, terms.code, step, () =>
    handlers.promoCodes.handle(promoCodeId, { type: 'CreatePromoCode', data: { promoCodeId, terms: input } }, step('create'), {
      expectNewStream: true,
    }),
  );
  return { promoCodeId, position: result.position };
}

/** An edit to another code claims the new code first, then edits, then gives the old code back. */
export async function editPromoCode(handlers: PromoCodeHandlers, promoCodeId: string, input: PromoTermsInput, ctx: CommandContext) {
  adminOnly(ctx);
  const current = (await handlers.promoCodes.load(promoCodeId)).terms;
  if (!current) throw new DomainError(PROMO_NOT_FOUND, 'not_found');
  const terms = promoTermsOf(input);
  const step = stepOf(ctx);
  const edit = () => handlers.promoCodes.handle(promoCodeId, { type: 'EditPromoCode', data: { promoCodeId, terms: input } }, step('edit'));
  if (terms.code === current.code) return edit();
  const result = await withCodeClaimed(handlers, promoCodeId, terms.code, step, edit);
  await handlers.reservations.handle(
    promoCodeReservationStreamId(current.code),
    { type: 'ReleasePromoCodeReservation', data: { promoCodeId } },
    step('release-old-code'),
  );
  return result;
}
