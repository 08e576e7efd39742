import type { Sql, TransactionSql } from '../../adapters/db/db.ts';

export async function migrateCheckpoints(sql: Sql): Promise<void> {
  await sql.unsafe(`
    CREATE TABLE IF NOT EXISTS projection_checkpoints (
      name             text PRIMARY KEY,
      kind             text NOT NULL DEFAULT 'projector',
      position         text COLLATE "C" NOT NULL DEFAULT '',
      events_processed bigint NOT NULL DEFAULT 0,
      status           text NOT NULL DEFAULT 'running',
      last_error       text,
      error_position   text,
      error_event_id   text,
      last_event_at    timestamptz,
      updated_at       timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE IF NOT EXISTS projection_rebuilds (
      name              text PRIMARY KEY,
      status            text NOT NULL,
      done              bigint NOT NULL DEFAULT 0,
      total             bigint NOT NULL DEFAULT 0,
      events_per_second double precision,
      started_at        timestamptz NOT NULL DEFAULT now(),
      finished_at       timestamptz,
      error             text
    );`);
}

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

/** Locks the checkpoint row for the transaction: one writer per projector, across processes. */
export async function lockCheckpoint(tx: TransactionSql, name: string): Promise<CheckpointRow> {
  const [row] = await tx<CheckpointRow[]>`SELECT * FROM projection_checkpoints WHERE name = ${name} FOR UPDATE`;
  if (!row) throw new Error(`No checkpoint for ${name}`);
  return row;
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
