-- Fixed-window counters shared by every API process; keys are hashes, never addresses.
CREATE TABLE IF NOT EXISTS rate_limits (
  key          text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  count        int NOT NULL
);
