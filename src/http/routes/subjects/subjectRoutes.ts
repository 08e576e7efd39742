import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addSubject, editSubject, setSubjectActive } from '../../../commands/subjects/manageSubjects.ts';
import { subjectHandlers } from '../../../commands/subjects/subjectHandlers.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { adminSubjectSchema, gradeTierSchema, subjectSchema } from '../../../domain/subjects/subjectApi.ts';
import { SUBJECT_NOT_FOUND } from '../../../domain/subjects/subjectDecider.ts';
import { subjectFormSchema } from '../../../domain/subjects/subjectForms.ts';
import { findSubject, listGradeTiers, listSubjects, type SubjectView } from '../../../projections/subjects/queries.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

const adminOnly = { roles: ['admin'] } as const;
const subjectProjections = ['subjects'] as const;

const notFoundSchema = z.object({ message: z.string() });
const subjectParams = z.object({ id: z.string().max(100) });

const publicView = ({ id, name, description, category, gradeLevel }: SubjectView) => ({ id, name, description, category, gradeLevel });

/** Subject ids are UUIDs: anything else is unknown without asking the database (NUL bytes included). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function knownId(id: string): string {
  if (!UUID.test(id)) throw new DomainError(SUBJECT_NOT_FOUND, 'not_found');
  return id;
}

/** The subject catalogue and grade tiers (public reads), and the admin's catalogue commands. */
export const subjectRoutes =
  ({ sql, store }: Pick<System, 'sql' | 'store'>): FastifyPluginAsyncZod =>
  async (app) => {
    const handlers = subjectHandlers(store);
    /** The subject as the read model shows it once it has the write at `position`. */
    const shown = async (subjectId: string, position: string | null) => {
      await readYourWrites(sql, subjectProjections, position);
      const subject = await findSubject(sql, subjectId);
      if (!subject) throw new DomainError(SUBJECT_NOT_FOUND, 'not_found');
      return subject;
    };

    app.get(
      '/api/subjects',
      {
        config: { roles: 'public' },
        schema: { tags: ['subjects'], summary: 'The active subjects of the catalogue', response: { 200: z.array(subjectSchema) } },
      },
      async () => (await listSubjects(sql)).map(publicView),
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
      async (request) => {
        const subject = await findSubject(sql, knownId(request.params.id));
        if (!subject) throw new DomainError(SUBJECT_NOT_FOUND, 'not_found');
        return publicView(subject);
      },
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
      () => listGradeTiers(sql),
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
      () => listSubjects(sql, { includeInactive: true }),
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
        idempotent(sql, request, reply, async (ctx) => {
          const { subjectId, position } = await addSubject(handlers, request.body, ctx);
          return { status: 201, body: await shown(subjectId, position) };
        }),
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
        idempotent(sql, request, reply, async (ctx) => {
          const subjectId = knownId(request.params.id);
          const { position } = await editSubject(handlers, subjectId, request.body, ctx);
          return { status: 200, body: await shown(subjectId, position) };
        }),
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
          idempotent(sql, request, reply, async (ctx) => {
            const subjectId = knownId(request.params.id);
            const { position } = await setSubjectActive(handlers, subjectId, active, ctx);
            return { status: 200, body: await shown(subjectId, position) };
          }),
      );
    }
  };
