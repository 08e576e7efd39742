-- The dev mailbox: mail kept instead of sent when no SMTP server is configured.
CREATE TABLE IF NOT EXISTS mail_outbox (
  id         text PRIMARY KEY,
  recipient  text NOT NULL,
  subject    text NOT NULL,
  body       text NOT NULL,
  sent_at    timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS mail_outbox_recipient ON mail_outbox (lower(recipient), sent_at DESC);
