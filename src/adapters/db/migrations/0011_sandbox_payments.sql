-- The sandbox payment provider: the stand-in for Stripe when no STRIPE_SECRET_KEY is configured
-- (development, tests, demos; refused in production). Written by the payments adapter, never
-- rebuilt from the log, so it belongs here. Card numbers are never stored: the last 4 digits only.
CREATE TABLE IF NOT EXISTS sandbox_payment_intents (
  id                    text COLLATE "C" PRIMARY KEY,
  client_secret         text NOT NULL,
  amount_cents          integer NOT NULL CHECK (amount_cents > 0),
  currency              text NOT NULL DEFAULT 'cad',
  description           text,
  metadata              jsonb NOT NULL DEFAULT '{}',
  status                text NOT NULL DEFAULT 'requires_payment_method'
                        CHECK (status IN ('requires_payment_method', 'requires_action', 'processing', 'succeeded', 'canceled')),
  -- The last attempt's failure, as Stripe's last_payment_error (cleared by a success).
  last_error_code       text,
  last_error_message    text,
  card_last4            text CHECK (card_last4 ~ '^[0-9]{4}$'),
  amount_refunded_cents integer NOT NULL DEFAULT 0 CHECK (amount_refunded_cents >= 0 AND amount_refunded_cents <= amount_cents),
  -- Set when the intent pays a checkout session (made at the session's first payment attempt).
  checkout_session_id   text COLLATE "C",
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);

-- Hosted checkout (repurchase): the page is /sandbox/checkout/{id}.
CREATE TABLE IF NOT EXISTS sandbox_checkout_sessions (
  id                text COLLATE "C" PRIMARY KEY,
  amount_cents      integer NOT NULL CHECK (amount_cents > 0),
  currency          text NOT NULL DEFAULT 'cad',
  description       text NOT NULL,
  metadata          jsonb NOT NULL DEFAULT '{}',
  success_url       text NOT NULL,
  cancel_url        text NOT NULL,
  status            text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'complete', 'expired')),
  payment_intent_id text COLLATE "C" REFERENCES sandbox_payment_intents (id),
  expires_at        timestamptz NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS sandbox_refunds (
  id                text COLLATE "C" PRIMARY KEY,
  payment_intent_id text COLLATE "C" NOT NULL REFERENCES sandbox_payment_intents (id),
  amount_cents      integer NOT NULL CHECK (amount_cents > 0),
  status            text NOT NULL DEFAULT 'succeeded',
  created_at        timestamptz NOT NULL DEFAULT now()
);

-- Idempotency keys as Stripe keeps them: a key answers the object it made for the same request
-- (request_hash) and refuses any other request.
CREATE TABLE IF NOT EXISTS sandbox_payment_idempotency (
  idempotency_key text COLLATE "C" PRIMARY KEY,
  operation       text NOT NULL,
  request_hash    text NOT NULL,
  object_id       text,
  created_at      timestamptz NOT NULL DEFAULT now()
);

-- The outbox of provider events (what Stripe would POST as webhooks), written in the same
-- transaction as the change they report; consumers read the undelivered ones in order and mark
-- each delivered once handled.
CREATE TABLE IF NOT EXISTS sandbox_payment_events (
  seq          bigserial UNIQUE,
  id           text COLLATE "C" PRIMARY KEY,
  type         text NOT NULL,
  payload      jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz
);

CREATE INDEX IF NOT EXISTS sandbox_payment_events_pending ON sandbox_payment_events (seq) WHERE delivered_at IS NULL;
