import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { courseHandlers, courseIdForPurchase } from '../../../commands/courses/courseHandlers.ts';
import { purchaseHandlers } from '../../../commands/purchases/purchaseHandlers.ts';
import { ProviderRefundError, quoteRefund, refundPurchase } from '../../../commands/purchases/refundPurchase.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import {
  adminPurchaseListQuerySchema,
  adminPurchasePageSchema,
  refundAnswerSchema,
  refundBodySchema,
  refundQuoteSchema,
} from '../../../domain/purchases/adminPurchaseApi.ts';
import { PURCHASE_NOT_FOUND } from '../../../domain/purchases/purchaseDecider.ts';
import { findAdminPurchase, listAdminPurchases } from '../../../projections/purchases/queries.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

/** Finance staff read purchases (issue 12: they see Payouts and Purchases); refunds are for admins. */
const readers = { roles: ['admin', 'finance'] } as const;
const adminOnly = { roles: ['admin'] } as const;
const messageSchema = z.object({ message: z.string() });
/** The refund's answer shows the purchase and its course's ledger as they are after it. */
const refundProjections = ['purchases', 'student_courses'] as const;
const params = z.object({ id: z.string().min(1).max(100) });

export const providerRefundFailed = (message: string) =>
  `The payment provider could not refund this purchase (${message}). Nothing was changed: the sessions are still on the course. Please try again.`;

/** The console's purchases (issue 12 §2): the list for admins and finance, the refund for admins. */
export const adminPurchaseRoutes =
  ({ sql, store, payments }: Pick<System, 'sql' | 'store' | 'payments'>): FastifyPluginAsyncZod =>
  async (app) => {
    const deps = {
      purchases: purchaseHandlers(store),
      courses: { ledger: courseHandlers(store).courses, courseIdForPurchase },
      payments,
    };

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
      (request) => listAdminPurchases(sql, request.query),
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
      async (request) => {
        const quote = await quoteRefund(deps, request.params.id);
        return { purchaseId: request.params.id, amount: quote.amountCents / 100, credits: quote.credits };
      },
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
            const done = await refundPurchase(deps, { purchaseId, reason: request.body.reason }, ctx);
            await readYourWrites(sql, refundProjections, done.position);
            const purchase = await findAdminPurchase(sql, purchaseId);
            if (!purchase) throw new DomainError(PURCHASE_NOT_FOUND, 'not_found');
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
