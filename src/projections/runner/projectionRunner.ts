import type { Sql, TransactionSql } from '../../adapters/db/db.ts';
import { type EventStore, type Position, type RecordedEvent, START } from '../../adapters/eventstore/eventStore.ts';
import { toStorableText } from '../../domain/kit/storableText.ts';
import {
  type CheckpointRow,
  ensureCheckpoint,
  lockCheckpoint,
  lockingCheckpoint,
  type ParkedRow,
  type ParkedStatus,
  parkedEventsDdl,
  readModelTransaction,
} from './checkpoints.ts';
import {
  allFollowedHere,
  checkpointCommitted,
  checkpointReadsMade,
  checkpointTableAfter,
  committedHere,
  followedHere,
  nextCommit,
  tableShowsPast,
  unfollowedHere,
} from './committedProgress.ts';
import { type ApplyTarget, handledBy, type Projector } from './projector.ts';

/** What an alert about a parked event names. */
export type ParkedEventRef = Pick<RecordedEvent, 'id' | 'type' | 'streamId' | 'position'>;
export type ParkedCallback = (projector: string, event: ParkedEventRef, error: string) => Promise<void>;

export interface RunnerOptions {
  kind?: 'projector' | 'reactor';
  batchSize?: number;
  pollMs?: number;
  log?: (message: string, detail?: Record<string, unknown>) => void;
  /**
   * Told about each event a projector could not apply and parked (the caller raises the alert).
   * Called again after a restart when an earlier call did not complete: it must be idempotent.
   */
  onParked?: ParkedCallback;
  /** @deprecated The former name of `onParked`: a poison event no longer stops a projector, it is parked. */
  onStopped?: ParkedCallback;
  /** How long a projector whose batch failed with a transient error waits before it is tried again. */
  retryMs?: number;
}

export interface ProjectionStatus {
  name: string;
  kind: string;
  position: Position;
  lagEvents: number;
  lagMs: number;
  rows: number | null;
  status: string;
  /** The error of the newest parked event (null when nothing is parked). */
  lastError: string | null;
  errorEventId: string | null;
  /** Events parked: those that failed and those waiting behind them in their stream. */
  parked: number;
  eventsProcessed: number;
  updatedAt: Date;
  /** `stepDone`/`stepTotal`: how far the indexing phase is (PostgreSQL's index build progress), else null. */
  rebuild: (RebuildProgress & { rebuildId: string | null; stepDone: number | null; stepTotal: number | null }) | null;
}

export type RebuildPhase = 'requested' | 'replaying' | 'indexing' | 'swapping' | 'completed' | 'failed';

export interface RebuildProgress {
  status: string;
  /** replaying the log into fresh tables, indexing them, then swapping them in (catch-up, move). */
  phase: RebuildPhase;
  done: number;
  total: number;
  eventsPerSecond: number | null;
  startedAt: Date;
  finishedAt: Date | null;
  error: string | null;
}

export interface ParkedEvent {
  projector: string;
  eventId: string;
  position: Position;
  streamId: string;
  revision: number;
  type: string;
  /** failed: its own apply failed; blocked: waits behind a parked event of its stream; skipped: left out by an operator. */
  status: ParkedStatus;
  error: string | null;
  attempts: number;
  parkedAt: Date;
  resolvedAt: Date | null;
  reason: string | null;
  actor: string | null;
}

export interface ResumeOutcome {
  projector: string;
  streamId: string;
  /** Ids of the parked events applied now, in stream order. */
  applied: string[];
  /** Events of the stream still parked: the first of them failed again (`error`). */
  stillParked: number;
  failedEventId: string | null;
  error: string | null;
}

export interface SkipOutcome extends ResumeOutcome {
  skipped: ParkedEvent;
}

/** An operator asked about an event that is not parked (or not by that projector). */
export class NotParkedError extends Error {
  constructor(
    readonly projector: string,
    readonly eventId: string,
  ) {
    super(`Event ${eventId} is not parked by ${projector}`);
    this.name = 'NotParkedError';
  }
}

const TRANSIENT = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006', '40001', '40P01', '55P03', '53300']);

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

/** An error as text PostgreSQL can store (no NUL, no lone surrogate), of bounded length. */
function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return toStorableText(text).slice(0, 2000);
}

/** Runs `work` fast; when that fails with anything but a transient error, once more carefully. */
async function fastThenCareful<T>(work: (careful: boolean) => Promise<T>): Promise<T> {
  try {
    return await work(false);
  } catch (error) {
    if (isTransient(error)) throw error;
    return work(true);
  }
}

const rebuildSchema = (name: string) => `rebuild_${name.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`;
const PARKED = 'parked_events';
const lastOf = (events: readonly RecordedEvent[]) => events[events.length - 1] as RecordedEvent;

interface NewParked {
  event_id: string;
  position: string;
  stream_id: string;
  revision: number;
  type: string;
  status: 'failed' | 'blocked';
  error: string | null;
}

/** Where parked events go: the live table, or the rebuild's own (its streams then kept in memory). */
interface Parking {
  table: string;
  /** The tables written: live, or a rebuild's fresh ones. */
  target: ApplyTarget;
  /** Streams with parked events, when the caller tracks them; null: ask the table. */
  streams: ReadonlySet<string> | null;
  /** Events an operator skipped before: when they fail again they are skipped again. */
  skipped: ReadonlySet<string>;
}

interface Applied {
  applied: number;
  parked: NewParked[];
}

const NONE: ReadonlySet<string> = new Set();

function toParkedEvent(row: ParkedRow): ParkedEvent {
  return {
    projector: row.projector,
    eventId: row.event_id,
    position: row.position,
    streamId: row.stream_id,
    revision: Number(row.revision),
    type: row.type,
    status: row.status,
    error: row.error,
    attempts: row.attempts,
    parkedAt: row.parked_at,
    resolvedAt: row.resolved_at,
    reason: row.reason,
    actor: row.actor,
  };
}

