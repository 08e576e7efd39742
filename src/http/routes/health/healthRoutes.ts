import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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

export const healthRoutes =
  (system: Pick<System, 'jobs' | 'mailer' | 'sql' | 'store'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/health',
      { config: { roles: 'public' }, schema: { tags: ['health'], summary: 'Database, event store, projection lag and queue state' } },
      async (_request, reply) => {
        const database = await check(() => system.sql`SELECT 1`);
        const eventStore = await check(() => system.store.headPosition());
        const projections = await check(() => projectionStatus(system.sql, system.store, null, () => []));
        const queues = await check(() => system.jobs.state());
        const projectionList = projections.value ?? [];
        // A parked event is a read model missing something: degraded until an operator retries or skips it.
        const failed = projectionList.filter((p) => p.status !== 'running' || p.parked > 0);
        const ok = database.ok && eventStore.ok && projections.ok && queues.ok;
        return reply.status(ok ? 200 : 503).send({
          status: ok ? (failed.length > 0 ? 'degraded' : 'ok') : 'down',
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
