import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminSubjectSchema, gradeTierSchema, subjectSchema } from '../../../domain/subjects/subjectApi.ts';
import { subjectFormSchema } from '../../../domain/subjects/subjectForms.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

const adminOnly = { roles: ['admin'] } as const;
const subjectProjections = ['subjects'] as const;

const notFoundSchema = z.object({ message: z.string() });
const subjectParams = z.object({ id: z.string().max(100) });

/** The subject catalogue and grade tiers (public reads), and the admin's catalogue commands. */
export const subjectRoutes =
  ({ sql, subjects }: Pick<System, 'sql' | 'subjects'>): FastifyPluginAsyncZod =>
  async (app) => {
    /** The subject as the read model shows it once it has the write at `position`. */
    const shown = async ({ subjectId, position }: { subjectId: string; position: string | null }) => {
      await readYourWrites(sql, subjectProjections, position);
      return subjects.adminSubject(subjectId);
    };

    app.get(
      '/api/subjects',
      {
        config: { roles: 'public' },
        schema: { tags: ['subjects'], summary: 'The active subjects of the catalogue', response: { 200: z.array(subjectSchema) } },
      },
      () => subjects.list(),
    );

    app.get(
      '/api/subjects/:id',
      {
        config: { roles: 'public' },
        schema: {
          tags: ['subjects'],
          summary: 'One subject (also a deactivated one: courses bought before keep naming it)',
          params: subjectParams,
          response: { 200: subjectSchema, 404: notFoundSchema },
        },
      },
      (request) => subjects.publicSubject(request.params.id),
    );

    app.get(
      '/api/gradetiers',
      {
        config: { roles: 'public' },
        schema: {
          tags: ['subjects'],
          summary: 'The grade tiers with their base price per session in dollars',
          response: { 200: z.array(gradeTierSchema) },
        },
      },
      () => subjects.gradeTiers(),
    );

    app.get(
      '/api/admin/subjects',
      {
        config: adminOnly,
        schema: {
          tags: ['subjects'],
          summary: 'The whole catalogue, deactivated subjects included',
          response: { 200: z.array(adminSubjectSchema) },
        },
      },
      () => subjects.adminList(),
    );

    app.post(
      '/api/admin/subjects',
      {
        config: adminOnly,
        schema: {
          tags: ['subjects'],
          summary: 'Add a subject; its name must be unused at its level (409)',
          body: subjectFormSchema,
          response: { 201: adminSubjectSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => ({ status: 201, body: await shown(await subjects.add(request.body, ctx)) })),
    );

    app.put(
      '/api/admin/subjects/:id',
      {
        config: adminOnly,
        schema: {
          tags: ['subjects'],
          summary: 'Replace a subject’s name, description, category and level; the name must be unused at the level (409)',
          params: subjectParams,
          body: subjectFormSchema,
          response: { 200: adminSubjectSchema, 404: notFoundSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => ({
          status: 200,
          body: await shown(await subjects.edit(request.params.id, request.body, ctx)),
        })),
    );

    for (const [action, active] of [
      ['deactivate', false],
      ['reactivate', true],
    ] as const) {
      app.post(
        `/api/admin/subjects/:id/${action}`,
        {
          config: adminOnly,
          schema: {
            tags: ['subjects'],
            summary: active ? 'List a deactivated subject again' : 'Stop listing a subject (it keeps its name)',
            params: subjectParams,
            response: { 200: adminSubjectSchema, 404: notFoundSchema },
          },
        },
        async (request, reply) =>
          idempotent(sql, request, reply, async (ctx) => ({
            status: 200,
            body: await shown(await subjects.setActive(request.params.id, active, ctx)),
          })),
      );
    }
  };
