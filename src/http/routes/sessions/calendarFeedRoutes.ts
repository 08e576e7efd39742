import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { calendarFeedLinkSchema, calendarFeedStatusSchema } from '../../../domain/sessions/calendarFeedApi.ts';
import type { System } from '../../../system.ts';
import { principalOf } from '../../kit/auth.ts';
import { contextFrom } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

/** Who has a feed: the people with sessions of their own (a view-only login does not). */
const feedHolders = { roles: ['student', 'parent', 'tutor'] } as const;
const FEED_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;
/** The only path a feed has, as sent (before any decoding): anything else is refused before it is parsed. */
const FEED_PATH = /^\/calendar\/[A-Za-z0-9_-]{43}\.ics(\?|$)/;

const notFound = (reply: FastifyReply) =>
  reply.status(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not found');

/**
 * The personal calendar feed (issue 22 §3, docs/sessions-calendar.md "Calendar feed"):
 * `GET /calendar/<token>.ics` answers without a cookie, only for a token whose hash is on file;
 * anything else (malformed, reset, deleted account) is the same 404.
 */
export const calendarFeedRoutes =
  ({ sql, sessions }: Pick<System, 'sql' | 'sessions'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/calendar/:file',
      {
        config: { roles: 'public' },
        schema: { hide: true, params: z.object({ file: z.string() }) },
        // Malformed paths (NUL or bad escapes included) get the unknown token's 404, before any guard answers otherwise.
        onRequest: async (request, reply) => {
          if (!FEED_PATH.test(request.url)) return notFound(reply);
        },
      },
      async (request, reply) => {
        const feed = await sessions.calendar.feed(FEED_FILE.exec(request.params.file)?.[1]);
        if (feed === null) return notFound(reply);
        return reply
          .header('cache-control', 'private, max-age=300')
          .header('x-robots-tag', 'noindex')
          .header('referrer-policy', 'no-referrer')
          .type('text/calendar; charset=utf-8')
          .send(feed);
      },
    );

    app.get(
      '/api/calendar-feed',
      {
        config: feedHolders,
        schema: {
          tags: ['sessions'],
          summary: 'Whether the caller has a calendar feed link (its URL is shown only when it is made: only its hash is kept)',
          response: { 200: calendarFeedStatusSchema },
        },
      },
      async (request) => sessions.calendar.feedStatus(principalOf(request).userId),
    );

    app.post(
      '/api/calendar-feed',
      {
        config: feedHolders,
        schema: {
          tags: ['sessions'],
          summary: 'A new private calendar feed link (the first, or a reset: the old link stops working at once)',
          // Nothing to say but "make it": anything else is a mistake, refused before a link is made.
          querystring: z.object({}).strict(),
          body: z.object({}).strict().nullish(),
          response: { 201: calendarFeedLinkSchema },
        },
      },
      async (request, reply) => {
        const { userId } = principalOf(request);
        // Never idempotent by key: a stored answer would keep the secret in the database.
        const { token, position } = await sessions.calendar.issueFeed(userId, contextFrom(request));
        await readYourWrites(sql, ['calendar_feeds'], position);
        reply.header('cache-control', 'no-store');
        return reply.status(201).send(await sessions.calendar.feedLink(userId, token));
      },
    );
  };
