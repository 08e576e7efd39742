import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changeTutorRate } from '../../../commands/tutors/changeTutorRate.ts';
import { tutorHandlers } from '../../../commands/tutors/tutorHandlers.ts';
import { changeRateBodySchema, tutorRateViewSchema } from '../../../domain/payouts/payoutApi.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

/** Rates are an admin decision: finance pays them but does not set them (issue 12 §2). */
const adminOnly = { roles: ['admin'] } as const;
/** The profile shows the rate in force and the payouts reprice sessions at once. */
const rateProjections = ['tutors', 'payouts'] as const;
const messageSchema = z.object({ message: z.string() });

export const tutorRateRoutes =
  ({ sql, store }: Pick<System, 'sql' | 'store'>): FastifyPluginAsyncZod =>
  async (app) => {
    const handlers = tutorHandlers(store);

    app.put(
      '/api/admin/tutors/:tutorId/rate',
      {
        config: adminOnly,
        schema: {
          tags: ['tutors'],
          summary:
            "Set a tutor's hourly rate from `effectiveFrom` (default now) with a reason; sessions are paid at the rate in force at their start",
          params: z.object({ tutorId: z.string().max(100) }),
          body: changeRateBodySchema,
          response: { 200: tutorRateViewSchema, 404: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { tutorId } = request.params;
          const { hourlyRate, effectiveFrom, reason } = request.body;
          const hourlyRateCents = Math.round(hourlyRate * 100);
          const from = effectiveFrom === undefined ? null : new Date(effectiveFrom);
          const { position } = await changeTutorRate(handlers, { tutorId, hourlyRateCents, effectiveFrom: from, reason }, ctx);
          await readYourWrites(sql, rateProjections, position);
          return {
            status: 200,
            body: { tutorId, hourlyRate: hourlyRateCents / 100, effectiveFrom: (from ?? ctx.now).toISOString() },
          };
        }),
    );
  };
