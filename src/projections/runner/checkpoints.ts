import type { Sql, TransactionSql } from '../../adapters/db/db.ts';
import { readModelTransactions } from '../../adapters/db/readModelTransactions.ts';

/** projection_checkpoints and projection_rebuilds are created by migration 0002_projection_checkpoints.sql. */
export interface CheckpointRow {
  name: string;
  kind: string;
  position: string;
  events_processed: bigint;
  status: string;
  last_error: string | null;
  error_position: string | null;
  error_event_id: string | null;
  last_event_at: Date | null;
  updated_at: Date;
}

export async function ensureCheckpoint(sql: Sql, name: string, kind: 'projector' | 'reactor'): Promise<CheckpointRow> {
  await sql`INSERT INTO projection_checkpoints (name, kind) VALUES (${name}, ${kind}) ON CONFLICT (name) DO NOTHING`;
  const [row] = await sql<CheckpointRow[]>`SELECT * FROM projection_checkpoints WHERE name = ${name}`;
  return row as CheckpointRow;
}

/** A transaction's opening statement: it reads the transaction id, with whatever else the caller needs first. */
export type Opening<R extends { xid: string }> = (tx: TransactionSql) => Promise<readonly R[]>;

/**
 * Locks the checkpoint row for the transaction (one writer per projector, across processes) and
 * reads it with the transaction id: a `readModelTransaction`'s opening statement.
 */
export const lockingCheckpoint =
  (name: string): Opening<CheckpointRow & { xid: string }> =>
  async (tx) => {
    const rows = await tx<(CheckpointRow & { xid: string })[]>`
      SELECT *, pg_current_xact_id()::text AS xid FROM projection_checkpoints WHERE name = ${name} FOR UPDATE`;
    if (rows.length === 0) throw new Error(`No checkpoint for ${name}`);
    return rows;
  };

/** Locks the checkpoint row for the transaction: one writer per projector, across processes. */
export async function lockCheckpoint(tx: TransactionSql, name: string): Promise<CheckpointRow> {
  const [row] = await lockingCheckpoint(name)(tx);
  return row as CheckpointRow;
}

const xidOnly: Opening<{ xid: string }> = (tx) => tx<{ xid: string }[]>`SELECT pg_current_xact_id()::text AS xid`;

/**
 * Runs `work` in a transaction that writes read models only (it appends no events), listed in
 * `readModelTransactions` while it runs so that the event store's readers do not wait for it.
 * `open` is its first statement, which takes the transaction id (`pg_current_xact_id()` as `xid`)
 * and may do more in the same round trip (lock the checkpoint row, set the search path); its
 * row is handed to `work`. No row (a checkpoint that does not exist) is an error.
 */
export function readModelTransaction<T, R extends { xid: string } = { xid: string }>(
  sql: Sql,
  work: (tx: TransactionSql, opened: R) => Promise<T>,
  open: Opening<R> = xidOnly as unknown as Opening<R>,
): Promise<T> {
  return sql.begin(async (tx) => {
    const [row] = await open(tx);
    if (!row) throw new Error('The transaction found nothing to open (no checkpoint row)');
    readModelTransactions.begin(row.xid);
    try {
      return await work(tx, row);
    } finally {
      readModelTransactions.end(row.xid);
    }
  }) as Promise<T>;
}

/**
 * Events a projector could not apply, kept out of its way: `failed` is the event whose own apply
 * failed (with its error), `blocked` a later event of the same stream parked behind it to keep the
 * stream's order, `skipped` an operator's decision to leave an event out (kept as history, and so
 * that a rebuild that meets the same failure skips it again). Rows hold references, not data: a
 * retry reads the events from the log again (through the personal-data store, so an erased
 * person's data is not copied here).
 */
export function parkedEventsDdl(table = 'parked_events'): string {
  return `
    CREATE TABLE IF NOT EXISTS ${table} (
      projector   text NOT NULL,
      event_id    text NOT NULL,
      position    text COLLATE "C" NOT NULL,
      stream_id   text COLLATE "C" NOT NULL,
      revision    bigint NOT NULL,
      type        text NOT NULL,
      status      text NOT NULL CHECK (status IN ('failed', 'blocked', 'skipped')),
      error       text,
      attempts    int NOT NULL DEFAULT 1,
      parked_at   timestamptz NOT NULL DEFAULT now(),
      alerted_at  timestamptz,
      resolved_at timestamptz,
      reason      text,
      actor       text,
      PRIMARY KEY (projector, event_id)
    );
    CREATE INDEX IF NOT EXISTS parked_events_stream ON ${table} (projector, stream_id, position);`;
}

export type ParkedStatus = 'failed' | 'blocked' | 'skipped';

export interface ParkedRow {
  projector: string;
  event_id: string;
  position: string;
  stream_id: string;
  revision: bigint | number;
  type: string;
  status: ParkedStatus;
  error: string | null;
  attempts: number;
  parked_at: Date;
  alerted_at: Date | null;
  resolved_at: Date | null;
  reason: string | null;
  actor: string | null;
}

export async function advanceCheckpoint(
  tx: TransactionSql,
  name: string,
  position: string,
  processed: number,
  lastEventAt: Date,
): Promise<void> {
  await tx`UPDATE projection_checkpoints
           SET position = ${position}, events_processed = events_processed + ${processed},
               last_event_at = ${lastEventAt}, updated_at = now()
           WHERE name = ${name}`;
}