async function insertParked(tx: TransactionSql, table: string, projector: string, rows: readonly NewParked[]): Promise<void> {
  if (rows.length === 0) return;
  // A rebuild's own table is created by the first event it parks: most rebuilds park none.
  if (table !== PARKED) await tx.unsafe(parkedEventsDdl(table));
  await tx.unsafe(
    `INSERT INTO ${table} (projector, event_id, position, stream_id, revision, type, status, error)
     SELECT $1, x.event_id, x.position, x.stream_id, x.revision, x.type, x.status, x.error
     FROM jsonb_to_recordset($2::text::jsonb) AS x(event_id text, position text, stream_id text, revision bigint, type text, status text, error text)
     ON CONFLICT (projector, event_id) DO NOTHING`,
    [projector, JSON.stringify(rows)],
  );
}

/**
 * Points the checkpoint's error fields at the newest failed parked event, or clears them when
 * nothing is parked. `error_event_id` being set is what tells a batch to look for parked streams.
 */
async function refreshParkedMark(tx: TransactionSql, projector: string): Promise<void> {
  await tx`
    UPDATE projection_checkpoints SET (last_error, error_event_id, error_position) = (
      SELECT coalesce(error, 'waiting behind a parked event of its stream'), event_id, position FROM parked_events
      WHERE projector = ${projector} AND status IN ('failed', 'blocked')
      ORDER BY status = 'failed' DESC, parked_at DESC, position DESC LIMIT 1
    ), updated_at = now()
    WHERE name = ${projector}`;
}

/**
 * One read of the log for several consumers that move at their own pace: batch k is read once
 * (right after batch k - 1, from its last event, so the next read overlaps the current batch's
 * writes) and dropped once every consumer has passed it; a consumer more than `ahead` batches in
 * front of the slowest waits, which bounds the memory held. The first batches are small and
 * grow fourfold up to `size`: every consumer reports its first progress within moments of the
 * start instead of after a full batch applied by all of them at once (over a second at 16
 * projections), and the later, large batches keep the throughput.
 */
/** The first batch a rebuild reads (then 4×, 16×, … up to the batch size). */
const FIRST_REBUILD_BATCH = 250;

class SharedReader {
  private readonly batches = new Map<number, Promise<RecordedEvent[]>>();
  private tail: Promise<RecordedEvent[]> | null = null;
  private created = 0;
  private readonly at: number[];
  private waiters: (() => void)[] = [];

  constructor(
    private readonly read: (from: Position, limit: number) => Promise<RecordedEvent[]>,
    private readonly size: number,
    consumers: number,
    private readonly ahead: number,
    private readonly firstSize = size,
  ) {
    this.at = new Array<number>(consumers).fill(0);
  }

  /** How many events batch k asks for: `firstSize`, growing fourfold per batch up to `size`. */
  private sizeOf(k: number): number {
    return Math.min(this.size, Math.max(1, this.firstSize) * 4 ** Math.min(k, 20));
  }

  /** The consumer's next batch ([] at the end of the log). */
  async take(consumer: number): Promise<RecordedEvent[]> {
    const k = this.at[consumer] as number;
    while (k - Math.min(...this.at) > this.ahead) await new Promise<void>((resolve) => this.waiters.push(resolve));
    while (this.created <= k + 1) this.create();
    return this.batches.get(k) as Promise<RecordedEvent[]>;
  }

  private create(): void {
    const previous = this.tail;
    const k = this.created;
    const next =
      previous === null
        ? this.read(START, this.sizeOf(k))
        : previous.then((b) => (b.length < this.sizeOf(k - 1) ? [] : this.read(lastOf(b).position, this.sizeOf(k))));
    next.catch(() => {});
    this.tail = next;
    this.batches.set(this.created++, next);
  }

  /** The consumer is done with its current batch. */
  passed(consumer: number): void {
    this.at[consumer] = (this.at[consumer] as number) + 1;
    this.changed();
  }

  /** The consumer takes no more batches (finished, or failed): it holds nobody back. */
  leave(consumer: number): void {
    this.at[consumer] = Number.POSITIVE_INFINITY;
    this.changed();
  }

