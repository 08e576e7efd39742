import type { TransactionSql } from '../../adapters/db/db.ts';
import type { EventStore, Position, RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import { lockCheckpoint, type ParkedRow, type ParkedStatus, parkedEventsDdl } from './checkpoints.ts';
import { errorText, isTransient } from './errorClassification.ts';
import type { ApplyTarget, Projector } from './projector.ts';
import type { RunnerContext } from './runnerContext.ts';

/**
 * Parking: an event a projector cannot apply is set aside with its error (and the later events of
 * its stream behind it), the projector goes on, and an operator retries or skips it later.
 */

/** The live table of parked events (a rebuild parks into a table of its own schema, swapped in with it). */
export const PARKED = 'parked_events';

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

/** An event about to be parked, as written to a parked events table. */
export interface NewParked {
  event_id: string;
  position: string;
  stream_id: string;
  revision: number;
  type: string;
  status: 'failed' | 'blocked';
  error: string | null;
}

/** Where parked events go: the live table, or the rebuild's own (its streams then kept in memory). */
export interface Parking {
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

/** No streams parked, no events skipped. */
export const NONE: ReadonlySet<string> = new Set();

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
export async function refreshParkedMark(tx: TransactionSql, projector: string): Promise<void> {
  await tx`
    UPDATE projection_checkpoints SET (last_error, error_event_id, error_position) = (
      SELECT coalesce(error, 'waiting behind a parked event of its stream'), event_id, position FROM parked_events
      WHERE projector = ${projector} AND status IN ('failed', 'blocked')
      ORDER BY status = 'failed' DESC, parked_at DESC, position DESC LIMIT 1
    ), updated_at = now()
    WHERE name = ${projector}`;
}

/**
 * Applies handled events, leaving out (parking as blocked) those of streams with parked events.
 * Careful: one event at a time in a savepoint, parking each that fails and its stream's later ones.
 */
export async function applyParking(
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

/**
 * Applies a stream's parked events in order, in the caller's transaction (which holds the
 * checkpoint lock), first all together, else one by one up to the first that fails again.
 */
export async function resumeStream(
  tx: TransactionSql,
  store: EventStore,
  p: Projector,
  table: string,
  streamId: string,
): Promise<ResumeOutcome> {
  const rows = await tx.unsafe<ParkedRow[]>(
    `SELECT * FROM ${table} WHERE projector = $1 AND stream_id = $2 AND status <> 'skipped' ORDER BY position FOR UPDATE`,
    [p.name, streamId],
  );
  const outcome: ResumeOutcome = { projector: p.name, streamId, applied: [], stillParked: 0, failedEventId: null, error: null };
  if (rows.length === 0) return outcome;
  const wanted = new Map(rows.map((r) => [r.event_id, r]));
  const minRevision = Math.min(...rows.map((r) => Number(r.revision)));
  const found = (await store.readStream(streamId, { fromRevision: minRevision })).filter((e) => wanted.has(e.id));
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

/** The parked events of one runner's projectors, as an operator sees and settles them. */
export class ParkedEvents {
  constructor(private readonly context: RunnerContext) {}

  /** Calls `onParked` for every failed parked event whose alert is not confirmed yet. */
  async raiseAlerts(names: readonly string[] = this.context.projectors.map((p) => p.name)): Promise<void> {
    const rows = await this.context.sql<ParkedRow[]>`
      SELECT * FROM parked_events WHERE projector = ANY(${names as string[]}) AND status = 'failed' AND alerted_at IS NULL
      ORDER BY parked_at, position`;
    for (const row of rows) {
      try {
        await this.context.onParked?.(
          row.projector,
          { id: row.event_id, type: row.type, streamId: row.stream_id, position: row.position },
          row.error ?? '',
        );
      } catch (error) {
        this.context.options.log?.(
          `${this.context.kind} ${row.projector}: the alert for parked event ${row.event_id} failed; it is raised again later`,
          {
            error: String(error),
          },
        );
        continue;
      }
      await this.context.sql`UPDATE parked_events SET alerted_at = now() WHERE projector = ${row.projector} AND event_id = ${row.event_id}`;
    }
  }

  /** Parked events of this runner's projectors (or of one), oldest first; skipped ones only when asked. */
  async list(name?: string, options: { includeSkipped?: boolean } = {}): Promise<ParkedEvent[]> {
    const names = name === undefined ? this.context.projectors.map((p) => p.name) : [this.projector(name).name];
    const statuses = options.includeSkipped ? ['failed', 'blocked', 'skipped'] : ['failed', 'blocked'];
    const rows = await this.context.sql<ParkedRow[]>`
      SELECT * FROM parked_events WHERE projector = ANY(${names}) AND status = ANY(${statuses})
      ORDER BY projector, position`;
    return rows.map(toParkedEvent);
  }

  private projector(name: string): Projector {
    const p = this.context.projectors.find((x) => x.name === name);
    if (!p) throw new Error(`Unknown ${this.context.kind} ${name}`);
    return p;
  }

  /**
   * Applies the parked events of the stream of `eventId` again, in order (after a fix). Those
   * applied are removed; at the first that fails again the rest stay parked, with its new error.
   */
  async retry(name: string, eventId: string): Promise<ResumeOutcome> {
    const p = this.projector(name);
    const outcome = await this.context.sql.begin(async (tx) => {
      await lockCheckpoint(tx, name);
      const [row] = await tx<ParkedRow[]>`
        SELECT * FROM parked_events WHERE projector = ${name} AND event_id = ${eventId} AND status <> 'skipped'`;
      if (!row) throw new NotParkedError(name, eventId);
      return resumeStream(tx, this.context.store, p, PARKED, row.stream_id);
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
  async skip(
    name: string,
    eventId: string,
    decision: { reason: string; actor: string | null },
    record: (event: ParkedEvent) => Promise<void> = async () => {},
  ): Promise<SkipOutcome> {
    const p = this.projector(name);
    if (!decision.reason.trim()) throw new Error('A skip needs a reason');
    const outcome = await this.context.sql.begin(async (tx) => {
      await lockCheckpoint(tx, name);
      const [row] = await tx<ParkedRow[]>`
        SELECT * FROM parked_events WHERE projector = ${name} AND event_id = ${eventId} AND status <> 'skipped' FOR UPDATE`;
      if (!row) throw new NotParkedError(name, eventId);
      await record(toParkedEvent(row));
      const [skipped] = await tx<ParkedRow[]>`
        UPDATE parked_events SET status = 'skipped', reason = ${decision.reason}, actor = ${decision.actor}, resolved_at = now()
        WHERE projector = ${name} AND event_id = ${eventId} RETURNING *`;
      const resumed = await resumeStream(tx, this.context.store, p, PARKED, row.stream_id);
      return { ...resumed, skipped: toParkedEvent(skipped as ParkedRow) };
    });
    await this.afterResume(outcome);
    return outcome;
  }

  private async afterResume(outcome: ResumeOutcome): Promise<void> {
    if (outcome.applied.length > 0) this.context.wake();
    if (outcome.error) await this.raiseAlerts([outcome.projector]);
  }
}
