-- Accounts an admin deactivated (issue 12 §2). The session store refuses every session of a user
-- listed here, so a cookie stops working at once, even one a sign-in racing the deactivation made.
CREATE TABLE IF NOT EXISTS suspended_accounts (
  user_id      text PRIMARY KEY,
  suspended_at timestamptz NOT NULL DEFAULT now()
);
