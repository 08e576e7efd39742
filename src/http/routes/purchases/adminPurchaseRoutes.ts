import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ProviderRefundError } from '../../../commands/purchases/refundPurchase.ts';
import {
  adminPurchaseListQuerySchema,
  adminPurchasePageSchema,
  refundAnswerSchema,
  refundBodySchema,
  refundQuoteSchema,
} from '../../../domain/purchases/adminPurchaseApi.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

/** Finance staff read purchases (issue 12: they see Payouts and Purchases); refunds are for admins. */
const readers = { roles: ['admin', 'finance'] } as const;
const adminOnly = { roles: ['admin'] } as const;
const messageSchema = z.object({ message: z.string() });
const params = z.object({ id: z.string().min(1).max(100) });

export const providerRefundFailed = (message: string) =>
  `The payment provider could not refund this purchase (${message}). Nothing was changed: the sessions are still on the course. Please try again.`;

/** The console's purchases (issue 12 §2): the list for admins and finance, the refund for admins. */
export const adminPurchaseRoutes =
  ({ sql, purchases }: Pick<System, 'sql' | 'purchases'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/purchases',
      {
        config: readers,
        schema: {
          tags: ['purchases'],
          summary: 'One page of purchases, searched (buyer, student, subject, package, code) and filtered by status and dates',
          querystring: adminPurchaseListQuerySchema,
          response: { 200: adminPurchasePageSchema },
        },
      },
      (request) => purchases.adminPurchases(request.query),
    );

    app.get(
      '/api/admin/purchases/:id/refund',
      {
        config: adminOnly,
        schema: {
          tags: ['purchases'],
          summary: 'What a refund would give back now: the unused sessions and their share of what was paid',
          params,
          response: { 200: refundQuoteSchema, 404: messageSchema },
        },
      },
      (request) => purchases.refundQuote(request.params.id),
    );

    app.post(
      '/api/admin/purchases/:id/refund',
      {
        config: adminOnly,
        schema: {
          tags: ['purchases'],
          summary: "Refund a completed purchase's unused sessions through the payment provider, with a reason",
          params,
          body: refundBodySchema,
          response: { 200: refundAnswerSchema, 404: messageSchema, 409: messageSchema, 502: messageSchema },
        },
      },
      async (request, reply) => {
        try {
          return await idempotent(sql, request, reply, async (ctx) => {
            const purchaseId = request.params.id;
            const done = await purchases.refund({ purchaseId, reason: request.body.reason }, ctx);
            await readYourWrites(sql, purchases.refundProjections, done.position);
            const purchase = await purchases.adminPurchase(purchaseId);
            return {
              status: 200,
              body: { purchaseId, amount: done.amountCents / 100, creditsRemoved: done.creditsRemoved, purchase },
            };
          });
        } catch (error) {
          // Compensated already: a bad gateway with nothing half-done, which the admin may retry.
          if (error instanceof ProviderRefundError) return reply.status(502).send({ message: providerRefundFailed(error.message) });
          throw error;
        }
      },
    );
  };
