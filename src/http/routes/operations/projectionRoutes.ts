import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { REACTOR_REASON, retryParkedEvent, runnerFollowing, skipParkedEvent } from '../../../commands/operations/parkedEvents.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import {
  type ParkedEventView,
  type ParkedOutcomeView,
  type ProjectionView,
  parkedDecisionBodySchema,
  parkedEventListSchema,
  parkedOutcomeSchema,
  projectionListSchema,
  rebuildAcceptedSchema,
} from '../../../domain/operations/projectionApi.ts';
import {
  NotParkedError,
  type ParkedEvent,
  type ProjectionRunner,
  type ProjectionStatus,
  type ResumeOutcome,
} from '../../../projections/runner/projectionRunner.ts';
import { RebuildInProgressError } from '../../../projections/runner/rebuildRequests.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';

/** Projections are operated by admins only: finance staff see purchases and payouts (issue 12). */
const adminOnly = { roles: ['admin'] } as const;
const messageSchema = z.object({ message: z.string() });
const nameParam = z.string().min(1).max(100);
const eventIdParam = z.string().min(1).max(200);

const UNKNOWN_PROJECTION = 'Unknown projection';
const NOT_PARKED = 'That event is not parked by this projection';

function projectionView(s: ProjectionStatus, lastEventAt: Date | null): ProjectionView {
  const rb = s.rebuild;
  const rebuilding = rb !== null && (rb.status === 'requested' || rb.status === 'running');
  return {
    name: s.name,
    kind: s.kind === 'reactor' ? 'reactor' : 'projector',
    rebuildable: s.kind !== 'reactor',
    position: s.position,
    lastEventAt: lastEventAt?.toISOString() ?? null,
    lagEvents: s.lagEvents,
    lagMs: s.lagMs,
    rows: s.rows,
    status: rebuilding ? 'rebuilding' : s.status,
    lastError: s.lastError,
    parked: s.parked,
    rebuild: rb && {
      rebuildId: rb.rebuildId,
      status: rb.status,
      phase: rb.phase,
      done: rb.done,
      total: rb.total,
      eventsPerSecond: rb.eventsPerSecond,
      stepDone: rb.stepDone,
      stepTotal: rb.stepTotal,
      startedAt: rb.startedAt.toISOString(),
      finishedAt: rb.finishedAt?.toISOString() ?? null,
      error: rb.error,
    },
  };
}

const parkedView = (e: ParkedEvent): ParkedEventView => ({
  projector: e.projector,
  eventId: e.eventId,
  position: e.position,
  streamId: e.streamId,
  revision: e.revision,
  type: e.type,
  status: e.status,
  error: e.error,
  attempts: e.attempts,
  parkedAt: e.parkedAt.toISOString(),
});

const outcomeView = (o: ResumeOutcome): ParkedOutcomeView => ({
  projector: o.projector,
  streamId: o.streamId,
  applied: o.applied,
  stillParked: o.stillParked,
  failedEventId: o.failedEventId,
  error: o.error,
});

/**
 * The console's projections (issue 12 §7): status and lag, rebuilds run in the background by the
 * process that runs the projectors (progress in the list), and the parked events an operator
 * retries or skips with a reason (recorded as events).
 */
