import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { System } from '../../../system.ts';

/** The public tutor directory: approved, active tutors by subject and level. */
export const tutorDirectoryRoutes =
  (_system: Pick<System, 'sql'>): FastifyPluginAsyncZod =>
  async (_app) => {};
