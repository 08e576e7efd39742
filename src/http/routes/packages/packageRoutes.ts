import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { packageSchema } from '../../../domain/packages/packageApi.ts';
import type { System } from '../../../system.ts';

const notFoundSchema = z.object({ message: z.string() });

/** The session packages (public reads): prices in dollars (CAD), from the packages read model. */
export const packageRoutes =
  ({ packages }: Pick<System, 'packages'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/packages',
      {
        config: { roles: 'public' },
        schema: { tags: ['packages'], summary: 'The session packages with their prices', response: { 200: z.array(packageSchema) } },
      },
      () => packages.list(),
    );

    app.get(
      '/api/packages/:id',
      {
        config: { roles: 'public' },
        schema: {
          tags: ['packages'],
          summary: 'One session package',
          params: z.object({ id: z.string().max(100) }),
          response: { 200: packageSchema, 404: notFoundSchema },
        },
      },
      (request) => packages.package(request.params.id),
    );
  };
