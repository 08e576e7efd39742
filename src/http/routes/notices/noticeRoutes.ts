import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeNotificationPreferences,
  markAllNoticesRead,
  markNoticesRead,
  notificationPreferencesOf,
} from '../../../commands/notices/notices.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import type { NotificationPreferences } from '../../../domain/notices/notices.ts';
import {
  markNoticesReadSchema,
  noticeListSchema,
  notificationSettingsSchema,
  notificationSettingsUpdateSchema,
} from '../../../domain/notices/noticesApi.ts';
import { newestNoticeAt, noticesOf, ownNoticeIds } from '../../../projections/notices/queries.ts';
import type { System } from '../../../system.ts';
import { principalOf } from '../../kit/auth.ts';
import { contextFrom, idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

/** Who has notices and settings: the people with sessions and money of their own (staff get none). */
const noticeHolders = { roles: ['student', 'parent', 'tutor'] } as const;

/** The kinds mailed whatever the settings (docs/sessions-calendar.md). */
const ALWAYS_SENT = ['receipt', 'refund', 'payout', 'applicationDecision'];

const settingsBody = (email: NotificationPreferences) => ({ email, alwaysSent: ALWAYS_SENT });

/**
 * Notification settings and the bell (issue 22 §4, docs/sessions-calendar.md "Notification
 * settings" and "In-app notices"). Settings are read from the person's own stream, as the notice
 * jobs read them; the list from the `notices` read model. Everything is the caller's own: no route
 * takes a user id.
 */
export const noticeRoutes =
  (system: Pick<System, 'sql' | 'store'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/user/notification-settings',
      {
        config: noticeHolders,
        schema: {
          tags: ['notices'],
          summary: "The caller's e-mail settings: each optional notice kind on or off, and the kinds always mailed",
          response: { 200: notificationSettingsSchema },
        },
      },
      async (request) => settingsBody(await notificationPreferencesOf(system.store, principalOf(request).userId)),
    );

    app.put(
      '/api/user/notification-settings',
      {
        config: noticeHolders,
        schema: {
          tags: ['notices'],
          summary: 'Turn optional e-mail notices on or off (the kinds named; the others keep their setting)',
          body: notificationSettingsUpdateSchema,
          response: { 200: notificationSettingsSchema },
        },
      },
      async (request, reply) =>
        idempotent(system.sql, request, reply, async (ctx) => {
          const { userId } = principalOf(request);
          await changeNotificationPreferences(system.store, userId, request.body.email, ctx);
          // Read back from the stream: what the next notice job will read.
          return { status: 200, body: settingsBody(await notificationPreferencesOf(system.store, userId)) };
        }),
    );

    app.get(
      '/api/notices',
      {
        config: noticeHolders,
        schema: {
          tags: ['notices'],
          summary: "The caller's latest notices (20), unread first then newest, and the number unread",
          response: { 200: noticeListSchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return noticesOf(system.sql, principalOf(request).userId);
      },
    );

    app.post(
      '/api/notices/read',
      {
        config: noticeHolders,
        schema: {
          tags: ['notices'],
          summary: "Mark all the caller's notices read ({ all: true }) or the given ones ({ ids }); answers the list",
          body: markNoticesReadSchema,
          response: { 200: noticeListSchema },
        },
      },
      async (request, reply) => {
        const { userId } = principalOf(request);
        const ctx = contextFrom(request);
        const body = request.body;
        let position = null;
        if ('all' in body) {
          const upTo = await newestNoticeAt(system.sql, userId);
          if (upTo) position = (await markAllNoticesRead(system.store, userId, upTo, ctx)).position;
        } else {
          const own = await ownNoticeIds(system.sql, userId, body.ids);
          // Someone else's id and an unknown one look the same, and nothing is marked.
          if (body.ids.some((id) => !own.has(id))) throw new DomainError('Notice not found', 'not_found');
          position = (await markNoticesRead(system.store, userId, body.ids, ctx)).position;
        }
        await readYourWrites(system.sql, ['notices'], position);
        reply.header('cache-control', 'no-store');
        return noticesOf(system.sql, userId);
      },
    );
  };
