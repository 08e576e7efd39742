-- A rebuild's indexing phase (building a fresh read model's indexes over all its rows) reports how
-- far it is: step_done / step_total = table blocks scanned plus tuples loaded, as PostgreSQL's
-- pg_stat_progress_create_index counts them for the index being built.
ALTER TABLE projection_rebuilds
  ADD COLUMN IF NOT EXISTS step_done  bigint,
  ADD COLUMN IF NOT EXISTS step_total bigint;
