-- Where each projector and reactor is in the log, and the progress of rebuilds. These belong to the
-- projection runner, not to any projector: a rebuild never recreates them.
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
);
