import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError } from '../../../domain/kit/decider.ts';
import {
  promoCodeBodySchema,
  promoCodeSchema,
  promoRedemptionSchema,
  promoValidateBodySchema,
  promoValidationSchema,
} from '../../../domain/promoCodes/promoCodeApi.ts';
import type { System } from '../../../system.ts';
import { FORBIDDEN, principalOf } from '../../kit/auth.ts';
import { contextFrom, idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

const adminOnly = { roles: ['admin'] } as const;
/** Who may check a code at checkout: the buyers (a student, a parent) and admins; a view-only login buys nothing. */
const buyers = { roles: ['student', 'parent', 'admin'] } as const;
const promoProjections = ['promo_codes'] as const;

const messageSchema = z.object({ message: z.string() });

/** The admin's promo codes (spec part 2 §7) and the check of a code at checkout. */
export const promoCodeRoutes =
  ({ sql, promoCodes }: Pick<System, 'sql' | 'promoCodes'>): FastifyPluginAsyncZod =>
  async (app) => {
    /** The code as the read model shows it once it has the write at `position`. */
    const shown = async ({ promoCodeId, position }: { promoCodeId: string; position: string | null }) => {
      await readYourWrites(sql, promoProjections, position);
      return promoCodes.promoCode(promoCodeId);
    };

    app.get(
      '/api/admin/promo-codes',
      {
        config: adminOnly,
        schema: { tags: ['promo codes'], summary: 'Every promo code with its uses', response: { 200: z.array(promoCodeSchema) } },
      },
      () => promoCodes.list(),
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
        idempotent(sql, request, reply, async (ctx) => ({ status: 201, body: await shown(await promoCodes.create(request.body, ctx)) })),
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
        idempotent(sql, request, reply, async (ctx) => ({
          status: 200,
          body: await shown(await promoCodes.edit(request.params.id, request.body, ctx)),
        })),
    );

    app.get(
      '/api/admin/promo-redemptions',
      {
        config: adminOnly,
        schema: { tags: ['promo codes'], summary: 'Every redemption, newest first', response: { 200: z.array(promoRedemptionSchema) } },
      },
      () => promoCodes.redemptions(),
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
        await promoCodes.admitCheck(principal.userId, request.ip).catch((error: unknown) => {
          const wait = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
          if (typeof wait === 'number') reply.header('retry-after', String(wait));
          throw error;
        });
        return promoCodes.validate({ code, packageId, userId, callerId: principal.userId }, contextFrom(request));
      },
    );
  };
