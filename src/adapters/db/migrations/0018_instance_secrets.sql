-- Secrets every process of one installation must share and none is given by the environment
-- (the cookie-signing secret when COOKIE_SECRET is unset): made once by the first process that
-- needs it, read by every other, so two API replicas sign and check alike.
CREATE TABLE IF NOT EXISTS instance_secrets (
  name       text PRIMARY KEY,
  secret     text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
