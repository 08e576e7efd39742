import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { subjectTutorStatsSchema } from '../../../domain/courses/courseTutorApi.ts';
import { subjectWithTutorsSchema } from '../../../domain/packages/packageApi.ts';
import type { System } from '../../../system.ts';

/**
 * GET /api/subjects/with-tutors: the subjects a family can buy with a tutor to choose. It lives
 * with the tutors because "listed tutor" is the directory's rule (tutors read model); the
 * subjects feature's routes and read models may not import the tutors feature.
 */
export const subjectsWithTutorsRoutes =
  ({ tutors }: Pick<System, 'tutors'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/subjects/with-tutors',
      {
        config: { roles: 'public' },
        schema: {
          tags: ['subjects'],
          summary: 'Active subjects that at least one listed tutor teaches',
          response: { 200: z.array(subjectWithTutorsSchema) },
        },
      },
      () => tutors.subjectsWithTutors(),
    );

    app.get(
      '/api/subjects/tutor-stats',
      {
        config: { roles: 'public' },
        schema: {
          tags: ['subjects'],
          summary: "Each active subject's listed tutors, with those tutors' review counts and rating totals (the Subjects page)",
          response: { 200: subjectTutorStatsSchema },
        },
      },
      () => tutors.subjectTutorStats(),
    );
  };
