import type { Sql, TransactionSql } from '../../adapters/db/db.ts';
import { type EventStore, type Position, type RecordedEvent, START } from '../../adapters/eventstore/eventStore.ts';
import { advanceCheckpoint, type CheckpointRow, ensureCheckpoint, lockCheckpoint } from './checkpoints.ts';
import { handledBy, type Projector } from './projector.ts';

export interface RunnerOptions {
  kind?: 'projector' | 'reactor';
  batchSize?: number;
  pollMs?: number;
  log?: (message: string, detail?: Record<string, unknown>) => void;
  /** Told when a poison event stops a projector (the caller raises the alert). */
  onStopped?: (projector: string, event: RecordedEvent, error: string) => Promise<void>;
}

export interface ProjectionStatus {
  name: string;
  kind: string;
  position: Position;
  lagEvents: number;
  lagMs: number;
  rows: number | null;
  status: string;
  lastError: string | null;
  errorEventId: string | null;
  eventsProcessed: number;
  updatedAt: Date;
  rebuild: RebuildProgress | null;
}

export interface RebuildProgress {
  status: string;
  done: number;
  total: number;
  eventsPerSecond: number | null;
  startedAt: Date;
  finishedAt: Date | null;
  error: string | null;
}

const TRANSIENT = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006', '40001', '40P01', '55P03']);

/** Connection loss or a server shutdown is retried; anything else in `apply` is a poison event. */
export function isTransient(error: unknown): boolean {
  const e = error as { code?: string; errno?: string };
  return (
    TRANSIENT.has(e?.code ?? '') ||
    ['CONNECTION_ENDED', 'CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'ECONNRESET', 'ECONNREFUSED'].includes(
      e?.code ?? e?.errno ?? '',
    )
  );
}

const rebuildSchema = (name: string) => `rebuild_${name.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`;

/**
 * Follows the global log for each projector, applying every batch in one transaction together
 * with its checkpoint, so a crash at any point leaves the read model exactly at a checkpoint.
 * The checkpoint row lock makes one writer per projector across all processes.
 */
export class ProjectionRunner {
  private readonly kind: 'projector' | 'reactor';
  private readonly batchSize: number;
  private readonly pollMs: number;
  private stopped = true;
  private loops: Promise<void>[] = [];
  private wakers = new Set<() => void>();
  private unwatch: (() => void) | null = null;

  constructor(
    private readonly sql: Sql,
    private readonly store: EventStore,
    readonly projectors: readonly Projector[],
    private readonly options: RunnerOptions = {},
  ) {
    this.kind = options.kind ?? 'projector';
    this.batchSize = options.batchSize ?? 1000;
    this.pollMs = options.pollMs ?? 500;
  }

