import type { Sql } from '../../adapters/db/db.ts';
import type { Position } from '../../adapters/eventstore/eventStore.ts';
import { hearCheckpoints } from './checkpointNotices.ts';
import {
  allFollowedHere,
  checkpointReadsMade,
  checkpointTableAfter,
  committedHere,
  nextCommit,
  tableShowsPast,
} from './committedProgress.ts';

/**
 * The projections (projectors, and the reactors a request may wait for) that exist, by name: the
 * lists that define them add their names here by declaration merging, each as a property whose
 * type is its names (src/projections/projectors.ts adds every projector's). The runner cannot
 * import those lists (they import the runner), yet a wait for a name none of them adds must not compile.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging from the lists of projections.
export interface KnownProjections {}

/** The name of a projection that exists: what a read-your-writes wait may name. */
export type KnownProjection = KnownProjections[keyof KnownProjections];

/** A wait named a projection that has no checkpoint: it would never be behind, so the wait would be skipped. */
export class UnknownProjectionError extends Error {
  constructor(readonly names: readonly string[]) {
    super(`No projection is named ${names.join(', ')}: there is nothing to wait for`);
    this.name = 'UnknownProjectionError';
  }
}

/**
 * How often a read-your-writes wait still reads the checkpoints table when it is told of commits
 * (projectors followed in this process, or notices from the process that follows them).
 */
const FOLLOWED_HERE_CHECK_MS = 100;

/**
 * Read-your-writes: resolves once every named projection has passed `position` (or stopped),
 * or after `timeoutMs`; returns whether they all caught up. A name the checkpoints table does not
 * know throws (`UnknownProjectionError`) rather than count as caught up: a typo must not skip the wait.
 */
export async function waitForProjections(
  sql: Sql,
  names: readonly KnownProjection[],
  position: Position | null,
  timeoutMs = 3000,
): Promise<boolean> {
  if (!position || names.length === 0) return true;
  const deadline = Date.now() + timeoutMs;
  // Projectors followed in this process say so the moment they commit, and those followed by
  // another process through its notices (checkpointNotices.ts). The table is then read only now
  // and then (a lost notice, a batch applied elsewhere, a stopped projector: not waited for); on
  // a backoff until notices are arriving.
  const here = allFollowedHere(sql, names);
  // Followed elsewhere: the projector process's notices tell this one when a checkpoint moves.
  const told = () => here || hearCheckpoints(sql);
  let checkAt = here ? Date.now() + FOLLOWED_HERE_CHECK_MS : 0;
  // Only a read of the table started after this wait began (after the write committed) can answer it.
  let seen = checkpointReadsMade();
  for (let delay = 2; ; ) {
    if (committedHere(sql, names, position)) return true;
    if (Date.now() >= checkAt) {
      const read = checkpointTableAfter(sql, seen);
      const table = await read.checkpoints;
      seen = read.n;
      const unknown = names.filter((name) => !table.has(name));
      if (unknown.length > 0) throw new UnknownProjectionError(unknown);
      if (tableShowsPast(table, names, position)) return true;
      checkAt = Date.now() + (told() ? FOLLOWED_HERE_CHECK_MS : delay);
      delay = Math.min(delay * 2, 25);
    }
    if (Date.now() >= deadline) return false;
    await nextCommit(Math.max(1, checkAt - Date.now()));
  }
}
