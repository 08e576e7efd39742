import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { devMailboxResponseSchema } from '../../../domain/accounts/accountApi.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import type { System } from '../../../system.ts';

const messageSchema = z.object({ message: z.string() });

/**
 * The dev mailbox inside the console (issue 12 §9): mail the outbox kept instead of sending,
 * newest first. Absent (404) when a real mail provider sends the mail.
 */
export const consoleMailboxRoutes =
  ({ mailer }: Pick<System, 'mailer'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/mailbox',
      {
        config: { roles: ['admin'] },
        schema: {
          tags: ['operations'],
          summary: 'Mail kept in the outbox (no mail provider configured), newest first; 404 when mail is really sent',
          response: { 200: devMailboxResponseSchema, 404: messageSchema },
        },
      },
      async () => {
        const mailbox = mailer.kind === 'outbox' ? mailer.mailbox : undefined;
        if (!mailbox) throw new DomainError('Mail is sent by a mail provider: there is no mailbox to show', 'not_found');
        return { mails: (await mailbox.list({ limit: 100 })).map((m) => ({ ...m, sentAt: m.sentAt.toISOString() })) };
      },
    );
  };
