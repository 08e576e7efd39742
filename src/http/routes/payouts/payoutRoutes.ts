import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  markPaidBodySchema,
  PERIOD_INVALID,
  payoutPeriodParamsSchema,
  payoutPeriodQuerySchema,
  payoutPeriodViewSchema,
  payoutSessionsParamsSchema,
  payoutTutorSessionsSchema,
} from '../../../domain/payouts/payoutApi.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';
import { payoutCsv, payoutCsvFilename } from './payoutCsv.ts';

/** Payouts are run by finance staff and admins (issue 12 §3); every other role is refused. */
const staffOnly = { roles: ['admin', 'finance'] } as const;
const payoutProjections = ['payouts'] as const;
const messageSchema = z.object({ message: z.string() });

export { PERIOD_INVALID };

/** Payouts per billing period: the view, approval, payment and the CSV export. */
export const payoutRoutes =
  ({ sql, payouts }: Pick<System, 'sql' | 'payouts'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/payouts',
      {
        config: staffOnly,
        schema: {
          tags: ['payouts'],
          summary: 'The payout of the billing period holding `period` (yyyy-MM-dd; default: the last period that ended)',
          querystring: payoutPeriodQuerySchema,
          response: { 200: payoutPeriodViewSchema },
        },
      },
      (request) => payouts.period(request.query.period),
    );

    app.get(
      '/api/admin/payouts/:periodStart.csv',
      {
        config: staffOnly,
        schema: {
          tags: ['payouts'],
          summary: "The period's payout lines as CSV (amounts with 2 decimals, a total row)",
          params: payoutPeriodParamsSchema,
        },
      },
      async (request, reply) => {
        const view = await payouts.periodStarting(request.params.periodStart);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${payoutCsvFilename(view)}"`)
          .header('cache-control', 'no-store')
          .send(payoutCsv(view));
      },
    );

    app.get(
      '/api/admin/payouts/:periodStart/tutors/:tutorId/sessions',
      {
        config: staffOnly,
        schema: {
          tags: ['payouts'],
          summary: "The payable sessions behind a tutor's lines in a period: start, student, subject, length, rate and amount",
          params: payoutSessionsParamsSchema,
          response: { 200: payoutTutorSessionsSchema },
        },
      },
      (request) => payouts.tutorSessions(request.params.periodStart, request.params.tutorId),
    );

    app.post(
      '/api/admin/payouts/:periodStart/approve',
      {
        config: staffOnly,
        schema: {
          tags: ['payouts'],
          summary: "Freeze an ended period's figures (409 when it is approved already)",
          params: payoutPeriodParamsSchema,
          response: { 200: payoutPeriodViewSchema, 409: messageSchema, 422: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { position } = await payouts.approve(request.params.periodStart, ctx);
          await readYourWrites(sql, payoutProjections, position);
          return { status: 200, body: await payouts.periodStarting(request.params.periodStart, ctx.now) };
        }),
    );

    app.post(
      '/api/admin/payouts/:periodStart/mark-paid',
      {
        config: staffOnly,
        schema: {
          tags: ['payouts'],
          summary: 'Record that an approved period was paid, how and with which reference (409 unless approved and unpaid)',
          params: payoutPeriodParamsSchema,
          body: markPaidBodySchema,
          response: { 200: payoutPeriodViewSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { periodStart } = request.params;
          const { position } = await payouts.markPaid({ periodStart, ...request.body }, ctx);
          await readYourWrites(sql, payoutProjections, position);
          return { status: 200, body: await payouts.periodStarting(periodStart, ctx.now) };
        }),
    );
  };
