import type { LimitFunction } from 'p-limit';
import type { Sql } from '../../adapters/db/db.ts';
import { readModelTransaction } from './checkpoints.ts';
import type { Projector } from './projector.ts';

/** At most so many at once; the others wait their turn, in order. */
export type Slots = LimitFunction;

/** How often the indexing phase's figures are read while its indexes are built. */
const INDEX_PROGRESS_MS = 250;
/**
 * Indexes of a rebuild built side by side, each by one backend without parallel workers: over
 * the audit log's eight indexes that is about a third faster than one at a time with workers
 * (measured on two cores: 250-280 ms against 400 ms at 100,000 rows; workers on top only contend).
 */
export const INDEX_BUILDERS = 3;

/**
 * Builds a rebuild's secondary indexes in its schema, up to INDEX_BUILDERS at a time (the slots are
 * shared by every projection of the rebuild), each builder in a transaction of its own (the tables
 * are private until the swap). An index over a million rows takes seconds: PostgreSQL's own
 * progress of the builds is reported meanwhile.
 * Committed without waiting for the WAL flush: the swap's commit flushes it before anyone sees them.
 */
export async function buildIndexes(sql: Sql, p: Projector, schema: string, slots: Slots): Promise<void> {
  const queue = [...(p.indexes ?? [])];
  if (queue.length === 0) return;
  const pids: number[] = [];
  const watching = watchIndexBuild(sql, p.name, pids);
  try {
    const builders = Array.from({ length: Math.min(INDEX_BUILDERS, queue.length) }, () =>
      slots(() =>
        // A read-model transaction: it appends no events, so the log's readers need not wait for it
        // (each index over a large table takes seconds, and every live follower would stall meanwhile).
        readModelTransaction<void, { xid: string; pid: number }>(
          sql,
          async (tx, backend) => {
            pids.push(backend.pid);
            for (let index = queue.shift(); index !== undefined; index = queue.shift()) await tx.unsafe(index);
          },
          (tx) => tx<{ xid: string; pid: number }[]>`
            SELECT pg_current_xact_id()::text AS xid, pg_backend_pid() AS pid, set_config('search_path', ${`${schema}, public`}, true),
                   set_config('synchronous_commit', 'off', true), set_config('max_parallel_maintenance_workers', '0', true)`,
        ),
      ),
    );
    const failed = (await Promise.allSettled(builders)).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    await watching.stop();
  }
}

/**
 * Copies PostgreSQL's progress of the indexes being built by the backends `pids` (read at each
 * report; pg_stat_progress_create_index: table blocks scanned, then tuples loaded, summed over
 * the builds under way) into the rebuild's `step_done` / `step_total`, every INDEX_PROGRESS_MS,
 * until stopped.
 */
export function watchIndexBuild(sql: Sql, name: string, pids: readonly number[]): { stop(): Promise<void> } {
  let running = true;
  // Stopping cuts the wait short: the phase after the indexes must not wait for the next reading.
  let wake = () => {};
  const loop = (async () => {
    while (running) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, INDEX_PROGRESS_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (!running) break;
      await sql`
        UPDATE projection_rebuilds r SET step_done = p.done, step_total = p.total, heartbeat_at = now()
        FROM (SELECT sum(blocks_done + tuples_done) AS done, sum(blocks_total + tuples_total) AS total
              FROM pg_stat_progress_create_index WHERE pid = ANY(${[...pids]}::int[])) p
        WHERE r.name = ${name} AND p.total IS NOT NULL`.catch(() => {});
    }
  })();
  return {
    async stop() {
      running = false;
      wake();
      await loop;
    },
  };
}
