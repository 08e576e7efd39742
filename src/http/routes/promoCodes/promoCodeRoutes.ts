import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createPromoCode, editPromoCode } from '../../../commands/promoCodes/managePromoCodes.ts';
import { admitPromoCheck, recordPromoMiss, sameCode } from '../../../commands/promoCodes/promoChecks.ts';
import { promoCodeHandlers } from '../../../commands/promoCodes/promoCodeHandlers.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { PACKAGE_NOT_FOUND } from '../../../domain/packages/package.ts';
import { normalizePromoCode } from '../../../domain/promoCodes/promoCode.ts';
import {
  promoCodeBodySchema,
  promoCodeSchema,
  promoRedemptionSchema,
  promoValidateBodySchema,
  promoValidationSchema,
} from '../../../domain/promoCodes/promoCodeApi.ts';
import { PROMO_NOT_FOUND, refusalOf } from '../../../domain/promoCodes/promoCodeDecider.ts';
import { quoteWithPromo } from '../../../domain/promoCodes/promoTerms.ts';
import { findPackage } from '../../../projections/packages/queries.ts';
import { findPromoCode, listPromoCodes, listPromoRedemptions, promoCodeIdOf } from '../../../projections/promoCodes/queries.ts';
import type { System } from '../../../system.ts';
import { FORBIDDEN, principalOf } from '../../kit/auth.ts';
import { contextFrom, idempotent } from '../../kit/commandRequest.ts';
import { promoCheckLimits } from '../../kit/rateLimits.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

const adminOnly = { roles: ['admin'] } as const;
/** Who may check a code at checkout: the buyers (a student, a parent) and admins; a view-only login buys nothing. */
const buyers = { roles: ['student', 'parent', 'admin'] } as const;
const promoProjections = ['promo_codes'] as const;

const messageSchema = z.object({ message: z.string() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function knownId(id: string): string {
  if (!UUID.test(id)) throw new DomainError(PROMO_NOT_FOUND, 'not_found');
  return id;
}

const dollars = (cents: number) => cents / 100;

/** The admin's promo codes (spec part 2 §7) and the check of a code at checkout. */
export const promoCodeRoutes =
  ({ sql, store, accounts, config }: Pick<System, 'sql' | 'store' | 'accounts' | 'config'>): FastifyPluginAsyncZod =>
  async (app) => {
    const handlers = promoCodeHandlers(store);
    const limiter = accounts.rateLimiter;
    const checkLimits = promoCheckLimits(config);
    const shown = async (promoCodeId: string, position: string | null) => {
      await readYourWrites(sql, promoProjections, position);
      const found = await findPromoCode(sql, promoCodeId);
      if (!found) throw new DomainError(PROMO_NOT_FOUND, 'not_found');
      return found;
    };

    app.get(
      '/api/admin/promo-codes',
      {
        config: adminOnly,
        schema: { tags: ['promo codes'], summary: 'Every promo code with its uses', response: { 200: z.array(promoCodeSchema) } },
      },
      () => listPromoCodes(sql),
    );

    app.post(
      '/api/admin/promo-codes',
      {
        config: adminOnly,
        schema: {
          tags: ['promo codes'],
          summary: 'Create a promo code; codes are stored upper-case and unique (409)',
          body: promoCodeBodySchema,
          response: { 201: promoCodeSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { promoCodeId, position } = await createPromoCode(handlers, request.body, ctx);
          return { status: 201, body: await shown(promoCodeId, position) };
        }),
    );

    app.patch(
      '/api/admin/promo-codes/:id',
      {
        config: adminOnly,
        schema: {
          tags: ['promo codes'],
          summary: 'Replace a promo code’s terms (every field); another code must be unused (409)',
          params: z.object({ id: z.string().max(100) }),
          body: promoCodeBodySchema,
          response: { 200: promoCodeSchema, 404: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const promoCodeId = knownId(request.params.id);
          const { position } = await editPromoCode(handlers, promoCodeId, request.body, ctx);
          return { status: 200, body: await shown(promoCodeId, position) };
        }),
    );

    app.get(
      '/api/admin/promo-redemptions',
      {
        config: adminOnly,
        schema: { tags: ['promo codes'], summary: 'Every redemption, newest first', response: { 200: z.array(promoRedemptionSchema) } },
      },
      () => listPromoRedemptions(sql),
    );

    app.post(
      '/api/promo-codes/validate',
      {
        config: buyers,
        schema: {
          tags: ['promo codes'],
          summary: 'The price of a package with a code (case-insensitive); the code’s own stream says whether it can be used',
          body: promoValidateBodySchema,
          response: { 200: promoValidationSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const { code, packageId, userId } = request.body;
        if (userId !== principal.userId && principal.role !== 'admin') throw new DomainError(FORBIDDEN, 'forbidden');
        // Counted per caller (an admin checking for someone spends the admin's allowance) and per address.
        await admitPromoCheck(limiter, checkLimits, principal.userId, request.ip).catch((error: unknown) => {
          const wait = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
          if (typeof wait === 'number') reply.header('retry-after', String(wait));
          throw error;
        });
        const unknown = async () => {
          await recordPromoMiss({ limiter, handlers }, checkLimits, principal.userId, contextFrom(request));
          return new DomainError(PROMO_NOT_FOUND, 'not_found');
        };
        const normalized = normalizePromoCode(code);
        const promoCodeId = await promoCodeIdOf(sql, normalized);
        if (!promoCodeId) throw await unknown();
        // The read model only finds the id; the code's stream holds its terms and its held uses.
        const state = await handlers.promoCodes.load(promoCodeId);
        const terms = state.terms;
        if (!terms || !sameCode(terms.code, normalized)) throw await unknown();
        const refusal = refusalOf(state, app.clock.now(), userId);
        if (refusal) throw new DomainError(refusal, 'conflict');
        const found = await findPackage(sql, packageId);
        if (!found) throw new DomainError(PACKAGE_NOT_FOUND, 'not_found');
        const quote = quoteWithPromo(terms, found.totalPriceCents);
        return {
          promoCode: { id: promoCodeId, code: terms.code, description: terms.description },
          originalPrice: dollars(quote.originalCents),
          discountAmount: dollars(quote.discountCents),
          finalPrice: dollars(quote.finalCents),
        };
      },
    );
  };
