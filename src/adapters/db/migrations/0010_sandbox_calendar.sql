-- The sandbox calendar: the stand-in for Google Calendar when no Google credentials are
-- configured (development, tests, demos). Written by the calendar adapter, never rebuilt from
-- the log, so it belongs here. One calendar per tutor.
CREATE TABLE IF NOT EXISTS sandbox_calendars (
  owner_id   text PRIMARY KEY,
  email      text NOT NULL,
  time_zone  text NOT NULL DEFAULT 'America/New_York',
  -- What a dev can switch to try every calendar state: granted, read_only (no writer access),
  -- revoked (the tutor's grant is gone: invalid_grant), disconnected (never connected).
  access     text NOT NULL DEFAULT 'granted' CHECK (access IN ('granted', 'read_only', 'revoked', 'disconnected')),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Events as Google keeps them: start/end as given (RFC 3339 date-time with an offset, or a
-- wall-clock date-time with its zone, or an all-day date), recurrence lines (RRULE, EXDATE), and a
-- deleted event kept as `cancelled` so its id cannot be created again. A changed occurrence of a
-- series is its own row (id `<series>_<UTC start>`, recurring_event_id set) and an EXDATE on the series.
CREATE TABLE IF NOT EXISTS sandbox_calendar_events (
  owner_id              text NOT NULL REFERENCES sandbox_calendars (owner_id) ON DELETE CASCADE,
  event_id              text COLLATE "C" NOT NULL,
  status                text NOT NULL DEFAULT 'confirmed' CHECK (status IN ('confirmed', 'tentative', 'cancelled')),
  summary               text NOT NULL DEFAULT '',
  description           text,
  start_time            jsonb NOT NULL,
  end_time              jsonb NOT NULL,
  -- The first occurrence as instants, for range look-ups (a series runs on from starts_at).
  starts_at             timestamptz NOT NULL,
  ends_at               timestamptz NOT NULL,
  recurrence            jsonb,
  recurring_event_id    text COLLATE "C",
  transparency          text NOT NULL DEFAULT 'opaque' CHECK (transparency IN ('opaque', 'transparent')),
  attendees             jsonb NOT NULL DEFAULT '[]',
  conference_request_id text,
  meeting_link          text,
  private_properties    jsonb NOT NULL DEFAULT '{}',
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (owner_id, event_id)
);

CREATE INDEX IF NOT EXISTS sandbox_calendar_events_starts ON sandbox_calendar_events (owner_id, starts_at);
