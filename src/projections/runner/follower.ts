import type { Position, RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import { checkpointMoved } from './checkpointNotices.ts';
import { type CheckpointRow, lockingCheckpoint, readModelTransaction } from './checkpoints.ts';
import {
  checkpointCommitted,
  checkpointReadsMade,
  checkpointTableAfter,
  followedHere,
  tableShowsPast,
  unfollowedHere,
} from './committedProgress.ts';
import { fastThenCareful } from './errorClassification.ts';
import { applyParking, type NewParked, NONE, PARKED, type ParkedEvents, type Parking } from './parking.ts';
import { handledBy, type Projector } from './projector.ts';
import type { RunnerContext } from './runnerContext.ts';
import { lastOf } from './sharedReader.ts';

/** How soon a projector whose idle checkpoint was locked elsewhere is looked at again. */
const IDLE_RETRY_MS = 20;

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
export class Follower {
  private readonly pollMs: number;
  private readonly retryMs: number;
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
    private readonly context: RunnerContext,
    private readonly parkedEvents: ParkedEvents,
  ) {
    this.pollMs = context.options.pollMs ?? 500;
    this.retryMs = context.options.retryMs ?? 1000;
  }

  /** Follows the log (the caller has set the tables up). */
  start(): void {
    this.stopped = false;
    followedHere(
      this.context.sql,
      this.context.projectors.map((p) => p.name),
    );
    this.unwatch = this.context.store.watch(() => this.wake());
    this.loop = this.follow();
  }

  async stop(): Promise<void> {
    if (!this.stopped)
      unfollowedHere(
        this.context.sql,
        this.context.projectors.map((p) => p.name),
      );
    this.stopped = true;
    this.unwatch?.();
    this.unwatch = null;
    this.wake();
    await this.loop;
    await Promise.all(this.applying.values());
    this.loop = null;
  }

  wake(): void {
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
    await this.parkedEvents
      .raiseAlerts()
      .catch((error: unknown) =>
        this.context.options.log?.(`${this.context.kind} alerts for parked events failed`, { error: String(error) }),
      );
    let quick = 0;
    while (!this.stopped) {
      try {
        if (await this.round(this.context.projectors, 'retry later')) {
          quick = 0;
          continue;
        }
        // Only retries still to come count: one whose time has passed is due in the next round anyway.
        const now = Date.now();
        const retryIn = Math.max(1, Math.min(...[...this.retryAt.values()].filter((t) => t > now).map((t) => t - now), this.pollMs));
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
        this.context.options.log?.(`${this.context.kind} runner will retry after an error`, { error: String(error) });
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
    const rows = await this.context.sql<{ name: string; position: string; status: string }[]>`
      SELECT name, position, status FROM projection_checkpoints WHERE name = ANY(${due.map((p) => p.name)})`;
    const at = new Map(rows.filter((r) => r.status === 'running').map((r) => [r.name, r.position]));
    // Committed, whoever applied it (another process following the same projector): tell the waiters.
    for (const r of rows) checkpointCommitted(this.context.sql, r.name, r.position);
    let pending = due.filter((p) => at.has(p.name)).sort((a, b) => ((at.get(a.name) as string) < (at.get(b.name) as string) ? -1 : 1));
    const work: Promise<void>[] = [];
    const hand = (names: readonly string[], applied: Promise<void>) => {
      if (onError === 'throw') {
        work.push(applied);
        return;
      }
      const settled = applied
        .catch((error: unknown) =>
          this.context.options.log?.(`${this.context.kind} runner will retry after an error`, { error: String(error) }),
        )
        .finally(() => {
          for (const name of names) this.applying.delete(name);
          this.wake();
        });
      for (const name of names) this.applying.set(name, settled);
    };
    let read = false;
    while (pending.length > 0) {
      const from = at.get((pending[0] as Projector).name) as string;
      const batch = await this.context.store.readAll(from, this.context.batchSize);
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
              this.context.options.log?.(`${this.context.kind} ${p.name} will retry after an error`, { error: String(error) });
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
      pending = batch.length < this.context.batchSize ? [] : pending.filter((x) => (at.get(x.name) as string) >= last.position);
    }
    await Promise.all(work);
    return read;
  }

  /**
   * Moves the checkpoints of projectors that handle none of a batch's events, in one statement.
   * Rows locked elsewhere (a batch of another process, a rebuild's swap) are left for a later
   * round: waiting on one would keep this statement's transaction open with an id, and the log's
   * readers (every follower of this process) see nothing past an open transaction that has one.
   */
  private async advanceIdle(idle: readonly { name: string; from: Position }[], last: RecordedEvent): Promise<void> {
    const names = idle.map((i) => i.name);
    const moved = await this.context.sql<{ name: string }[]>`
      UPDATE projection_checkpoints c SET position = ${last.position}, last_event_at = ${last.recordedAt}, updated_at = now()
      FROM unnest(${names}::text[], ${idle.map((i) => i.from)}::text[]) AS x(name, from_position)
      WHERE c.name = x.name AND c.position = x.from_position AND c.status = 'running'
        AND c.name IN (SELECT name FROM projection_checkpoints WHERE name = ANY(${names}) FOR UPDATE SKIP LOCKED)
      RETURNING c.name`;
    const movedNames = new Set(moved.map((m) => m.name));
    for (const name of movedNames) {
      this.retryAt.delete(name);
      checkpointMoved(this.context.sql, name, last.position, this.context.options.announceCheckpoints ?? false);
    }
    // Locked, or moved by someone else meanwhile: look again shortly rather than at once (no busy loop).
    for (const name of names) if (!movedNames.has(name)) this.retryAt.set(name, Date.now() + IDLE_RETRY_MS);
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
  async catchUp(names: readonly string[], timeoutMs: number): Promise<void> {
    const selected = this.context.projectors.filter((p) => names.includes(p.name));
    const selectedNames = selected.map((p) => p.name);
    const head = await this.context.store.committedPosition();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let more = true; more; ) more = await this.round(selected, 'throw');
      // The same reading of the checkpoints table as a read-your-writes wait.
      const table = await checkpointTableAfter(this.context.sql, checkpointReadsMade()).checkpoints;
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
      if (careful) this.context.options.log?.(`${this.context.kind} ${p.name}: a batch failed, applying it event by event`);
      return this.applyLive(p, from, events, careful);
    });
    const failed = parked.filter((e) => e.status === 'failed');
    for (const e of failed) {
      this.context.options.log?.(`${this.context.kind} ${p.name} parked an event it cannot apply`, {
        eventId: e.event_id,
        type: e.type,
        error: e.error,
      });
    }
    if (failed.length > 0) await this.parkedEvents.raiseAlerts([p.name]);
  }

  private async applyLive(p: Projector, from: Position, events: RecordedEvent[], careful: boolean): Promise<NewParked[]> {
    let moved = false;
    const parked = await readModelTransaction(
      this.context.sql,
      async (tx, cp: CheckpointRow & { xid: string }) => {
        if (cp.position !== from || cp.status !== 'running') return [];
        moved = true;
        const handled = handledBy(p, events);
        // The checkpoint row, read under its lock, is current: its mark says whether to look for parked streams.
        const parking: Parking = { table: PARKED, target: 'live', streams: cp.error_event_id === null ? NONE : null, skipped: NONE };
        const result = await applyParking(tx, p, handled, parking, careful);
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
    if (moved) checkpointMoved(this.context.sql, p.name, lastOf(events).position, this.context.options.announceCheckpoints ?? false);
    return parked;
  }
}
