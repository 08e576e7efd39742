-- State of the running instances of each workflow (account deletion, …), written in the same
-- transaction as the workflow's checkpoint. Not a read model: never rebuilt, so it belongs here.
-- A finished instance's row is deleted.
CREATE TABLE IF NOT EXISTS workflow_state (
  workflow   text NOT NULL,
  instance   text NOT NULL,
  state      jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workflow, instance)
);
