import type { Sql } from '../../db/db.ts';

/**
 * Gap-safe global order: every event row carries the id of the transaction that wrote it
 * (`pg_current_xact_id()`), and readers only see rows whose transaction id is below the oldest
 * transaction still running (`pg_snapshot_xmin`). A transaction that commits late with a lower
 * sequence number is therefore never skipped: it is not readable until it has finished.
 * Order and position are (txid, seq).
 */
export async function migrateEventStore(sql: Sql): Promise<void> {
  await sql.unsafe(`
    CREATE TABLE IF NOT EXISTS es_streams (
      stream_id  text COLLATE "C" PRIMARY KEY,
      category   text NOT NULL,
      revision   bigint NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE IF NOT EXISTS es_events (
      txid        xid8 NOT NULL DEFAULT pg_current_xact_id(),
      seq         bigserial NOT NULL,
      event_id    uuid NOT NULL,
      stream_id   text COLLATE "C" NOT NULL,
      revision    bigint NOT NULL,
      type        text NOT NULL,
      data        jsonb NOT NULL,
      metadata    jsonb NOT NULL,
      recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (txid, seq),
      CONSTRAINT es_events_event_id UNIQUE (event_id),
      CONSTRAINT es_events_stream_revision UNIQUE (stream_id, revision)
    );
  `);
}
