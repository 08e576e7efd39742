import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  parkedDecisionBodySchema,
  parkedEventListSchema,
  parkedOutcomeSchema,
  projectionListSchema,
  rebuildAcceptedSchema,
} from '../../../domain/operations/projectionApi.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';

/** Projections are operated by admins only: finance staff see purchases and payouts (issue 12). */
const adminOnly = { roles: ['admin'] } as const;
const messageSchema = z.object({ message: z.string() });
const nameParam = z.string().min(1).max(100);
const eventIdParam = z.string().min(1).max(200);

/**
 * The console's projections (issue 12 §7): status and lag, rebuilds run in the background by the
 * process that runs the projectors (progress in the list), and the parked events an operator
 * retries or skips with a reason (recorded as events).
 */
export const projectionRoutes =
  ({ sql, operations }: Pick<System, 'sql' | 'operations'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/projections',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: 'Every projection and reactor: position, lag, rows, status, last error, parked events and rebuild progress',
          response: { 200: projectionListSchema },
        },
      },
      () => operations.projectionStatuses(),
    );

    app.post(
      '/api/admin/projections/rebuild-all',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: 'Rebuild every projection into fresh tables in the background (reactors are never rebuilt); 409 while one runs',
          response: { 202: rebuildAcceptedSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => ({ status: 202, body: await operations.rebuildAll(ctx.commandId) })),
    );

    app.post(
      '/api/admin/projections/:name/rebuild',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: 'Rebuild one projection into fresh tables in the background; the site reads the old ones until the swap',
          params: z.object({ name: nameParam }),
          response: { 202: rebuildAcceptedSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => ({
          status: 202,
          body: await operations.rebuild(request.params.name, ctx.commandId),
        })),
    );

    app.get(
      '/api/admin/projections/parked',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: 'Events the projections and reactors parked (failed, and those waiting behind them), oldest first',
          querystring: z.object({ projection: nameParam.optional() }),
          response: { 200: parkedEventListSchema, 404: messageSchema },
        },
      },
      (request) => operations.parkedEvents(request.query.projection),
    );

    const decisionRoute = {
      params: z.object({ name: nameParam, eventId: eventIdParam }),
      body: parkedDecisionBodySchema,
      response: { 200: parkedOutcomeSchema, 404: messageSchema },
    };

    app.post(
      '/api/admin/projections/:name/parked/:eventId/retry',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: "Apply a parked event's stream again after a fix, with the reason (recorded as ParkedEventRetried)",
          ...decisionRoute,
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { name, eventId } = request.params;
          return { status: 200, body: await operations.retryParked({ projector: name, eventId, reason: request.body.reason }, ctx) };
        }),
    );

    app.post(
      '/api/admin/projections/:name/parked/:eventId/skip',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: 'Leave a parked event out of the projection for good, with the reason (recorded as ParkedEventSkipped)',
          ...decisionRoute,
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { name, eventId } = request.params;
          return { status: 200, body: await operations.skipParked({ projector: name, eventId, reason: request.body.reason }, ctx) };
        }),
    );
  };
