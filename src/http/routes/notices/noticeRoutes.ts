import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  markNoticesReadSchema,
  noticeListSchema,
  notificationSettingsSchema,
  notificationSettingsUpdateSchema,
} from '../../../domain/notices/noticesApi.ts';
import type { System } from '../../../system.ts';
import { principalOf } from '../../kit/auth.ts';
import { contextFrom, idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

/** Who has notices and settings: the people with sessions and money of their own (staff get none). */
const noticeHolders = { roles: ['student', 'parent', 'tutor'] } as const;

/**
 * Notification settings and the bell (issue 22 §4): the notices module's members
 * (src/commands/notices/noticesModule.ts) for the caller's own; no route takes a user id.
 */
export const noticeRoutes =
  ({ sql, notices }: Pick<System, 'sql' | 'notices'>): FastifyPluginAsyncZod =>
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
      async (request) => notices.settings(principalOf(request).userId),
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
        idempotent(sql, request, reply, async (ctx) => ({
          status: 200,
          body: await notices.changeSettings(principalOf(request).userId, request.body.email, ctx),
        })),
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
        return notices.list(principalOf(request).userId);
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
        const position = await notices.markRead(userId, request.body, contextFrom(request));
        await readYourWrites(sql, notices.projections, position);
        reply.header('cache-control', 'no-store');
        return notices.list(userId);
      },
    );
  };
