-- One AES-256-GCM key per data subject (user-<id>, contact-<id>). Deleting a row crypto-shreds
-- everything sealed with it: personal fields of events, their request metadata, outbox mail.
CREATE TABLE IF NOT EXISTS personal_data_keys (
  subject    text PRIMARY KEY,
  key        bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