  private changed(): void {
    const slowest = Math.min(...this.at);
    for (const k of this.batches.keys()) if (k < slowest) this.batches.delete(k);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/**
 * Follows the global log for its projectors with one shared reader: each round reads a batch
 * once and hands every projector the events after its own checkpoint. Each projector applies its
 * part in its own transaction together with its checkpoint (exactly-once: a crash at any point
 * leaves the read model at a checkpoint), concurrently with the others; projectors that handle
 * none of the batch's events move their checkpoints in one statement. The checkpoint row lock
 * makes one writer per projector across all processes.
 *
 * An event a projector cannot apply (any error but a transient one) is parked with its error, an
 * alert is raised (`onParked`), and the projector goes on; later events of the same stream are
 * parked behind it, so an entity's events are never applied out of order. An operator retries
 * (`retryParked`) or skips (`skipParked`) them.
 */
export class ProjectionRunner {
  private readonly kind: 'projector' | 'reactor';
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly retryMs: number;
  private readonly onParked: ParkedCallback | undefined;
  private stopped = true;
  private loop: Promise<void> | null = null;
  private wakers = new Set<() => void>();
  private unwatch: (() => void) | null = null;
  /** Projectors whose last batch failed with a transient error, and when to try them again. */
  private retryAt = new Map<string, number>();
  /**
   * While following: each projector's batch in flight. A round hands the log to the projectors
   * that are free and does not wait for the others, so a slow projector (the audit log) never
   * holds back the next batch of a fast one (the sessions a booking waits for).
   */
  private applying = new Map<string, Promise<void>>();

  constructor(
    private readonly sql: Sql,
    private readonly store: EventStore,
    readonly projectors: readonly Projector[],
    private readonly options: RunnerOptions = {},
  ) {
    this.kind = options.kind ?? 'projector';
    this.batchSize = options.batchSize ?? 1000;
    this.pollMs = options.pollMs ?? 500;
    this.retryMs = options.retryMs ?? 1000;
    this.onParked = options.onParked ?? options.onStopped;
  }

  /** Creates tables and checkpoints; does not start following. */
  async setup(): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(hashtext('topmark:parked_events'))`;
      await tx.unsafe(parkedEventsDdl(PARKED));
    });
    for (const p of this.projectors) {
      await this.sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(hashtext(${`setup:${p.name}`}))`;
        await p.setup(tx);
        for (const index of p.indexes ?? []) await tx.unsafe(index);
      });
      await ensureCheckpoint(this.sql, p.name, this.kind);
      // Stopped by an earlier version at a poison event: resume; the event is met again and parked.
      await this.sql`UPDATE projection_checkpoints
                     SET status = 'running', last_error = NULL, error_event_id = NULL, error_position = NULL, updated_at = now()
                     WHERE name = ${p.name} AND status = 'failed'`;
    }
  }

  async start(): Promise<void> {
    await this.setup();
    this.stopped = false;
    followedHere(
      this.sql,
      this.projectors.map((p) => p.name),
    );
    this.unwatch = this.store.watch(() => this.wake());
    this.loop = this.follow();
  }

  async stop(): Promise<void> {
    if (!this.stopped)
      unfollowedHere(
        this.sql,
        this.projectors.map((p) => p.name),
      );
    this.stopped = true;
    this.unwatch?.();
    this.unwatch = null;
    this.wake();
    await this.loop;
    await Promise.all(this.applying.values());
    this.loop = null;
  }

  private wake(): void {
    for (const w of this.wakers) w();
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

  private async follow(): Promise<void> {
    await this.raiseAlerts().catch((error: unknown) =>
      this.options.log?.(`${this.kind} alerts for parked events failed`, { error: String(error) }),
    );
    let quick = 0;
    while (!this.stopped) {
      try {
        if (await this.round(this.projectors, 'retry later')) {
          quick = 0;
          continue;
        }
        const retryIn = Math.max(1, Math.min(...[...this.retryAt.values()].map((t) => t - Date.now()), this.pollMs));
        // After a wake-up that found nothing yet (a concurrent transaction still hides it),
        // poll again quickly with a growing delay instead of waiting a full poll interval.
        if (quick > 0) {
          await this.sleep(Math.min(quick, retryIn));
          quick = quick < 256 ? quick * 2 : 0;
        } else {
          quick = (await this.sleep(retryIn)) ? 2 : 0;
        }
      } catch (error) {
        if (this.stopped) break;
        this.options.log?.(`${this.kind} runner will retry after an error`, { error: String(error) });
        await this.sleep(this.retryMs);
      }
    }
  }

  /**
   * One round of the shared reader: reads the log once from the lowest checkpoint and gives each
   * projector the events after its own. Projectors far ahead of that batch (a new one catching
   * up beside the others) get a read of their own in the same round. False when there was nothing
   * to read. A projector whose batch fails transiently is retried after `retryMs` ('retry later')
   * or the error is thrown ('throw'). Following ('retry later'), the round returns once the batches
   * are handed out, leaving out projectors still applying an earlier one; catching up ('throw'), it
   * returns when every batch is applied.
   */
  private async round(projectors: readonly Projector[], onError: 'retry later' | 'throw'): Promise<boolean> {
    const now = Date.now();
    const due =
      onError === 'throw' ? projectors : projectors.filter((p) => (this.retryAt.get(p.name) ?? 0) <= now && !this.applying.has(p.name));
    if (due.length === 0) return false;
    const rows = await this.sql<{ name: string; position: string; status: string }[]>`
      SELECT name, position, status FROM projection_checkpoints WHERE name = ANY(${due.map((p) => p.name)})`;
    const at = new Map(rows.filter((r) => r.status === 'running').map((r) => [r.name, r.position]));
    // Committed, whoever applied it (another process following the same projector): tell the waiters.
    for (const r of rows) checkpointCommitted(this.sql, r.name, r.position);
    let pending = due.filter((p) => at.has(p.name)).sort((a, b) => ((at.get(a.name) as string) < (at.get(b.name) as string) ? -1 : 1));
    const work: Promise<void>[] = [];
    const hand = (names: readonly string[], applied: Promise<void>) => {
      if (onError === 'throw') {
        work.push(applied);
        return;
      }
      const settled = applied
        .catch((error: unknown) => this.options.log?.(`${this.kind} runner will retry after an error`, { error: String(error) }))
        .finally(() => {
          for (const name of names) this.applying.delete(name);
          this.wake();
        });
      for (const name of names) this.applying.set(name, settled);
    };
    let read = false;
    while (pending.length > 0) {
      const from = at.get((pending[0] as Projector).name) as string;
      const batch = await this.store.readAll(from, this.batchSize);
      if (batch.length === 0) break;
      read = true;
      const last = lastOf(batch);
      const idle: { name: string; from: Position }[] = [];
      for (const p of pending.filter((x) => (at.get(x.name) as string) < last.position)) {
        const position = at.get(p.name) as string;
        const events = position === from ? batch : batch.filter((e) => e.position > position);
        if (handledBy(p, events).length === 0) {
          idle.push({ name: p.name, from: position });
          continue;
        }
        hand(
          [p.name],
          this.applyBatch(p, position, events).then(
            () => {
              this.retryAt.delete(p.name);
            },
            (error: unknown) => {
              if (onError === 'throw') throw error;
              this.retryAt.set(p.name, Date.now() + this.retryMs);
              this.options.log?.(`${this.kind} ${p.name} will retry after an error`, { error: String(error) });
            },
          ),
        );
      }
      if (idle.length > 0)
        hand(
          idle.map((i) => i.name),
          this.advanceIdle(idle, last),
        );
      // Whoever is at or past the end of this batch: at the head if the batch was short.
      pending = batch.length < this.batchSize ? [] : pending.filter((x) => (at.get(x.name) as string) >= last.position);
    }
    await Promise.all(work);
    return read;
  }

  /** Moves the checkpoints of projectors that handle none of a batch's events, in one statement. */
  private async advanceIdle(idle: readonly { name: string; from: Position }[], last: RecordedEvent): Promise<void> {
    const moved = await this.sql<{ name: string }[]>`
      UPDATE projection_checkpoints c SET position = ${last.position}, last_event_at = ${last.recordedAt}, updated_at = now()
      FROM unnest(${idle.map((i) => i.name)}::text[], ${idle.map((i) => i.from)}::text[]) AS x(name, from_position)
      WHERE c.name = x.name AND c.position = x.from_position AND c.status = 'running'
      RETURNING c.name`;
    for (const { name } of moved) checkpointCommitted(this.sql, name, last.position);
  }

  /**
   * Brings the named projectors up to every event committed before the call, in this process (an
   * operator command run while no projector process is up, a seed before it reads a read model).
   * Safe beside running followers: the checkpoint lock and position check make every batch apply
   * exactly once whoever applies it. Reading until the log shows nothing more is not enough: an
   * older transaction still open anywhere hides the newest committed events for a moment, so it
   * reads on until the running projectors' checkpoints have passed the committed head (a seed
   * once approved a payout from a read model missing its last cancellation).
   */
  async catchUp(names: readonly string[] = this.projectors.map((p) => p.name), timeoutMs = 60_000): Promise<void> {
    const selected = this.projectors.filter((p) => names.includes(p.name));
    const selectedNames = selected.map((p) => p.name);
    const head = await this.store.committedPosition();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let more = true; more; ) more = await this.round(selected, 'throw');
      // The same reading of the checkpoints table as a read-your-writes wait.
      const table = await checkpointTableAfter(this.sql, checkpointReadsMade()).checkpoints;
      if (tableShowsPast(table, selectedNames, head)) return;
      if (Date.now() >= deadline) {
        const behind = selectedNames.filter((name) => !tableShowsPast(table, [name], head));
        throw new Error(`${behind.join(', ')} did not reach the committed head: a transaction is still open`);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /**
   * Applies a projector's part of a batch. When the batch fails (not transiently) it is applied
   * again event by event, each in a savepoint: what fails is parked, the rest is applied.
   */
  private async applyBatch(p: Projector, from: Position, events: RecordedEvent[]): Promise<void> {
    const parked = await fastThenCareful((careful) => {
      if (careful) this.options.log?.(`${this.kind} ${p.name}: a batch failed, applying it event by event`);
      return this.applyLive(p, from, events, careful);
    });
    const failed = parked.filter((e) => e.status === 'failed');
    for (const e of failed) {
      this.options.log?.(`${this.kind} ${p.name} parked an event it cannot apply`, { eventId: e.event_id, type: e.type, error: e.error });
    }
    if (failed.length > 0) await this.raiseAlerts([p.name]);
  }

  private async applyLive(p: Projector, from: Position, events: RecordedEvent[], careful: boolean): Promise<NewParked[]> {
    let moved = false;
    const parked = await readModelTransaction(
      this.sql,
      async (tx, cp: CheckpointRow & { xid: string }) => {
        if (cp.position !== from || cp.status !== 'running') return [];
        moved = true;
        const handled = handledBy(p, events);
        // The checkpoint row, read under its lock, is current: its mark says whether to look for parked streams.
        const parking: Parking = { table: PARKED, target: 'live', streams: cp.error_event_id === null ? NONE : null, skipped: NONE };
        const result = await this.applyParking(tx, p, handled, parking, careful);
        const last = lastOf(events);
        const newest = result.parked.filter((e) => e.status === 'failed').pop();
        await tx`UPDATE projection_checkpoints
               SET position = ${last.position}, events_processed = events_processed + ${result.applied},
                   last_event_at = ${last.recordedAt}, updated_at = now()
                   ${newest ? tx`, last_error = ${newest.error}, error_event_id = ${newest.event_id}, error_position = ${newest.position}` : tx``}
               WHERE name = ${p.name}`;
        return result.parked;
      },
      // The checkpoint row locked (one writer per projector) in the transaction's first round trip.
      lockingCheckpoint(p.name),
    );
    if (moved) checkpointCommitted(this.sql, p.name, lastOf(events).position);
    return parked;
  }

  /**
   * Applies handled events, leaving out (parking as blocked) those of streams with parked events.
   * Careful: one event at a time in a savepoint, parking each that fails and its stream's later ones.
   */
  private async applyParking(
    tx: TransactionSql,
    p: Projector,
    handled: RecordedEvent[],
    parking: Parking,
    careful: boolean,
  ): Promise<Applied> {
    if (handled.length === 0) return { applied: 0, parked: [] };
    const streams = new Set<string>(
      parking.streams ??
        (
          await tx.unsafe<{ stream_id: string }[]>(
            `SELECT DISTINCT stream_id FROM ${parking.table} WHERE projector = $1 AND status <> 'skipped' AND stream_id = ANY($2::text[])`,
            [p.name, [...new Set(handled.map((e) => e.streamId))]],
          )
        ).map((r) => r.stream_id),
    );
    const parked: NewParked[] = [];
    const park = (e: RecordedEvent, status: 'failed' | 'blocked', error: string | null) =>
      parked.push({ event_id: e.id, position: e.position, stream_id: e.streamId, revision: e.revision, type: e.type, status, error });
    let applied = 0;
    if (!careful) {
      const ready: RecordedEvent[] = [];
      for (const e of handled) {
        if (streams.has(e.streamId)) park(e, 'blocked', null);
        else ready.push(e);
      }
      if (ready.length > 0) await p.apply(tx, ready, parking.target);
      applied = ready.length;
    } else {
      for (const e of handled) {
        if (streams.has(e.streamId)) {
          park(e, 'blocked', null);
          continue;
        }
        try {
          await tx.savepoint((sp) => p.apply(sp, [e], parking.target));
          applied++;
        } catch (error) {
          if (isTransient(error)) throw error;
          if (parking.skipped.has(e.id)) continue;
          park(e, 'failed', errorText(error));
          streams.add(e.streamId);
        }
      }
    }
    await insertParked(tx, parking.table, p.name, parked);
    return { applied, parked };
  }

  /** Calls `onParked` for every failed parked event whose alert is not confirmed yet. */
  private async raiseAlerts(names: readonly string[] = this.projectors.map((p) => p.name)): Promise<void> {
    const rows = await this.sql<ParkedRow[]>`
      SELECT * FROM parked_events WHERE projector = ANY(${names as string[]}) AND status = 'failed' AND alerted_at IS NULL
      ORDER BY parked_at, position`;
    for (const row of rows) {
      try {
        await this.onParked?.(
          row.projector,
          { id: row.event_id, type: row.type, streamId: row.stream_id, position: row.position },
          row.error ?? '',
        );
      } catch (error) {
        this.options.log?.(`${this.kind} ${row.projector}: the alert for parked event ${row.event_id} failed; it is raised again later`, {
          error: String(error),
        });
        continue;
      }
      await this.sql`UPDATE parked_events SET alerted_at = now() WHERE projector = ${row.projector} AND event_id = ${row.event_id}`;
    }
  }

  async status(): Promise<ProjectionStatus[]> {
    const names = this.projectors.map((p) => p.name);
    return projectionStatus(this.sql, this.store, names, (name) => this.projectors.find((p) => p.name === name)?.tables ?? []);
  }

  /** Parked events of this runner's projectors (or of one), oldest first; skipped ones only when asked. */
  async parked(name?: string, options: { includeSkipped?: boolean } = {}): Promise<ParkedEvent[]> {
    const names = name === undefined ? this.projectors.map((p) => p.name) : [this.projector(name).name];
    const statuses = options.includeSkipped ? ['failed', 'blocked', 'skipped'] : ['failed', 'blocked'];
    const rows = await this.sql<ParkedRow[]>`
      SELECT * FROM parked_events WHERE projector = ANY(${names}) AND status = ANY(${statuses})
      ORDER BY projector, position`;
    return rows.map(toParkedEvent);
  }

  private projector(name: string): Projector {
    const p = this.projectors.find((x) => x.name === name);
    if (!p) throw new Error(`Unknown ${this.kind} ${name}`);
    return p;
  }

  /**
   * Applies the parked events of the stream of `eventId` again, in order (after a fix). Those
   * applied are removed; at the first that fails again the rest stay parked, with its new error.
   */
  async retryParked(name: string, eventId: string): Promise<ResumeOutcome> {
    const p = this.projector(name);
    const outcome = await this.sql.begin(async (tx) => {
      await lockCheckpoint(tx, name);
      const [row] = await tx<ParkedRow[]>`
        SELECT * FROM parked_events WHERE projector = ${name} AND event_id = ${eventId} AND status <> 'skipped'`;
      if (!row) throw new NotParkedError(name, eventId);
      return this.resumeStream(tx, p, PARKED, row.stream_id);
    });
    await this.afterResume(outcome);
    return outcome;
  }

  /**
   * Leaves a parked event out for good, with the operator's reason. `record` runs first, inside
   * the transaction that holds the checkpoint lock (it records the decision as an event; it must
   * be idempotent, since a failure after it lets the operator run the skip again). The events
   * parked behind it in its stream are then applied (or stay parked behind the next failure).
   */
  async skipParked(
    name: string,
    eventId: string,
    decision: { reason: string; actor: string | null },
    record: (event: ParkedEvent) => Promise<void> = async () => {},
  ): Promise<SkipOutcome> {
    const p = this.projector(name);
    if (!decision.reason.trim()) throw new Error('A skip needs a reason');
    const outcome = await this.sql.begin(async (tx) => {
      await lockCheckpoint(tx, name);
      const [row] = await tx<ParkedRow[]>`
        SELECT * FROM parked_events WHERE projector = ${name} AND event_id = ${eventId} AND status <> 'skipped' FOR UPDATE`;
      if (!row) throw new NotParkedError(name, eventId);
      await record(toParkedEvent(row));
      const [skipped] = await tx<ParkedRow[]>`
        UPDATE parked_events SET status = 'skipped', reason = ${decision.reason}, actor = ${decision.actor}, resolved_at = now()
        WHERE projector = ${name} AND event_id = ${eventId} RETURNING *`;
      const resumed = await this.resumeStream(tx, p, PARKED, row.stream_id);
      return { ...resumed, skipped: toParkedEvent(skipped as ParkedRow) };
    });
    await this.afterResume(outcome);
    return outcome;
  }

  private async afterResume(outcome: ResumeOutcome): Promise<void> {
    if (outcome.applied.length > 0) this.wake();
    if (outcome.error) await this.raiseAlerts([outcome.projector]);
  }

  /**
   * Applies a stream's parked events in order, in the caller's transaction (which holds the
   * checkpoint lock), first all together, else one by one up to the first that fails again.
   */
  private async resumeStream(tx: TransactionSql, p: Projector, table: string, streamId: string): Promise<ResumeOutcome> {
    const rows = await tx.unsafe<ParkedRow[]>(
      `SELECT * FROM ${table} WHERE projector = $1 AND stream_id = $2 AND status <> 'skipped' ORDER BY position FOR UPDATE`,
      [p.name, streamId],
    );
    const outcome: ResumeOutcome = { projector: p.name, streamId, applied: [], stillParked: 0, failedEventId: null, error: null };
    if (rows.length === 0) return outcome;
    const wanted = new Map(rows.map((r) => [r.event_id, r]));
    const minRevision = Math.min(...rows.map((r) => Number(r.revision)));
    const found = (await this.store.readStream(streamId, { fromRevision: minRevision })).filter((e) => wanted.has(e.id));
    const events = found.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
    let failed: { row: ParkedRow; error: string } | null = null;
    const missing = rows.find((r) => !events.some((e) => e.id === r.event_id));
    try {
      if (missing) throw new Error(`event ${missing.event_id} is no longer in stream ${streamId}`);
      await tx.savepoint((sp) => p.apply(sp, events));
      outcome.applied = events.map((e) => e.id);
    } catch (error) {
      if (isTransient(error)) throw error;
      for (const row of rows) {
        const event = events.find((e) => e.id === row.event_id);
        try {
          if (!event) throw new Error(`event ${row.event_id} is no longer in stream ${streamId}`);
          await tx.savepoint((sp) => p.apply(sp, [event]));
          outcome.applied.push(event.id);
        } catch (eventError) {
          if (isTransient(eventError)) throw eventError;
          failed = { row, error: errorText(eventError) };
          break;
        }
      }
    }
    if (outcome.applied.length > 0) {
      await tx.unsafe(`DELETE FROM ${table} WHERE projector = $1 AND event_id = ANY($2::text[])`, [p.name, outcome.applied]);
    }
    if (failed) {
      // A formerly blocked event that fails now is a new failure, and gets its own alert.
      await tx.unsafe(
        `UPDATE ${table} SET status = 'failed', error = $3,
           attempts = CASE WHEN status = 'failed' THEN attempts + 1 ELSE 1 END,
           alerted_at = CASE WHEN status = 'failed' THEN alerted_at END
         WHERE projector = $1 AND event_id = $2`,
        [p.name, failed.row.event_id, failed.error],
      );
      outcome.failedEventId = failed.row.event_id;
      outcome.error = failed.error;
    }
    outcome.stillParked = rows.length - outcome.applied.length;
    if (table === PARKED) {
      if (outcome.applied.length > 0) {
        await tx`UPDATE projection_checkpoints SET events_processed = events_processed + ${outcome.applied.length} WHERE name = ${p.name}`;
      }
      await refreshParkedMark(tx, p.name);
    }
    return outcome;
  }

  /**
   * Replays the whole log into fresh tables in a schema of their own while the live projector
   * keeps serving the old ones, then swaps them in under the checkpoint lock. Reactors are never
   * rebuilt: replaying them would fire their side effects again.
   */
  async rebuild(name: string, onProgress: (p: RebuildProgress) => void = () => {}): Promise<RebuildProgress> {
    const [result] = await this.rebuildAll([name], (_name, p) => onProgress(p));
    return result as RebuildProgress;
  }

  /**
   * Rebuilds several projectors from one read of the log: each batch is read once and applied to
   * every projector's fresh tables, each projector in its own transactions and at its own pace
   * (the slowest does not hold the others back batch by batch; each swaps in when it is done). A rebuild
   * starts over: its projectors' parked events are replaced by what the replay parks (events that
   * apply now are resolved; an event an operator skipped and that still fails stays skipped).
   * Batch transactions commit without waiting for the WAL flush: the fresh tables are private
   * until the swap (which commits normally) and a rebuild cut short starts over anyway.
   */
  async rebuildAll(
    names: readonly string[] = this.projectors.map((p) => p.name),
    onProgress: (name: string, progress: RebuildProgress) => void = () => {},
  ): Promise<RebuildProgress[]> {
    if (this.kind !== 'projector') throw new Error('Only projectors can be rebuilt');
    const targets = [...new Set(names)].map((name) => {
      const p = this.projectors.find((x) => x.name === name);
      if (!p) throw new Error(`Unknown projection ${name}`);
      return p;
    });
    if (targets.length === 0) return [];
    const sql = this.sql;
    const all = targets.map((p) => p.name);
    const total = await this.store.countAfter(START);
    const startedAt = new Date();
    const progress = (done: number, status = 'running', error: string | null = null): RebuildProgress => {
      const seconds = (Date.now() - startedAt.getTime()) / 1000;
      return {
        status,
        phase: status === 'running' ? 'replaying' : status === 'completed' ? 'completed' : 'failed',
        done,
        total: Math.max(total, done),
        eventsPerSecond: seconds > 0 ? done / seconds : null,
        startedAt,
        finishedAt: status === 'running' ? null : new Date(),
        error,
      };
    };
    const skips = await sql<{ projector: string; event_id: string }[]>`
      SELECT projector, event_id FROM parked_events WHERE projector = ANY(${all}) AND status = 'skipped'`;
    await Promise.all(targets.map((p) => ensureCheckpoint(sql, p.name, 'projector')));
    await sql`INSERT INTO projection_rebuilds (name, status, done, total, started_at, finished_at, error, events_per_second, phase, heartbeat_at)
              SELECT unnest(${all}::text[]), 'running', 0, ${total}, ${startedAt}, null, null, null, 'replaying', now()
              ON CONFLICT (name) DO UPDATE SET status = 'running', done = 0, total = ${total},
                started_at = ${startedAt}, finished_at = null, error = null, events_per_second = null,
                phase = 'replaying', heartbeat_at = now(), step_done = null, step_total = null`;
    // Every fresh schema first, one after another in one transaction on one connection, without
    // waiting for the WAL flush (private schemas; a rebuild cut short starts over). Sixteen schema
    // setups at once on as many new connections took twice as long, each backend loading its
    // catalogue caches, and held the replay back. A projector whose setup fails fails alone.
    const setupFailures = new Map<string, unknown>();
    await sql
      .begin(async (tx) => {
        await tx`SELECT set_config('synchronous_commit', 'off', true)`;
        for (const p of targets) {
          const schema = rebuildSchema(p.name);
          await tx
            .savepoint(async (sp) => {
              await sp.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
              await sp`SELECT set_config('search_path', ${`${schema}, public`}, true)`;
              await p.setup(sp);
            })
            .catch((error: unknown) => setupFailures.set(p.name, error));
        }
      })
      .catch((error: unknown) => {
        for (const p of targets) setupFailures.set(p.name, error);
      });
    const batchSize = Math.max(this.batchSize, 5000);
    const reader = new SharedReader((from, limit) => this.store.readAll(from, limit), batchSize, targets.length, 4, FIRST_REBUILD_BATCH);
    // The pool is shared with everything else in the process. A swap holds a connection and the
    // checkpoint lock while it reads the log on another connection, and the live runner's batches
    // for that projector wait on the lock holding connections of their own: sixteen swaps at once
    // (small projections finish together) could take every connection and wait for one forever.
    // One swap at a time, and INDEX_BUILDERS index builds for the whole rebuild, keep connections free.
    const swapSlot = new Slots(1);
    const indexSlots = new Slots(INDEX_BUILDERS);

    const rebuildOne = async (p: Projector, consumer: number): Promise<RebuildProgress> => {
      const schema = rebuildSchema(p.name);
      const skipped = new Set(skips.filter((x) => x.projector === p.name).map((x) => x.event_id));
      const parking = { table: `${schema}.${PARKED}`, target: 'fresh' as const, streams: new Set<string>(), skipped };
      let swapped = false;
      try {
        if (setupFailures.has(p.name)) throw setupFailures.get(p.name);
        let reported = 0;
        const { position, done, applied } = await this.replay(p, schema, parking, reader, consumer, async (done) => {
          const pr = progress(done);
          onProgress(p.name, pr);
          if (Date.now() - reported < 250) return;
          reported = Date.now();
          await sql`UPDATE projection_rebuilds SET done = ${done}, total = ${pr.total}, events_per_second = ${pr.eventsPerSecond},
                      heartbeat_at = now()
                    WHERE name = ${p.name}`;
        });
        reader.leave(consumer);
        const phase = async (name: 'indexing' | 'swapping') => {
          onProgress(p.name, { ...progress(done), phase: name });
          await sql`UPDATE projection_rebuilds SET phase = ${name}, done = ${done}, heartbeat_at = now() WHERE name = ${p.name}`;
        };
        await phase('indexing');
        await buildIndexes(sql, p, schema, indexSlots);
        await phase('swapping');
        // Hold the live follower off, apply what arrived meanwhile, move the tables in.
        const finalDone = await swapSlot.run(() =>
          fastThenCareful((careful) => this.swap(p, schema, parking, position, applied, done, progress, careful)),
        );
        swapped = true;
        const finished = progress(finalDone, 'completed');
        onProgress(p.name, finished);
        return finished;
      } catch (error) {
        reader.leave(consumer);
        if (swapped) throw error;
        await sql`UPDATE projection_rebuilds SET status = 'failed', phase = 'failed', error = ${String(error)}, finished_at = now()
                  WHERE name = ${p.name}`.catch(() => {});
        await sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
        throw error;
      }
    };

    // Every projector replays at its own pace from the one shared read, then swaps in on its own.
    const settled = await Promise.allSettled(targets.map((p, i) => rebuildOne(p, i)));
    this.wake();
    await this.raiseAlerts(all).catch((error: unknown) => this.options.log?.('alerts for parked events failed', { error: String(error) }));
    const failed = settled.flatMap((r, i) => (r.status === 'rejected' ? [{ name: all[i] as string, error: r.reason as unknown }] : []));
    if (failed.length === 1 && targets.length === 1) throw failed[0]?.error;
    if (failed.length > 0) {
      throw new Error(`Rebuild failed for ${failed.map((f) => `${f.name} (${errorText(f.error)})`).join(', ')}`, {
        cause: failed[0]?.error,
      });
    }
    return settled.map((r) => (r as PromiseFulfilledResult<RebuildProgress>).value);
  }

  /** Applies the shared batches to a projector's fresh tables (in `schema`), parking what fails. */
  private async replay(
    p: Projector,
    schema: string,
    parking: Parking & { streams: Set<string> },
    reader: SharedReader,
    consumer: number,
    report: (done: number) => Promise<void>,
  ): Promise<{ position: Position; done: number; applied: number }> {
    let position: Position = START;
    let done = 0;
    let applied = 0;
    for (;;) {
      const batch = await reader.take(consumer);
      if (batch.length === 0) break;
      const handled = handledBy(p, batch);
      if (handled.length > 0) {
        // Committed without waiting for the WAL flush: private tables, and a rebuild cut short starts over.
        const result = await fastThenCareful((careful) =>
          readModelTransaction(
            this.sql,
            (tx) => this.applyParking(tx, p, handled, parking, careful),
            (tx) => tx<{ xid: string }[]>`
              SELECT pg_current_xact_id()::text AS xid, set_config('search_path', ${`${schema}, public`}, true),
                     set_config('synchronous_commit', 'off', true)`,
          ),
        );
        applied += result.applied;
        for (const e of result.parked) parking.streams.add(e.stream_id);
      }
      reader.passed(consumer);
      position = lastOf(batch).position;
      done += batch.length;
      await report(done);
    }
    return { position, done, applied };
  }

  /** Under the checkpoint lock: catch up with the log, move the fresh tables and parked events in. */
  private swap(
    p: Projector,
    schema: string,
    parking: Parking,
    from: Position,
    appliedBefore: number,
    done: number,
    progress: (done: number, status?: string) => RebuildProgress,
    careful: boolean,
  ): Promise<number> {
    const batchSize = Math.max(this.batchSize, 5000);
    return readModelTransaction(
      this.sql,
      async (tx) => {
        await tx`SELECT set_config('search_path', ${`${schema}, public`}, true)`;
        const streams = new Set(parking.streams);
        let position = from;
        let applied = appliedBefore;
        let caughtUp = 0;
        for (;;) {
          const batch = await this.store.readAll(position, batchSize);
          if (batch.length === 0) break;
          const result = await this.applyParking(tx, p, handledBy(p, batch), { ...parking, streams }, careful);
          for (const e of result.parked) streams.add(e.stream_id);
          applied += result.applied;
          caughtUp += batch.length;
          position = lastOf(batch).position;
        }
        // Events an operator skipped while the replay ran: skip them here too, and resume their streams.
        const table = `${schema}.${PARKED}`;
        const [replayParked] = await tx<{ exists: boolean }[]>`SELECT to_regclass(${table}) IS NOT NULL AS exists`;
        const skippedMeanwhile = replayParked?.exists
          ? await tx.unsafe<{ event_id: string; stream_id: string }[]>(
              `SELECT r.event_id, r.stream_id FROM ${table} r
             JOIN ${PARKED} o ON o.projector = r.projector AND o.event_id = r.event_id AND o.status = 'skipped'`,
            )
          : [];
        for (const row of skippedMeanwhile) {
          await tx.unsafe(`DELETE FROM ${table} WHERE projector = $1 AND event_id = $2`, [p.name, row.event_id]);
          applied += (await this.resumeStream(tx, p, table, row.stream_id)).applied.length;
        }
        await tx`SELECT set_config('search_path', 'public', true)`;
        for (const t of p.tables) {
          await tx.unsafe(`DROP TABLE IF EXISTS public.${t} CASCADE`);
          await tx.unsafe(`ALTER TABLE ${schema}.${t} SET SCHEMA public`);
        }
        // The replay's parked events (if it parked any) replace the old ones (keeping whether their alert went out).
        if (replayParked?.exists) {
          await tx.unsafe(
            `UPDATE ${table} r SET alerted_at = o.alerted_at FROM ${PARKED} o
           WHERE o.projector = r.projector AND o.event_id = r.event_id AND r.status = 'failed' AND o.status = 'failed'`,
          );
        }
        await tx`DELETE FROM parked_events WHERE projector = ${p.name} AND status IN ('failed', 'blocked')`;
        if (replayParked?.exists) {
          const columns = 'projector, event_id, position, stream_id, revision, type, status, error, attempts, parked_at, alerted_at';
          await tx.unsafe(
            `INSERT INTO ${PARKED} (${columns}) SELECT ${columns} FROM ${table} ON CONFLICT (projector, event_id) DO NOTHING`,
          );
        }
        await tx.unsafe(`DROP SCHEMA ${schema} CASCADE`);
        const total = done + caughtUp;
        await tx`UPDATE projection_checkpoints
               SET position = ${position}, status = 'running', events_processed = ${applied}, updated_at = now()
               WHERE name = ${p.name}`;
        await refreshParkedMark(tx, p.name);
        const pr = progress(total, 'completed');
        await tx`UPDATE projection_rebuilds SET status = 'completed', phase = 'completed', done = ${total}, total = ${pr.total},
                 events_per_second = ${pr.eventsPerSecond}, finished_at = now() WHERE name = ${p.name}`;
        return total;
      },
      lockingCheckpoint(p.name),
    );
  }
}

/** A row of `projection_rebuilds`. */
interface RebuildRow {
  name: string;
  status: string;
  done: bigint;
  total: bigint;
  events_per_second: number | null;
  started_at: Date;
  finished_at: Date | null;
  error: string | null;
  phase: RebuildPhase | null;
  rebuild_id: string | null;
  step_done: bigint | null;
  step_total: bigint | null;
}

function rebuildOf(rb: RebuildRow): NonNullable<ProjectionStatus['rebuild']> {
  return {
    status: rb.status,
    phase: rb.phase ?? (rb.status === 'running' ? 'replaying' : rb.status === 'completed' ? 'completed' : 'failed'),
    rebuildId: rb.rebuild_id,
    done: Number(rb.done),
    total: Number(rb.total),
    eventsPerSecond: rb.events_per_second,
    stepDone: rb.step_done === null ? null : Number(rb.step_done),
    stepTotal: rb.step_total === null ? null : Number(rb.step_total),
    startedAt: rb.started_at,
    finishedAt: rb.finished_at,
    error: rb.error,
  };
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
  const rebuilds = await sql<RebuildRow[]>`SELECT * FROM projection_rebuilds`;
  const parkedCounts = await sql<{ projector: string; parked: bigint }[]>`
    SELECT projector, count(*) AS parked FROM parked_events WHERE status IN ('failed', 'blocked') GROUP BY projector`.catch(
    (error: { code?: string }) => {
      if (error?.code === '42P01') return []; // no runner has set up yet
      throw error;
    },
  );
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
      parked: Number(parkedCounts.find((c) => c.projector === row.name)?.parked ?? 0),
      eventsProcessed: Number(row.events_processed),
      updatedAt: row.updated_at,
      rebuild: rb ? rebuildOf(rb) : null,
    });
  }
  return out;
}

