import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tutorDirectoryQuery, tutorListEntrySchema } from '../../../domain/tutors/tutorApi.ts';
import type { System } from '../../../system.ts';

const messageSchema = z.object({ message: z.string() });

/**
 * The public tutor directory: approved tutors whose account is live and whose onboarding is
 * completed (until then the profile lacks what families choose by), by subject and level. A
 * tutor's id is their profile id, equal to their user id.
 */
export const tutorDirectoryRoutes =
  ({ tutors }: Pick<System, 'tutors'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/tutors',
      {
        config: { roles: 'public' },
        schema: {
          tags: ['tutors'],
          summary:
            'Tutors families can choose: with subjectId only those teaching it, with gradeLevel only those qualified at that level or above',
          querystring: tutorDirectoryQuery.strict(),
          response: { 200: z.array(tutorListEntrySchema) },
        },
      },
      async (request) => tutors.directory(request.query),
    );

    app.get(
      '/api/tutors/:id',
      {
        config: { roles: 'public' },
        schema: {
          tags: ['tutors'],
          summary: 'One tutor of the directory (404 when not listed)',
          params: z.object({ id: z.string().max(100) }),
          response: { 200: tutorListEntrySchema, 404: messageSchema },
        },
      },
      async (request) => tutors.listedTutor(request.params.id),
    );
  };
