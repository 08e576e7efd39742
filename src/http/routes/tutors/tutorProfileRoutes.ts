import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { System } from '../../../system.ts';

/** The tutor's own profile: name, bio, experience, picture, qualifications, onboarding, dashboard stats. */
export const tutorProfileRoutes =
  (_system: Pick<System, 'sql' | 'store' | 'config'>): FastifyPluginAsyncZod =>
  async (_app) => {};
