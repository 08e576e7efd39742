import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { receiveContactMessage } from '../../../commands/contact/receiveContactMessage.ts';
import { contactMessageSchema } from '../../../domain/contact/contactMessage.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { perIpLimit } from '../../kit/rateLimits.ts';

export const contactRoutes =
  (system: Pick<System, 'config' | 'sql' | 'store'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/contact',
      {
        config: {
          roles: 'public',
          ...perIpLimit(
            system.config,
            'contact',
            system.config.CONTACT_IP_LIMIT,
            (wait) => `Too many messages were sent from your network. Please try again in ${wait}.`,
          ),
        },
        schema: {
          tags: ['contact'],
          summary: 'Send a message to support; the sender gets a confirmation e-mail',
          body: contactMessageSchema,
          response: { 201: z.object({ ok: z.literal(true), id: z.string() }) },
        },
      },
      async (request, reply) =>
        idempotent(system.sql, request, reply, async (ctx) => {
          const result = await receiveContactMessage(system.store, request.body, ctx);
          await waitForProjections(system.sql, ['audit_log', 'contact_messages'], result.position);
          return { status: 201, body: { ok: true as const, id: result.contactId } };
        }),
    );
  };
