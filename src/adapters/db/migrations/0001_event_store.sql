-- The PostgreSQL event store. Created in every database, also when EVENTSTORE_URL puts the log in
-- EventStoreDB (the tables then stay empty): one schema history for every deployment.
--
-- Gap-safe global order: every event row carries the id of the transaction that wrote it
-- (pg_current_xact_id()), and readers only see rows whose transaction id is below the oldest
-- transaction still running (pg_snapshot_xmin). A transaction that commits late with a lower
-- sequence number is therefore never skipped: it is not readable until it has finished.
-- Order and position are (txid, seq).
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

-- Databases created before stream ids were compared bytewise: listing a category is a prefix
-- range on the primary key, which needs the "C" collation. Converted once, only where needed.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = 'es_streams' AND column_name = 'stream_id'
               AND collation_name IS DISTINCT FROM 'C') THEN
    ALTER TABLE es_streams ALTER COLUMN stream_id TYPE text COLLATE "C";
  END IF;
  IF EXISTS (SELECT 1 FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = 'es_events' AND column_name = 'stream_id'
               AND collation_name IS DISTINCT FROM 'C') THEN
    ALTER TABLE es_events ALTER COLUMN stream_id TYPE text COLLATE "C";
  END IF;
END $$;

-- Made redundant by the "C" primary key.
DROP INDEX IF EXISTS es_streams_category;