export const projectionRoutes =
  ({
    sql,
    store,
    projections,
    reactors,
    rebuilds,
  }: Pick<System, 'sql' | 'store' | 'projections' | 'reactors' | 'rebuilds'>): FastifyPluginAsyncZod =>
  async (app) => {
    const runners = [projections, reactors];
    const runnerOf = (name: string): ProjectionRunner => {
      const runner = runnerFollowing(runners, name);
      if (!runner) throw new DomainError(UNKNOWN_PROJECTION, 'not_found');
      return runner;
    };
    const notParked = (error: unknown): never => {
      if (error instanceof NotParkedError) throw new DomainError(NOT_PARKED, 'not_found');
      throw error;
    };
    const requestRebuild = async (names: string[], rebuildId: string) => {
      try {
        await rebuilds.request(names, rebuildId);
      } catch (error) {
        if (error instanceof RebuildInProgressError) {
          throw new DomainError(`A rebuild of ${error.names.join(', ')} is already under way`, 'conflict');
        }
        throw error;
      }
      return { status: 202, body: { rebuildId, projections: names } };
    };

    app.get(
      '/api/admin/projections',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: 'Every projection and reactor: position, lag, rows, status, last error, parked events and rebuild progress',
          response: { 200: projectionListSchema },
        },
      },
      async () => {
        const statuses = [...(await projections.status()), ...(await reactors.status())];
        // The checkpoint records when its last applied event was recorded: the console shows that, not the 40-digit position.
        const checkpoints = await sql<{ name: string; last_event_at: Date | null }[]>`
          SELECT name, last_event_at FROM projection_checkpoints WHERE name = ANY(${statuses.map((s) => s.name)}::text[])`;
        const lastEventAt = new Map(checkpoints.map((c) => [c.name, c.last_event_at]));
        return statuses.map((s) => projectionView(s, lastEventAt.get(s.name) ?? null));
      },
    );

    app.post(
      '/api/admin/projections/rebuild-all',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: 'Rebuild every projection into fresh tables in the background (reactors are never rebuilt); 409 while one runs',
          response: { 202: rebuildAcceptedSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, (ctx) =>
          requestRebuild(
            projections.projectors.map((p) => p.name),
            ctx.commandId,
          ),
        ),
    );

    app.post(
      '/api/admin/projections/:name/rebuild',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: 'Rebuild one projection into fresh tables in the background; the site reads the old ones until the swap',
          params: z.object({ name: nameParam }),
          response: { 202: rebuildAcceptedSchema, 404: messageSchema, 409: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, (ctx) => {
          const { name } = request.params;
          if (runnerOf(name) !== projections) throw new DomainError(`${name} is a reactor: ${REACTOR_REASON}`, 'conflict');
          return requestRebuild([name], ctx.commandId);
        }),
    );

    app.get(
      '/api/admin/projections/parked',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: 'Events the projections and reactors parked (failed, and those waiting behind them), oldest first',
          querystring: z.object({ projection: nameParam.optional() }),
          response: { 200: parkedEventListSchema, 404: messageSchema },
        },
      },
      async (request) => {
        const name = request.query.projection;
        const selected = name === undefined ? runners : [runnerOf(name)];
        const parked: ParkedEvent[] = [];
        for (const runner of selected) parked.push(...(await runner.parked(name)));
        return parked.map(parkedView);
      },
    );

    const decisionRoute = {
      params: z.object({ name: nameParam, eventId: eventIdParam }),
      body: parkedDecisionBodySchema,
      response: { 200: parkedOutcomeSchema, 404: messageSchema },
    };

    app.post(
      '/api/admin/projections/:name/parked/:eventId/retry',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: "Apply a parked event's stream again after a fix, with the reason (recorded as ParkedEventRetried)",
          ...decisionRoute,
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { name, eventId } = request.params;
          const outcome = await retryParkedEvent(
            runnerOf(name),
            store,
            { projector: name, eventId, reason: request.body.reason, actor: ctx.actorId },
            ctx,
          ).catch(notParked);
          if (!outcome) throw new DomainError(NOT_PARKED, 'not_found');
          return { status: 200, body: outcomeView(outcome) };
        }),
    );

    app.post(
      '/api/admin/projections/:name/parked/:eventId/skip',
      {
        config: adminOnly,
        schema: {
          tags: ['operations'],
          summary: 'Leave a parked event out of the projection for good, with the reason (recorded as ParkedEventSkipped)',
          ...decisionRoute,
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { name, eventId } = request.params;
          const outcome = await skipParkedEvent(
            runnerOf(name),
            store,
            { projector: name, eventId, reason: request.body.reason, actor: ctx.actorId },
            ctx.now,
            { actorId: ctx.actorId, actorRole: ctx.actorRole },
          ).catch(notParked);
          return { status: 200, body: outcomeView(outcome) };
        }),
    );
  };
