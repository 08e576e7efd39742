import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { correlationStory, entityEvents, entityStateAt } from '../../../commands/operations/entityHistory.ts';
import {
  correlationEventsSchema,
  correlationParamsSchema,
  entityEventsQuerySchema,
  entityEventsSchema,
  entityParamsSchema,
  entityStateQuerySchema,
  entityStateSchema,
} from '../../../domain/operations/entityHistoryApi.ts';
import { entityNames, personNames } from '../../../projections/operations/entityNames.ts';
import type { System } from '../../../system.ts';

/** Histories open personal data: admins only; finance staff see purchases and payouts only (issue 12). */
const adminOnly = { roles: ['admin'] } as const;
const messageSchema = z.object({ message: z.string() });

/**
 * Entity history and time travel (issue 12 §6). Reads only, straight from the event store (no
 * read model): an entity is its stream, named by the kind's own stream id function from the id,
 * so an id cannot reach another stream. Events come in pages of at most 1,000 by revision
 * (`?from=&limit=`, `nextRevision` for the next page).
 */
export const entityHistoryRoutes =
  ({ store, sql }: Pick<System, 'store' | 'sql'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/entities/:kind/:id/events',
      {
        config: adminOnly,
        schema: {
          tags: ['history'],
          summary: "One page of an entity's events in revision order, personal data opened ([erased] once erased)",
          params: entityParamsSchema,
          querystring: entityEventsQuerySchema,
          response: { 200: entityEventsSchema, 404: messageSchema },
        },
      },
      async (request) => {
        const { kind, id } = request.params;
        const page = await entityEvents(store, kind, id, request.query);
        // Names are read from the read models at answer time: the events keep ids only.
        const actorIds = [...new Set(page.events.flatMap((e) => (e.actor.id ? [e.actor.id] : [])))];
        const [actors, entity] = await Promise.all([personNames(sql, actorIds), entityNames(sql, [{ kind, id }])]);
        const name = entity.get(`${kind}:${id}`);
        return {
          ...page,
          ...(name ? { name } : {}),
          events: page.events.map((e) => {
            const actorName = e.actor.id ? actors.get(e.actor.id) : undefined;
            return actorName ? { ...e, actor: { ...e.actor, name: actorName } } : e;
          }),
        };
      },
    );

    app.get(
      '/api/admin/entities/:kind/:id/state',
      {
        config: adminOnly,
        schema: {
          tags: ['history'],
          summary: "The entity's state folded up to ?revision=N or ?at=ISO-time (400 past its last revision)",
          params: entityParamsSchema,
          querystring: entityStateQuerySchema,
          response: { 200: entityStateSchema, 404: messageSchema },
        },
      },
      (request) => {
        const { revision, at } = request.query;
        return entityStateAt(
          store,
          request.params.kind,
          request.params.id,
          at === undefined ? { revision: revision ?? 0 } : { at: new Date(at) },
        );
      },
    );

    app.get(
      '/api/admin/correlations/:correlationId/events',
      {
        config: adminOnly,
        schema: {
          tags: ['history'],
          summary: 'Every event recorded under one correlation id (a request and what followed), across entities, in log order',
          params: correlationParamsSchema,
          response: { 200: correlationEventsSchema },
        },
      },
      (request) => correlationStory(store, request.params.correlationId),
    );
  };
