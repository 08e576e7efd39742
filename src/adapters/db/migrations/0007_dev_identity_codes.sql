-- One-time codes of the dev identity provider (no Google credentials): hashed, ten minutes.
CREATE TABLE IF NOT EXISTS dev_identity_codes (
  code           text PRIMARY KEY,
  email          text NOT NULL,
  first_name     text NOT NULL DEFAULT '',
  last_name      text NOT NULL DEFAULT '',
  code_challenge text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
