import type { Sql } from '../../adapters/db/db.ts';
import type { Position } from '../../adapters/eventstore/eventStore.ts';
import { type KnownProjection, waitForProjections } from '../../projections/runner/projectionRunner.ts';

/** The write was recorded but the read models the answer needs have not shown it in time. */
export class ReadModelLagError extends Error {
  readonly retryAfterSeconds = 2;
  constructor() {
    super('Your change was saved, but it is taking longer than usual to show. Please try again in a moment.');
    this.name = 'ReadModelLagError';
  }
}

/**
 * Waits until the named projections have passed `position`, so the answer shows the caller's own
 * write; when they lag longer than `timeoutMs`, answers 503 with a retry hint rather than an
 * answer built from stale rows (a fresh registration must never look like "not signed in").
 */
export async function readYourWrites(
  sql: Sql,
  projections: readonly KnownProjection[],
  position: Position | null,
  timeoutMs = 5000,
): Promise<void> {
  if (!(await waitForProjections(sql, projections, position, timeoutMs))) throw new ReadModelLagError();
}
