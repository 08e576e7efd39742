import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { alertListQuerySchema, alertPageSchema, alertSchema, resolveAlertBodySchema } from '../../../domain/operations/alertApi.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

/** Alerts are for admins: finance staff see purchases and payouts only (issue 12). */
const adminOnly = { roles: ['admin'] } as const;
const alertProjections = ['alerts'] as const;
const messageSchema = z.object({ message: z.string() });

/** The console's alerts (issue 12 §4): the badge's list, the tab's table, and resolving one with a note. */
export const alertRoutes =
  ({ sql, operations }: Pick<System, 'sql' | 'operations'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/alerts/unresolved',
      {
        config: adminOnly,
        schema: {
          tags: ['alerts'],
          summary: 'The alerts nobody resolved yet, newest first (the Alerts badge is its length)',
          response: { 200: z.array(alertSchema) },
        },
      },
      () => operations.unresolvedAlerts(),
    );

    app.get(
      '/api/admin/alerts',
      {
        config: adminOnly,
        schema: {
          tags: ['alerts'],
          summary: 'One page of alerts, filtered by status (open, resolved, all) and type, sorted by the server',
          querystring: alertListQuerySchema,
          response: { 200: alertPageSchema },
        },
      },
      (request) => operations.alerts(request.query),
    );

    app.post(
      '/api/admin/alerts/:id/resolve',
      {
        config: adminOnly,
        schema: {
          tags: ['alerts'],
          summary: 'Resolve an alert, saying what was done (409 when it is resolved already)',
          params: z.object({ id: z.string().max(100) }),
          body: resolveAlertBodySchema,
          response: { 200: alertSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const alertId = request.params.id;
          const { position } = await operations.resolveAlert(alertId, request.body.note, ctx);
          await readYourWrites(sql, alertProjections, position);
          return { status: 200, body: await operations.alert(alertId) };
        }),
    );
  };
