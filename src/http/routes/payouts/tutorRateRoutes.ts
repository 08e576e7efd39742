import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
  ({ sql, payouts }: Pick<System, 'sql' | 'payouts'>): FastifyPluginAsyncZod =>
  async (app) => {
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
          const { position, rate } = await payouts.changeRate({ tutorId: request.params.tutorId, ...request.body }, ctx);
          await readYourWrites(sql, rateProjections, position);
          return { status: 200, body: rate };
        }),
    );
  };
