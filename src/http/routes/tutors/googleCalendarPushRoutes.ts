import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GOOGLE_CALENDAR_NOTIFICATIONS_PATH } from '../../../commands/tutors/calendarSync.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import type { System } from '../../../system.ts';

const messageSchema = z.object({ message: z.string() });
export const UNKNOWN_CHANNEL = 'Unknown notification channel';
export const INVALID_CHANNEL_TOKEN = 'Invalid channel token';

/**
 * Google Calendar's change messages (`events.watch` channels): public, no session; headers only
 * (Google sends no body). The channel token must be the one made for the channel id (401 before
 * any query), and the channel must be a tutor's live one (404); either refusal changes nothing.
 * An accepted message queues the tutor's sync job and answers at once: the job lists the changes.
 */
export const googleCalendarPushRoutes =
  ({ tutors }: Pick<System, 'tutors'>): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(async (plugin) => {
      // Whatever Google sends as a body (nothing, or an empty JSON body), it is not read.
      const scope = plugin.withTypeProvider<ZodTypeProvider>();
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, null));
      scope.post(
        GOOGLE_CALENDAR_NOTIFICATIONS_PATH,
        {
          config: { roles: 'public', binaryBody: true },
          schema: {
            tags: ['tutors'],
            summary:
              'Google Calendar push messages (X-Goog-Channel-ID / -Token / Resource-ID / Resource-State): a sync of the tutor’s calendar',
            response: { 200: z.object({ received: z.literal(true) }), 401: messageSchema, 404: messageSchema },
          },
        },
        async (request) => {
          const header = (name: string) => {
            const value = request.headers[name];
            return typeof value === 'string' ? value : undefined;
          };
          const outcome = await tutors.acceptCalendarPush({
            channelId: header('x-goog-channel-id'),
            token: header('x-goog-channel-token'),
            resourceId: header('x-goog-resource-id'),
            resourceState: header('x-goog-resource-state'),
          });
          if (outcome === 'unauthorised') throw new DomainError(INVALID_CHANNEL_TOKEN, 'unauthenticated');
          if (outcome === 'unknown_channel') throw new DomainError(UNKNOWN_CHANNEL, 'not_found');
          return { received: true as const };
        },
      );
    });
  };
