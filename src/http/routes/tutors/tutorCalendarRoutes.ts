import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { System } from '../../../system.ts';

/** The tutor's calendar: weekly hours, connection status, busy events (sandbox). */
export const tutorCalendarRoutes =
  (_system: Pick<System, 'sql' | 'store' | 'config' | 'calendar'>): FastifyPluginAsyncZod =>
  async (_app) => {};
