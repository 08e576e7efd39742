import type { Sql } from '../../adapters/db/db.ts';
import type { ProjectionRunner, RebuildProgress } from './projectionRunner.ts';

/** A rebuild of one of the projections asked for is requested or running already. */
export class RebuildInProgressError extends Error {
  constructor(readonly names: readonly string[]) {
    super(`A rebuild of ${names.join(', ')} is already under way`);
    this.name = 'RebuildInProgressError';
  }
}

/**
 * A rebuild whose process stopped writing progress for this long is taken for dead: it may be
 * asked for again. The rebuilding process writes at least every second (`HEARTBEAT_MS`).
 */
const STALE_SECONDS = 60;
const HEARTBEAT_MS = 500;
const CLAIM_LOCK = 'topmark:projection-rebuild-claim';

/**
 * Rebuilds asked for from the console. The request is a claim on the projections' rows of
 * `projection_rebuilds` (one statement: a row already requested or running, with a live
 * heartbeat, refuses it), so of N identical requests at once exactly one is accepted. The process
 * that runs the projectors (`RebuildWorker`) picks requests up and runs them in the background,
 * into fresh tables, while the site keeps reading the old ones until the swap.
 */
export class RebuildRequests {
  private readonly wakers = new Set<() => void>();

  constructor(private readonly sql: Sql) {}

  /** Claims the rebuild of `names` as `rebuildId`; throws RebuildInProgressError when one is under way. */
  async request(names: readonly string[], rebuildId: string): Promise<void> {
    const unique = [...new Set(names)];
    await this.sql.begin(async (tx) => {
      const claimed = await tx<{ name: string }[]>`
        INSERT INTO projection_rebuilds AS r (name, status, done, total, started_at, finished_at, error, events_per_second,
                                              rebuild_id, phase, requested_at, heartbeat_at)
        SELECT unnest(${unique}::text[]), 'requested', 0, 0, now(), null, null, null, ${rebuildId}, 'requested', now(), now()
        ON CONFLICT (name) DO UPDATE SET status = 'requested', done = 0, total = 0, started_at = now(), finished_at = null,
          error = null, events_per_second = null, rebuild_id = ${rebuildId}, phase = 'requested', requested_at = now(),
          heartbeat_at = now()
        WHERE r.status NOT IN ('requested', 'running')
           OR coalesce(r.heartbeat_at, r.started_at) < now() - make_interval(secs => ${STALE_SECONDS})
        RETURNING name`;
      if (claimed.length < unique.length) {
        const taken = new Set(claimed.map((c) => c.name));
        throw new RebuildInProgressError(unique.filter((n) => !taken.has(n)));
      }
    });
    for (const wake of this.wakers) wake();
  }

  /** A worker of this process is told at once (other processes poll). */
  onRequest(wake: () => void): () => void {
    this.wakers.add(wake);
    return () => this.wakers.delete(wake);
  }
}

interface Claimed {
  rebuildId: string;
  names: string[];
}

/**
 * Runs requested rebuilds in the process that runs the projectors, one at a time, writing each
 * projection's progress (done, total, rate, phase) at least every `HEARTBEAT_MS`.
 */
export class RebuildWorker {
  private stopped = true;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly sql: Sql,
    private readonly runner: ProjectionRunner,
    private readonly requests: RebuildRequests,
    private readonly options: { pollMs?: number; log?: (message: string, detail?: Record<string, unknown>) => void } = {},
  ) {}

  async start(): Promise<void> {
    // A rebuild this (restarted) process was running when it died will not finish.
    await this.sql`
      UPDATE projection_rebuilds SET status = 'failed', phase = 'failed', error = 'interrupted: the rebuilding process stopped',
        finished_at = now()
      WHERE status = 'running' AND coalesce(heartbeat_at, started_at) < now() - make_interval(secs => ${STALE_SECONDS})`;
    this.stopped = false;
    this.unsubscribe = this.requests.onRequest(() => this.wake?.());
    this.loop = this.follow();
  }

  /** Stops taking requests and waits for the rebuild under way to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  private async follow(): Promise<void> {
    while (!this.stopped) {
      try {
        const claimed = await this.claim();
        if (claimed) {
          await this.run(claimed);
          continue;
        }
      } catch (error) {
        this.options.log?.('projection rebuild requests: will retry after an error', { error: String(error) });
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.options.pollMs ?? 500);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.wake = done;
      });
      this.wake = null;
    }
  }

  /** The oldest requested rebuild, all its projections at once (one process claims it). */
  private async claim(): Promise<Claimed | null> {
    const known = this.runner.projectors.map((p) => p.name);
    return this.sql.begin(async (tx) => {
      const [locked] = await tx<{ ok: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtext(${CLAIM_LOCK})) AS ok`;
      if (!locked?.ok) return null;
      const rows = await tx<{ name: string; rebuild_id: string }[]>`
        UPDATE projection_rebuilds SET status = 'running', phase = 'replaying', heartbeat_at = now()
        WHERE status = 'requested' AND rebuild_id = (
          SELECT rebuild_id FROM projection_rebuilds WHERE status = 'requested' AND name = ANY(${known})
          ORDER BY requested_at LIMIT 1)
        RETURNING name, rebuild_id`;
      const first = rows[0];
      return first ? { rebuildId: first.rebuild_id, names: rows.map((r) => r.name) } : null;
    });
  }

  private async run({ rebuildId, names }: Claimed): Promise<void> {
    const latest = new Map<string, RebuildProgress>();
    let beating = true;
    // The runner writes progress per batch; this beat also covers the index and swap phases.
    const heartbeat = (async () => {
      while (beating) {
        await new Promise((r) => setTimeout(r, HEARTBEAT_MS));
        if (!beating) break;
        const running = [...latest.entries()].filter(([, p]) => p.status === 'running');
        if (running.length > 0)
          await this.sql`
          UPDATE projection_rebuilds r SET heartbeat_at = now(), done = greatest(r.done, x.done), total = greatest(r.total, x.total),
            events_per_second = coalesce(x.rate, r.events_per_second)
          FROM unnest(${running.map(([n]) => n)}::text[], ${running.map(([, p]) => p.done)}::bigint[],
                      ${running.map(([, p]) => p.total)}::bigint[], ${running.map(([, p]) => p.eventsPerSecond ?? 0)}::float8[])
               AS x(name, done, total, rate)
          WHERE r.name = x.name AND r.rebuild_id = ${rebuildId} AND r.status = 'running'`.catch(() => {});
        // Projections whose replay has not reported yet still show they are alive.
        await this.sql`UPDATE projection_rebuilds SET heartbeat_at = now()
                       WHERE rebuild_id = ${rebuildId} AND status = 'running'`.catch(() => {});
      }
    })();
    try {
      await this.runner.rebuildAll(names, (name, progress) => latest.set(name, progress));
    } catch (error) {
      this.options.log?.('projection rebuild failed', { rebuildId, error: String(error) });
      // Projections the runner failed before it started on them still say why.
      await this.sql`UPDATE projection_rebuilds SET status = 'failed', phase = 'failed', finished_at = now(),
                       error = coalesce(error, ${String(error).slice(0, 2000)})
                     WHERE rebuild_id = ${rebuildId} AND status IN ('requested', 'running')`.catch(() => {});
    } finally {
      beating = false;
      await heartbeat;
    }
  }
}
