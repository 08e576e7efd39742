import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { projectionStatus } from '../../../projections/runner/projectionRunner.ts';
import type { System } from '../../../system.ts';

interface Check<T> {
  ok: boolean;
  ms: number;
  value?: T;
  error?: string;
}

async function check<T>(work: () => Promise<T>): Promise<Check<T>> {
  const started = Date.now();
  try {
    const value = await work();
    return { ok: true, ms: Date.now() - started, value };
  } catch (error) {
    return { ok: false, ms: Date.now() - started, error: String(error) };
  }
}

export const healthStatuses = ['ok', 'degraded', 'down'] as const;

/** What anyone may know: whether the service is up. */
const publicHealthSchema = z.object({ status: z.enum(healthStatuses) });

/** Equal tokens, compared in constant time (hashes first, so the lengths never differ). */
function sameToken(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** An operator: a signed-in admin, or a monitor presenting HEALTH_TOKEN as a bearer token. */
function isOperator(request: FastifyRequest, token: string | undefined): boolean {
  if (request.principal?.role === 'admin') return true;
  const header = request.headers.authorization;
  if (!token || typeof header !== 'string') return false;
  const [scheme, given] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && given !== undefined && sameToken(given, token);
}

/**
 * `/api/health` (issue 23 §6, "operators only"): anyone learns `ok`, `degraded` or `down` (503),
 * nothing more; the details (the database's answer time, the log's head, every projection with its
 * lag and last error text, the queues, the mail adapter) go to an admin's session or to a monitor
 * presenting HEALTH_TOKEN. A parked event's error text may hold what a user typed: never public.
 */
export const healthRoutes =
  (system: Pick<System, 'config' | 'jobs' | 'mailer' | 'sql' | 'store'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/health',
      {
        config: { roles: 'public' },
        schema: {
          tags: ['health'],
          summary:
            'Whether the service is up: ok, degraded (a projection stopped or holds a parked event) or down (503). Admins, or `Authorization: Bearer <HEALTH_TOKEN>`, also get the database, event store, projection lag and queue state',
        },
      },
      async (request, reply) => {
        const database = await check(() => system.sql`SELECT 1`);
        const eventStore = await check(() => system.store.headPosition());
        const projections = await check(() => projectionStatus(system.sql, system.store, null, () => []));
        const queues = await check(() => system.jobs.state());
        const projectionList = projections.value ?? [];
        // A parked event is a read model missing something: degraded until an operator retries or skips it.
        const failed = projectionList.filter((p) => p.status !== 'running' || p.parked > 0);
        const ok = database.ok && eventStore.ok && projections.ok && queues.ok;
        const status = ok ? (failed.length > 0 ? 'degraded' : 'ok') : 'down';
        reply.status(ok ? 200 : 503).header('cache-control', 'no-store');
        if (!isOperator(request, system.config.HEALTH_TOKEN)) return reply.send(publicHealthSchema.parse({ status }));
        return reply.send({
          status,
          database: { ok: database.ok, ms: database.ms },
          eventStore: { ok: eventStore.ok, kind: system.store.kind, head: eventStore.value ?? null },
          projections: projectionList.map((p) => ({
            name: p.name,
            kind: p.kind,
            status: p.status,
            lagEvents: p.lagEvents,
            lagMs: p.lagMs,
            parked: p.parked,
            lastError: p.lastError,
          })),
          queues: queues.value ?? [],
          mail: system.mailer.kind,
        });
      },
    );
  };
