import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError } from '../../../domain/kit/decider.ts';
import {
  adminCancelSessionAnswerSchema,
  adminCancelSessionBodySchema,
  adminSessionListQuerySchema,
  adminSessionPageSchema,
} from '../../../domain/sessions/adminSessionApi.ts';
import { SESSION_CANCELLED } from '../../../domain/sessions/sessionDecider.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

/** The Sessions tab is for admins: finance staff see purchases and payouts only (issue 12). */
const adminOnly = { roles: ['admin'] } as const;
const messageSchema = z.object({ message: z.string() });
const badRequestSchema = z.object({
  message: z.string(),
  field: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
const sessionModels = ['sessions', 'student_courses'] as const;

/**
 * The console's Sessions tab (issue 12 §2): every session, searched, filtered, sorted and paged by
 * the server; and cancelling one on anyone's behalf through the parties' own cancellation (the
 * credit settled on the course, the hour freed; the calendar saga and reminders follow the event).
 */
export const adminSessionRoutes =
  ({ sql, sessions }: Pick<System, 'sql' | 'sessions'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/sessions',
      {
        config: adminOnly,
        schema: {
          tags: ['admin'],
          summary: 'One page of sessions (every status) with tutor and student names; filters, search, sort and paging by the server',
          querystring: adminSessionListQuerySchema,
          response: { 200: adminSessionPageSchema, 400: badRequestSchema },
        },
      },
      (request) => sessions.adminSessions(request.query),
    );

    app.post(
      '/api/admin/sessions/:id/cancel',
      {
        config: adminOnly,
        schema: {
          tags: ['admin'],
          summary:
            'Cancel a session on anyone’s behalf with a reason: the 12-hour rule settles the credit unless creditPolicy is refundCredit (409 when completed or cancelled)',
          params: z.object({ id: z.string().min(1).max(100) }),
          body: adminCancelSessionBodySchema,
          response: { 200: adminCancelSessionAnswerSchema, 400: badRequestSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const sessionId = request.params.id;
          const { reason, creditPolicy } = request.body;
          const { position, credit } = await sessions.cancel(sessionId, { reason, onBehalf: { creditPolicy } }, ctx);
          // The decider refuses a closed session, so a credit outcome is always there; guard the type anyway.
          if (!credit) throw new DomainError(SESSION_CANCELLED, 'conflict');
          await readYourWrites(sql, sessionModels, position);
          return { status: 200, body: { id: sessionId, status: 'cancelled' as const, credit, creditPolicy } };
        }),
    );
  };
