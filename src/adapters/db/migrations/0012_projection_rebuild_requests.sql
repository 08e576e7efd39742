-- A rebuild asked for from the console runs in the process that runs the projectors: the request
-- is a row here (status 'requested') that process claims. rebuild_id names the request (one id for
-- a rebuild of all), phase says where it is, heartbeat_at shows the rebuilding process is alive.
ALTER TABLE projection_rebuilds
  ADD COLUMN IF NOT EXISTS rebuild_id   uuid,
  ADD COLUMN IF NOT EXISTS phase        text,
  ADD COLUMN IF NOT EXISTS requested_at timestamptz,
  ADD COLUMN IF NOT EXISTS heartbeat_at timestamptz;
