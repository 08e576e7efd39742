import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError } from '../../../domain/kit/decider.ts';
import { PACKAGE_NOT_FOUND } from '../../../domain/packages/package.ts';
import { packageSchema } from '../../../domain/packages/packageApi.ts';
import { findPackage, listPackages, type PackageView } from '../../../projections/packages/queries.ts';
import type { System } from '../../../system.ts';

const notFoundSchema = z.object({ message: z.string() });

const publicView = ({ id, name, sessionCount, totalPrice, gradeTier }: PackageView) => ({ id, name, sessionCount, totalPrice, gradeTier });

/** The session packages (public reads): prices in dollars (CAD), from the packages read model. */
export const packageRoutes =
  ({ sql }: Pick<System, 'sql'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/packages',
      {
        config: { roles: 'public' },
        schema: { tags: ['packages'], summary: 'The session packages with their prices', response: { 200: z.array(packageSchema) } },
      },
      async () => (await listPackages(sql)).map(publicView),
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
      async (request) => {
        const found = await findPackage(sql, request.params.id);
        if (!found) throw new DomainError(PACKAGE_NOT_FOUND, 'not_found');
        return publicView(found);
      },
    );
  };