/** How often a read-your-writes wait on projectors followed in this process still reads the checkpoints table. */
const FOLLOWED_HERE_CHECK_MS = 100;

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
  // Projectors followed in this process say so the moment they commit. The table is read on a
  // backoff for those followed elsewhere (or stopped: a stopped projector is not waited for);
  // for those followed here only now and then, in case another process applied the batch.
  const here = allFollowedHere(sql, names);
  let checkAt = here ? Date.now() + FOLLOWED_HERE_CHECK_MS : 0;
  // Only a read of the table started after this wait began (after the write committed) can answer it.
  let seen = checkpointReadsMade();
  for (let delay = 2; ; ) {
    if (committedHere(sql, names, position)) return true;
    if (Date.now() >= checkAt) {
      const read = checkpointTableAfter(sql, seen);
      const table = await read.checkpoints;
      seen = read.n;
      if (tableShowsPast(table, names, position)) return true;
      checkAt = Date.now() + (here ? FOLLOWED_HERE_CHECK_MS : delay);
      delay = Math.min(delay * 2, 25);
    }
    if (Date.now() >= deadline) return false;
    await nextCommit(Math.max(1, checkAt - Date.now()));
  }
}

/** At most `size` at once; the others wait their turn, in order. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

/** How often the indexing phase's figures are read while its indexes are built. */
const INDEX_PROGRESS_MS = 250;
/**
 * Indexes of a rebuild built side by side, each by one backend without parallel workers: over
 * the audit log's eight indexes that is about a third faster than one at a time with workers
 * (measured on two cores: 250-280 ms against 400 ms at 100,000 rows; workers on top only contend).
 */
