-- Responses of writes sent with an Idempotency-Key, replayed for repeats; kept a day.
CREATE TABLE IF NOT EXISTS http_idempotency (
  scope        text NOT NULL,
  key          text NOT NULL,
  request_hash text NOT NULL,
  status_code  int,
  body         jsonb,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, key)
);

-- Whose data a stored response holds, so deleting the account deletes it (databases created
-- before the column existed get it here).
ALTER TABLE http_idempotency ADD COLUMN IF NOT EXISTS subject text;

CREATE INDEX IF NOT EXISTS http_idempotency_subject ON http_idempotency (subject);
