import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FEED_TOKEN, feedTokenHash, issueCalendarFeedToken } from '../../../commands/sessions/calendarFeed.ts';
import { parseMailbox } from '../../../domain/kit/iCalendar.ts';
import { FEED_DAYS_AHEAD, FEED_DAYS_BACK, type FeedEntry, feedCalendar } from '../../../domain/sessions/calendarFeed.ts';
import { calendarFeedLinkSchema, calendarFeedStatusSchema } from '../../../domain/sessions/calendarFeedApi.ts';
import { sessionStreamId } from '../../../domain/sessions/session.ts';
import { calendarSequence, type SessionStreamEvent } from '../../../domain/sessions/sessionNotices.ts';
import { feedOf, feedOwner, feedSessions } from '../../../projections/sessions/calendarFeedQueries.ts';
import type { System } from '../../../system.ts';
import { principalOf } from '../../kit/auth.ts';
import { contextFrom } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
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
  (system: Pick<System, 'sql' | 'store' | 'config'>): FastifyPluginAsyncZod =>
  async (app) => {
    const feedUrl = (token: string) => `${system.config.PUBLIC_URL.replace(/\/+$/, '')}/calendar/${token}.ics`;

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
        const token = FEED_FILE.exec(request.params.file)?.[1];
        // The look-up is by the token's hash: nothing compares the secret itself, byte by byte.
        const userId = token && FEED_TOKEN.test(token) ? await feedOwner(system.sql, feedTokenHash(token)) : null;
        if (!userId) return notFound(reply);
        const now = app.clock.now().getTime();
        const sessions = await feedSessions(
          system.sql,
          userId,
          new Date(now - FEED_DAYS_BACK * DAY_MS),
          new Date(now + FEED_DAYS_AHEAD * DAY_MS),
        );
        const entries = await Promise.all(
          sessions.map(async (s): Promise<FeedEntry> => {
            // SEQUENCE and DTSTAMP as the notices compute them: from the session's stream.
            const stream = (await system.store.readStream(sessionStreamId(s.id))) as unknown as SessionStreamEvent[];
            const last = stream[stream.length - 1];
            return {
              sessionId: s.id,
              subjectName: s.subjectName,
              start: s.start,
              end: s.end,
              cancelled: s.status === 'cancelled',
              meetingLink: s.meetingLink,
              withName: s.withName,
              sequence: calendarSequence(stream),
              stamp: (last?.recordedAt ?? new Date(now)).toISOString(),
            };
          }),
        );
        return reply
          .header('cache-control', 'private, max-age=300')
          .header('x-robots-tag', 'noindex')
          .header('referrer-policy', 'no-referrer')
          .type('text/calendar; charset=utf-8')
          .send(feedCalendar(entries, parseMailbox(system.config.MAIL_FROM)));
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
      async (request) => {
        const feed = await feedOf(system.sql, principalOf(request).userId);
        return { active: feed !== null, issuedAt: feed?.issuedAt ?? null };
      },
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
        const result = await issueCalendarFeedToken(system.store, userId, contextFrom(request));
        await readYourWrites(system.sql, ['calendar_feeds'], result.position);
        const feed = await feedOf(system.sql, userId);
        reply.header('cache-control', 'no-store');
        return reply.status(201).send({ url: feedUrl(result.token), issuedAt: feed?.issuedAt ?? app.clock.now().toISOString() });
      },
    );
  };