  /** Creates tables and checkpoints; does not start following. */
  async setup(): Promise<void> {
    for (const p of this.projectors) {
      await this.sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(hashtext(${`setup:${p.name}`}))`;
        await p.setup(tx);
        await p.indexes?.(tx);
      });
      await ensureCheckpoint(this.sql, p.name, this.kind);
    }
  }

  async start(): Promise<void> {
    await this.setup();
    this.stopped = false;
    this.unwatch = this.store.watch(() => {
      for (const w of this.wakers) w();
    });
    this.loops = this.projectors.map((p) => this.follow(p));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unwatch?.();
    for (const w of this.wakers) w();
    await Promise.all(this.loops);
    this.loops = [];
  }

  private sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve(woken);
      };
      const wake = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      this.wakers.add(wake);
    });
  }

  private async follow(p: Projector): Promise<void> {
    let quick = 0;
    while (!this.stopped) {
      try {
        const [cp] = await this.sql<CheckpointRow[]>`SELECT * FROM projection_checkpoints WHERE name = ${p.name}`;
        if (cp?.status !== 'running') {
          await this.sleep(this.pollMs);
          continue;
        }
        const batch = await this.store.readAll(cp.position, this.batchSize);
        if (batch.length === 0) {
          // After a wake-up that found nothing yet (a concurrent transaction still hides it),
          // poll again quickly with a growing delay instead of waiting a full poll interval.
          if (quick > 0) {
            await this.sleep(quick);
            quick = quick < 256 ? quick * 2 : 0;
          } else {
            quick = (await this.sleep(this.pollMs)) ? 2 : 0;
          }
          continue;
        }
        quick = 0;
        await this.applyBatch(p, cp.position, batch);
      } catch (error) {
        if (this.stopped) break;
        this.options.log?.(`${this.kind} ${p.name} will retry after an error`, { error: String(error) });
        await this.sleep(1000);
      }
    }
  }

  /**
   * Brings the named projectors up to the head once, in this process (an operator command run
   * while no projector process is up). Safe beside running followers: the checkpoint lock and
   * position check make every batch apply exactly once whoever applies it.
   */
  async catchUp(names: readonly string[] = this.projectors.map((p) => p.name)): Promise<void> {
    for (const p of this.projectors.filter((x) => names.includes(x.name))) {
      for (;;) {
        const [cp] = await this.sql<CheckpointRow[]>`SELECT * FROM projection_checkpoints WHERE name = ${p.name}`;
        if (cp?.status !== 'running') break;
        const batch = await this.store.readAll(cp.position, this.batchSize);
        if (batch.length === 0) break;
        await this.applyBatch(p, cp.position, batch);
      }
    }
  }

  /** Applies the batch if the checkpoint is still where it was read; false when someone else moved it. */
  private async applyOnce(p: Projector, from: Position, events: RecordedEvent[]): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      const cp = await lockCheckpoint(tx, p.name);
      if (cp.position !== from || cp.status !== 'running') return false;
      const handled = handledBy(p, events);
      if (handled.length > 0) await p.apply(tx, handled);
      const last = events[events.length - 1] as RecordedEvent;
      await advanceCheckpoint(tx, p.name, last.position, handled.length, last.recordedAt);
      return true;
    });
  }

  private async applyBatch(p: Projector, from: Position, batch: RecordedEvent[]): Promise<void> {
    try {
      await this.applyOnce(p, from, batch);
    } catch (error) {
      if (isTransient(error)) throw error;
      // Find the poison event: apply one by one, keep what succeeds, stop at the one that fails.
      let position = from;
      for (const event of batch) {
        try {
          if (!(await this.applyOnce(p, position, [event]))) return;
          position = event.position;
        } catch (eventError) {
          if (isTransient(eventError)) throw eventError;
          await this.markFailed(p, event, eventError);
          return;
        }
      }
    }
  }

  private async markFailed(p: Projector, event: RecordedEvent, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    await this.sql`UPDATE projection_checkpoints
                   SET status = 'failed', last_error = ${message}, error_position = ${event.position},
                       error_event_id = ${event.id}, updated_at = now()
                   WHERE name = ${p.name}`;
    this.options.log?.(`${this.kind} ${p.name} stopped at a poison event`, { eventId: event.id, type: event.type });
    await this.options.onStopped?.(p.name, event, message);
  }

  async status(): Promise<ProjectionStatus[]> {
    const names = this.projectors.map((p) => p.name);
    return projectionStatus(this.sql, this.store, names, (name) => this.projectors.find((p) => p.name === name)?.tables ?? []);
  }

  /**
   * Replays the whole log into fresh tables in a schema of their own while the live projector
   * keeps serving the old ones, then swaps them in under the checkpoint lock. Reactors are never
   * rebuilt: replaying them would fire their side effects again.
   */
  async rebuild(name: string, onProgress: (p: RebuildProgress) => void = () => {}): Promise<RebuildProgress> {
    if (this.kind !== 'projector') throw new Error('Only projectors can be rebuilt');
    const p = this.projectors.find((x) => x.name === name);
    if (!p) throw new Error(`Unknown projection ${name}`);
    const schema = rebuildSchema(name);
    const sql = this.sql;
    await ensureCheckpoint(sql, name, 'projector');
    const total = await this.store.countAfter(START);
    const startedAt = new Date();
    await sql`INSERT INTO projection_rebuilds (name, status, done, total, started_at, finished_at, error, events_per_second)
              VALUES (${name}, 'running', 0, ${total}, ${startedAt}, null, null, null)
              ON CONFLICT (name) DO UPDATE SET status = 'running', done = 0, total = ${total},
                started_at = ${startedAt}, finished_at = null, error = null, events_per_second = null`;
    const progress = (done: number, status = 'running'): RebuildProgress => {
      const seconds = (Date.now() - startedAt.getTime()) / 1000;
      return {
        status,
        done,
        total: Math.max(total, done),
        eventsPerSecond: seconds > 0 ? done / seconds : null,
        startedAt,
        finishedAt: status === 'running' ? null : new Date(),
        error: null,
      };
    };
    const inSchema = async <T>(tx: TransactionSql, work: () => Promise<T>) => {
      await tx.unsafe(`SET LOCAL search_path TO ${schema}, public`);
      return work();
    };
    try {
      await sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
      await sql.begin((tx) => inSchema(tx, () => p.setup(tx)));
      let position: Position = START;
      let done = 0;
      const batchSize = Math.max(this.batchSize, 5000);
      const applyInto = async (tx: TransactionSql, events: RecordedEvent[]) => {
        const handled = handledBy(p, events);
        if (handled.length > 0) await inSchema(tx, () => p.apply(tx, handled));
        position = (events[events.length - 1] as RecordedEvent).position;
        done += events.length;
      };
      // Read the next batch while the current one is written: reading and writing overlap.
      let next = this.store.readAll(position, batchSize);
      for (;;) {
        const batch = await next;
        if (batch.length === 0) break;
        next =
          batch.length < batchSize
            ? Promise.resolve([])
            : this.store.readAll((batch[batch.length - 1] as RecordedEvent).position, batchSize);
        next.catch(() => {});
        await sql.begin(async (tx) => {
          await applyInto(tx, batch);
          const pr = progress(done);
          await tx`UPDATE projection_rebuilds SET done = ${done}, total = ${pr.total}, events_per_second = ${pr.eventsPerSecond} WHERE name = ${name}`;
        });
        onProgress(progress(done));
        if (batch.length < batchSize) break;
      }
      if (p.indexes) await sql.begin((tx) => inSchema(tx, () => (p.indexes as (t: TransactionSql) => Promise<void>)(tx)));
      // Swap: hold the live projector off, apply what arrived meanwhile, move the tables in.
      await sql.begin(async (tx) => {
        await lockCheckpoint(tx, name);
        for (;;) {
          const batch = await this.store.readAll(position, batchSize);
          if (batch.length === 0) break;
          await applyInto(tx, batch);
        }
        await tx.unsafe('SET LOCAL search_path TO public');
        for (const table of p.tables) {
          await tx.unsafe(`DROP TABLE IF EXISTS public.${table} CASCADE`);
          await tx.unsafe(`ALTER TABLE ${schema}.${table} SET SCHEMA public`);
        }
        await tx.unsafe(`DROP SCHEMA ${schema} CASCADE`);
        await tx`UPDATE projection_checkpoints
                 SET position = ${position}, status = 'running', last_error = null, error_position = null,
                     error_event_id = null, events_processed = ${done}, updated_at = now()
                 WHERE name = ${name}`;
        const pr = progress(done, 'completed');
        await tx`UPDATE projection_rebuilds SET status = 'completed', done = ${done}, total = ${pr.total},
                   events_per_second = ${pr.eventsPerSecond}, finished_at = now() WHERE name = ${name}`;
      });
      for (const w of this.wakers) w();
      const finished = progress(done, 'completed');
      onProgress(finished);
      return finished;
    } catch (error) {
      await sql`UPDATE projection_rebuilds SET status = 'failed', error = ${String(error)}, finished_at = now() WHERE name = ${name}`;
      await sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      throw error;
    }
  }
}

export async function projectionStatus(
  sql: Sql,
  store: EventStore,
  names: readonly string[] | null,
  tablesOf: (name: string) => readonly string[],
): Promise<ProjectionStatus[]> {
  const rows = names
    ? await sql<CheckpointRow[]>`SELECT * FROM projection_checkpoints WHERE name = ANY(${names as string[]}) ORDER BY kind, name`
    : await sql<CheckpointRow[]>`SELECT * FROM projection_checkpoints ORDER BY kind, name`;
  const rebuilds = await sql<
    {
      name: string;
      status: string;
      done: bigint;
      total: bigint;
      events_per_second: number | null;
      started_at: Date;
      finished_at: Date | null;
      error: string | null;
    }[]
  >`SELECT * FROM projection_rebuilds`;
  const out: ProjectionStatus[] = [];
  for (const row of rows) {
    const lagEvents = await store.countAfter(row.position);
    const [next] = lagEvents > 0 ? await store.readAll(row.position, 1) : [];
    let rows: number | null = null;
    const tables = tablesOf(row.name);
    if (tables.length > 0) {
      rows = 0;
      for (const t of tables) {
        const [c] = await sql.unsafe<{ count: bigint }[]>(`SELECT count(*) AS count FROM public.${t}`).catch(() => [{ count: 0n }]);
        rows += Number(c?.count ?? 0);
      }
    }
    const rb = rebuilds.find((r) => r.name === row.name);
    out.push({
      name: row.name,
      kind: row.kind,
      position: row.position,
      lagEvents,
      lagMs: next ? Math.max(0, Date.now() - next.recordedAt.getTime()) : 0,
      rows,
      status: row.status,
      lastError: row.last_error,
      errorEventId: row.error_event_id,
      eventsProcessed: Number(row.events_processed),
      updatedAt: row.updated_at,
      rebuild: rb
        ? {
            status: rb.status,
            done: Number(rb.done),
            total: Number(rb.total),
            eventsPerSecond: rb.events_per_second,
            startedAt: rb.started_at,
            finishedAt: rb.finished_at,
            error: rb.error,
          }
        : null,
    });
  }
  return out;
}

/**
 * Read-your-writes: resolves once every named projection has passed `position` (or stopped),
 * or after `timeoutMs`; returns whether they all caught up.
 */
export async function waitForProjections(
  sql: Sql,
  names: readonly string[],
  position: Position | null,
  timeoutMs = 3000,
): Promise<boolean> {
  if (!position || names.length === 0) return true;
  const deadline = Date.now() + timeoutMs;
  for (let delay = 2; ; delay = Math.min(delay * 2, 25)) {
    const [row] = await sql<{ behind: bigint }[]>`
      SELECT count(*) AS behind FROM projection_checkpoints
      WHERE name = ANY(${names as string[]}) AND position < ${position} AND status = 'running'`;
    if (Number(row?.behind ?? 0) === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, delay));
  }
}