const INDEX_BUILDERS = 3;

/**
 * Builds a rebuild's secondary indexes in its schema, up to INDEX_BUILDERS at a time (the slots are
 * shared by every projection of the rebuild), each builder in a transaction of its own (the tables
 * are private until the swap). An index over a million rows takes seconds: PostgreSQL's own
 * progress of the builds is reported meanwhile.
 * Committed without waiting for the WAL flush: the swap's commit flushes it before anyone sees them.
 */
async function buildIndexes(sql: Sql, p: Projector, schema: string, slots: Slots): Promise<void> {
  const queue = [...(p.indexes ?? [])];
  if (queue.length === 0) return;
  const pids: number[] = [];
  const watching = watchIndexBuild(sql, p.name, pids);
  try {
    const builders = Array.from({ length: Math.min(INDEX_BUILDERS, queue.length) }, () =>
      slots.run(() =>
        sql.begin(async (tx) => {
          const [backend] = await tx<{ pid: number }[]>`
            SELECT pg_backend_pid() AS pid, set_config('search_path', ${`${schema}, public`}, true), set_config('synchronous_commit', 'off', true), set_config('max_parallel_maintenance_workers', '0', true)`;
          pids.push(backend?.pid ?? 0);
          for (let index = queue.shift(); index !== undefined; index = queue.shift()) await tx.unsafe(index);
        }),
      ),
    );
    const failed = (await Promise.allSettled(builders)).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    await watching.stop();
  }
}

/**
 * Copies PostgreSQL's progress of the indexes being built by the backends `pids` (read at each
 * report; pg_stat_progress_create_index: table blocks scanned, then tuples loaded, summed over
 * the builds under way) into the rebuild's `step_done` / `step_total`, every INDEX_PROGRESS_MS,
 * until stopped.
 */
export function watchIndexBuild(sql: Sql, name: string, pids: readonly number[]): { stop(): Promise<void> } {
  let running = true;
  // Stopping cuts the wait short: the phase after the indexes must not wait for the next reading.
  let wake = () => {};
  const loop = (async () => {
    while (running) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, INDEX_PROGRESS_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (!running) break;
      await sql`
        UPDATE projection_rebuilds r SET step_done = p.done, step_total = p.total, heartbeat_at = now()
        FROM (SELECT sum(blocks_done + tuples_done) AS done, sum(blocks_total + tuples_total) AS total
              FROM pg_stat_progress_create_index WHERE pid = ANY(${[...pids]}::int[])) p
        WHERE r.name = ${name} AND p.total IS NOT NULL`.catch(() => {});
    }
  })();
  return {
    async stop() {
      running = false;
      wake();
      await loop;
    },
  };
}
