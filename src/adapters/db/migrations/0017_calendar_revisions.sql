-- A counter per tutor's calendar, raised after every change Topmark makes to it (either adapter)
-- and, for Google, whenever the provider reports one. Every process's short-lived snapshot of a
-- calendar's busy time is used only while this counter is what it was when the snapshot was
-- taken, so a change made through any process takes effect at once on all of them.
CREATE TABLE IF NOT EXISTS calendar_revisions (
  owner_id   text COLLATE "C" PRIMARY KEY,
  revision   bigint NOT NULL DEFAULT 1,
  changed_at timestamptz NOT NULL DEFAULT now()
);
