-- Google Calendar change notifications and incremental sync, one row per tutor whose calendar is
-- watched: the live push channel (Google's events.watch: its id, the resource Google watches, the
-- address messages go to, its expiry), the sync token the next incremental listing starts from,
-- and how the last sync went. A push message is accepted only for the live channel named here
-- (and with the token derived from the channel id); the 5-minute sweep syncs every row.
CREATE TABLE IF NOT EXISTS calendar_watches (
  tutor_id           text COLLATE "C" PRIMARY KEY,
  channel_id         text UNIQUE,
  resource_id        text,
  channel_address    text,
  channel_expires_at timestamptz,
  sync_token         text,
  last_sync_at       timestamptz,
  last_error_reason  text,
  last_error         text,
  last_error_at      timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
