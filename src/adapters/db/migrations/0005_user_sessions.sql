-- Server-side sessions: the cookie holds a random token, the table only its hash.
CREATE TABLE IF NOT EXISTS user_sessions (
  token_hash   text PRIMARY KEY,
  user_id      text NOT NULL,
  role         text NOT NULL,
  student_id   text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);

CREATE INDEX IF NOT EXISTS user_sessions_user ON user_sessions (user_id);
