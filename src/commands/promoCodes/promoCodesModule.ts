import type { Clock } from '../../adapters/clock/clock.ts';
import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { RateLimiter } from '../../adapters/rateLimit/rateLimiter.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { PACKAGE_NOT_FOUND } from '../../domain/packages/package.ts';
import { normalizePromoCode } from '../../domain/promoCodes/promoCode.ts';
import { PROMO_NOT_FOUND, refusalOf } from '../../domain/promoCodes/promoCodeDecider.ts';
import { type PromoTermsInput, quoteWithPromo } from '../../domain/promoCodes/promoTerms.ts';
import { findPackage } from '../../projections/packages/queries.ts';
import { findPromoCode, listPromoCodes, listPromoRedemptions, promoCodeIdOf } from '../../projections/promoCodes/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { createPromoCode, editPromoCode } from './managePromoCodes.ts';
import { admitPromoCheck, type PromoCheckLimits, recordPromoMiss, sameCode } from './promoChecks.ts';
import { promoCodeHandlers } from './promoCodeHandlers.ts';
import { holdingPromoUse, type PromoUse } from './promoUses.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function knownId(id: string): string {
  if (!UUID.test(id)) throw new DomainError(PROMO_NOT_FOUND, 'not_found');
  return id;
}

const dollars = (cents: number) => cents / 100;

/**
 * What the promo codes feature needs, given by system.ts: the store and the read models, the
 * clock, and the shared rate limiter with the checks' limits from the settings.
 */
export interface PromoCodesModuleDeps {
  sql: Sql;
  store: EventStore;
  clock: Clock;
  limiter: RateLimiter;
  checkLimits: PromoCheckLimits;
}

/**
 * The promo codes feature (spec part 2 §7), built once by system.ts: the admin's codes and
 * redemptions, creating and editing a code, the check of a code at checkout (counted, and a
 * guesser flagged), and the code's stream and held use that the purchases feature is given.
 */
export function promoCodesModule(deps: PromoCodesModuleDeps) {
  const { sql, store, clock, limiter, checkLimits } = deps;
  const handlers = promoCodeHandlers(store);

  return {
    /** Every promo code with its uses. */
    list: () => listPromoCodes(sql),
    /** Every redemption, newest first. */
    redemptions: () => listPromoRedemptions(sql),
    /** One code as the admin's list shows it (after the write's read-your-writes); a 404 when it is not there. */
    async promoCode(promoCodeId: string) {
      const found = await findPromoCode(sql, promoCodeId);
      if (!found) throw new DomainError(PROMO_NOT_FOUND, 'not_found');
      return found;
    },

    create: (input: PromoTermsInput, ctx: CommandContext) => createPromoCode(handlers, input, ctx),
    async edit(promoCodeId: string, input: PromoTermsInput, ctx: CommandContext) {
      const { position } = await editPromoCode(handlers, knownId(promoCodeId), input, ctx);
      return { promoCodeId, position };
    },

    /** Counts a check against the caller's and the address's allowance (a 429 with `retryAfterSeconds` past either). */
    admitCheck: (userId: string, ip: string) => admitPromoCheck(limiter, checkLimits, userId, ip),

    /**
     * The price of a package with a code (case-insensitive) for `userId`; an unknown code is a
     * 404 counted as the caller's miss. The read model only finds the id: the code's stream holds
     * its terms and its held uses, and says whether it can be used (409 with the reason).
     */
    async validate(input: { code: string; packageId: string; userId: string; callerId: string }, ctx: CommandContext) {
      const unknown = async () => {
        await recordPromoMiss({ limiter, handlers }, checkLimits, input.callerId, ctx);
        return new DomainError(PROMO_NOT_FOUND, 'not_found');
      };
      const normalized = normalizePromoCode(input.code);
      const promoCodeId = await promoCodeIdOf(sql, normalized);
      if (!promoCodeId) throw await unknown();
      const state = await handlers.promoCodes.load(promoCodeId);
      const terms = state.terms;
      if (!terms || !sameCode(terms.code, normalized)) throw await unknown();
      const refusal = refusalOf(state, clock.now(), input.userId);
      if (refusal) throw new DomainError(refusal, 'conflict');
      const found = await findPackage(sql, input.packageId);
      if (!found) throw new DomainError(PACKAGE_NOT_FOUND, 'not_found');
      const quote = quoteWithPromo(terms, found.totalPriceCents);
      return {
        promoCode: { id: promoCodeId, code: terms.code, description: terms.description },
        originalPrice: dollars(quote.originalCents),
        discountAmount: dollars(quote.discountCents),
        finalPrice: dollars(quote.finalCents),
      };
    },

    /** The code's stream as it is now (its terms and held uses): what a checkout decides on. */
    state: (promoCodeId: string) => handlers.promoCodes.load(promoCodeId),
    /** Runs a checkout's `work` holding the code's use, given back if `work` fails. */
    holdingUse: <T>(use: PromoUse | null, step: (name: string) => CommandContext, work: () => Promise<T>) =>
      holdingPromoUse(handlers, use, step, work),
  };
}

export type PromoCodesModule = ReturnType<typeof promoCodesModule>;
