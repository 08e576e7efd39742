import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { alertHandlers, resolveAlert } from '../../../commands/operations/resolveAlert.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { alertListQuerySchema, alertPageSchema, alertSchema, resolveAlertBodySchema } from '../../../domain/operations/alertApi.ts';
import { ALERT_NOT_FOUND } from '../../../domain/operations/alertDecider.ts';
import { alertView, findAlert, listAlerts, openAlerts, withAlertSubjects } from '../../../projections/operations/alerts/queries.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

/** Alerts are for admins: finance staff see purchases and payouts only (issue 12). */
const adminOnly = { roles: ['admin'] } as const;
const alertProjections = ['alerts'] as const;
const messageSchema = z.object({ message: z.string() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The badge keeps to a readable number; the Alerts tab pages through the rest. */
const BADGE_LIMIT = 500;

/** The console's alerts (issue 12 §4): the badge's list, the tab's table, and resolving one with a note. */
export const alertRoutes =
  ({ sql, store }: Pick<System, 'sql' | 'store'>): FastifyPluginAsyncZod =>
  async (app) => {
    const handlers = alertHandlers(store);

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
      async () => withAlertSubjects(sql, (await openAlerts(sql, BADGE_LIMIT)).map(alertView)),
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
      (request) => listAlerts(sql, request.query),
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
          const raised = UUID.test(alertId) ? await findAlert(sql, alertId) : null;
          const { position } = await resolveAlert(
            handlers,
            { alertId, note: request.body.note, raised: raised && { resolved: raised.is_resolved } },
            ctx,
          );
          await readYourWrites(sql, alertProjections, position);
          const shown = await findAlert(sql, alertId);
          if (!shown) throw new DomainError(ALERT_NOT_FOUND, 'not_found');
          return { status: 200, body: alertView(shown) };
        }),
    );
  };
