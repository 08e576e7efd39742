import pLimit from 'p-limit';
import { type Position, START } from '../../adapters/eventstore/eventStore.ts';
import { checkpointMoved } from './checkpointNotices.ts';
import { ensureCheckpoint, lockingCheckpoint, readModelTransaction } from './checkpoints.ts';
import { errorText, fastThenCareful } from './errorClassification.ts';
import { buildIndexes, INDEX_BUILDERS } from './indexBuilds.ts';
import { applyParking, PARKED, type ParkedEvents, type Parking, refreshParkedMark, resumeStream } from './parking.ts';
import { handledBy, type Projector } from './projector.ts';
import type { RunnerContext } from './runnerContext.ts';
import { FIRST_REBUILD_BATCH, lastOf, SharedReader } from './sharedReader.ts';

export type RebuildPhase = 'requested' | 'replaying' | 'indexing' | 'swapping' | 'completed' | 'failed';

export interface RebuildProgress {
  status: string;
  /** replaying the log into fresh tables, indexing them, then swapping them in (catch-up, move). */
  phase: RebuildPhase;
  done: number;
  total: number;
  eventsPerSecond: number | null;
  startedAt: Date;
  finishedAt: Date | null;
  error: string | null;
}

/** The schema a rebuild fills its fresh tables in. */
const rebuildSchema = (name: string) => `rebuild_${name.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`;

/**
 * Rebuilds several projectors from one read of the log: each batch is read once and applied to
 * every projector's fresh tables, each projector in its own transactions and at its own pace
 * (the slowest does not hold the others back batch by batch; each swaps in when it is done). A rebuild
 * starts over: its projectors' parked events are replaced by what the replay parks (events that
 * apply now are resolved; an event an operator skipped and that still fails stays skipped).
 * Batch transactions commit without waiting for the WAL flush: the fresh tables are private
 * until the swap (which commits normally) and a rebuild cut short starts over anyway.
 */
export async function rebuildAll(
  context: RunnerContext,
  parkedEvents: ParkedEvents,
  names: readonly string[],
  onProgress: (name: string, progress: RebuildProgress) => void = () => {},
): Promise<RebuildProgress[]> {
  if (context.kind !== 'projector') throw new Error('Only projectors can be rebuilt');
  const targets = [...new Set(names)].map((name) => {
    const p = context.projectors.find((x) => x.name === name);
    if (!p) throw new Error(`Unknown projection ${name}`);
    return p;
  });
  if (targets.length === 0) return [];
  const sql = context.sql;
  const all = targets.map((p) => p.name);
  const total = await context.store.countAfter(START);
  const startedAt = new Date();
  const progress = (done: number, status = 'running', error: string | null = null): RebuildProgress => {
    const seconds = (Date.now() - startedAt.getTime()) / 1000;
    return {
      status,
      phase: status === 'running' ? 'replaying' : status === 'completed' ? 'completed' : 'failed',
      done,
      total: Math.max(total, done),
      eventsPerSecond: seconds > 0 ? done / seconds : null,
      startedAt,
      finishedAt: status === 'running' ? null : new Date(),
      error,
    };
  };
  const skips = await sql<{ projector: string; event_id: string }[]>`
    SELECT projector, event_id FROM parked_events WHERE projector = ANY(${all}) AND status = 'skipped'`;
  await Promise.all(targets.map((p) => ensureCheckpoint(sql, p.name, 'projector')));
  await sql`INSERT INTO projection_rebuilds (name, status, done, total, started_at, finished_at, error, events_per_second, phase, heartbeat_at)
            SELECT unnest(${all}::text[]), 'running', 0, ${total}, ${startedAt}, null, null, null, 'replaying', now()
            ON CONFLICT (name) DO UPDATE SET status = 'running', done = 0, total = ${total},
              started_at = ${startedAt}, finished_at = null, error = null, events_per_second = null,
              phase = 'replaying', heartbeat_at = now(), step_done = null, step_total = null`;
  // Every fresh schema first, one after another in one transaction on one connection, without
  // waiting for the WAL flush (private schemas; a rebuild cut short starts over). Sixteen schema
  // setups at once on as many new connections took twice as long, each backend loading its
  // catalogue caches, and held the replay back. A projector whose setup fails fails alone.
  const setupFailures = new Map<string, unknown>();
  // A read-model transaction too: the log's readers do not wait for it.
  await readModelTransaction(
    sql,
    async (tx) => {
      for (const p of targets) {
        const schema = rebuildSchema(p.name);
        await tx
          .savepoint(async (sp) => {
            await sp.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
            await sp`SELECT set_config('search_path', ${`${schema}, public`}, true)`;
            await p.setup(sp);
          })
          .catch((error: unknown) => setupFailures.set(p.name, error));
      }
    },
    (tx) => tx<{ xid: string }[]>`SELECT pg_current_xact_id()::text AS xid, set_config('synchronous_commit', 'off', true)`,
  ).catch((error: unknown) => {
    for (const p of targets) setupFailures.set(p.name, error);
  });
  const batchSize = Math.max(context.batchSize, 5000);
  const reader = new SharedReader((from, limit) => context.store.readAll(from, limit), batchSize, targets.length, 4, FIRST_REBUILD_BATCH);
  // The pool is shared with everything else in the process. A swap holds a connection and the
  // checkpoint lock while it reads the log on another connection, and the live runner's batches
  // for that projector wait on the lock holding connections of their own: sixteen swaps at once
  // (small projections finish together) could take every connection and wait for one forever.
  // One swap at a time, and INDEX_BUILDERS index builds for the whole rebuild, keep connections free.
  const swapSlot = pLimit(1);
  const indexSlots = pLimit(INDEX_BUILDERS);

  const rebuildOne = async (p: Projector, consumer: number): Promise<RebuildProgress> => {
    const schema = rebuildSchema(p.name);
    const skipped = new Set(skips.filter((x) => x.projector === p.name).map((x) => x.event_id));
    const parking = { table: `${schema}.${PARKED}`, target: 'fresh' as const, streams: new Set<string>(), skipped };
    let swapped = false;
    try {
      if (setupFailures.has(p.name)) throw setupFailures.get(p.name);
      let reported = 0;
      const { position, done, applied } = await replay(context, p, schema, parking, reader, consumer, async (done) => {
        const pr = progress(done);
        onProgress(p.name, pr);
        if (Date.now() - reported < 250) return;
        reported = Date.now();
        await sql`UPDATE projection_rebuilds SET done = ${done}, total = ${pr.total}, events_per_second = ${pr.eventsPerSecond},
                    heartbeat_at = now()
                  WHERE name = ${p.name}`;
      });
      reader.leave(consumer);
      const phase = async (name: 'indexing' | 'swapping') => {
        onProgress(p.name, { ...progress(done), phase: name });
        await sql`UPDATE projection_rebuilds SET phase = ${name}, done = ${done}, heartbeat_at = now() WHERE name = ${p.name}`;
      };
      await phase('indexing');
      await buildIndexes(sql, p, schema, indexSlots);
      await phase('swapping');
      // Hold the live follower off, apply what arrived meanwhile, move the tables in.
      const swappedAt = await swapSlot(() =>
        fastThenCareful((careful) => swap(context, p, schema, parking, position, applied, done, progress, careful)),
      );
      swapped = true;
      checkpointMoved(sql, p.name, swappedAt.position, context.options.announceCheckpoints ?? false);
      const finalDone = swappedAt.total;
      const finished = progress(finalDone, 'completed');
      onProgress(p.name, finished);
      return finished;
    } catch (error) {
      reader.leave(consumer);
      if (swapped) throw error;
      await sql`UPDATE projection_rebuilds SET status = 'failed', phase = 'failed', error = ${String(error)}, finished_at = now()
                WHERE name = ${p.name}`.catch(() => {});
      await sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      throw error;
    }
  };

  // Every projector replays at its own pace from the one shared read, then swaps in on its own.
  const settled = await Promise.allSettled(targets.map((p, i) => rebuildOne(p, i)));
  context.wake();
  await parkedEvents
    .raiseAlerts(all)
    .catch((error: unknown) => context.options.log?.('alerts for parked events failed', { error: String(error) }));
  const failed = settled.flatMap((r, i) => (r.status === 'rejected' ? [{ name: all[i] as string, error: r.reason as unknown }] : []));
  if (failed.length === 1 && targets.length === 1) throw failed[0]?.error;
  if (failed.length > 0) {
    throw new Error(`Rebuild failed for ${failed.map((f) => `${f.name} (${errorText(f.error)})`).join(', ')}`, {
      cause: failed[0]?.error,
    });
  }
  return settled.map((r) => (r as PromiseFulfilledResult<RebuildProgress>).value);
}

/** Applies the shared batches to a projector's fresh tables (in `schema`), parking what fails. */
async function replay(
  context: RunnerContext,
  p: Projector,
  schema: string,
  parking: Parking & { streams: Set<string> },
  reader: SharedReader,
  consumer: number,
  report: (done: number) => Promise<void>,
): Promise<{ position: Position; done: number; applied: number }> {
  let position: Position = START;
  let done = 0;
  let applied = 0;
  for (;;) {
    const batch = await reader.take(consumer);
    if (batch.length === 0) break;
    const handled = handledBy(p, batch);
    if (handled.length > 0) {
      // Committed without waiting for the WAL flush: private tables, and a rebuild cut short starts over.
      const result = await fastThenCareful((careful) =>
        readModelTransaction(
          context.sql,
          (tx) => applyParking(tx, p, handled, parking, careful),
          (tx) => tx<{ xid: string }[]>`
            SELECT pg_current_xact_id()::text AS xid, set_config('search_path', ${`${schema}, public`}, true),
                   set_config('synchronous_commit', 'off', true)`,
        ),
      );
      applied += result.applied;
      for (const e of result.parked) parking.streams.add(e.stream_id);
    }
    reader.passed(consumer);
    position = lastOf(batch).position;
    done += batch.length;
    await report(done);
  }
  return { position, done, applied };
}

/** Under the checkpoint lock: catch up with the log, move the fresh tables and parked events in. */
function swap(
  context: RunnerContext,
  p: Projector,
  schema: string,
  parking: Parking,
  from: Position,
  appliedBefore: number,
  done: number,
  progress: (done: number, status?: string) => RebuildProgress,
  careful: boolean,
): Promise<{ total: number; position: Position }> {
  const batchSize = Math.max(context.batchSize, 5000);
  return readModelTransaction(
    context.sql,
    async (tx) => {
      await tx`SELECT set_config('search_path', ${`${schema}, public`}, true)`;
      const streams = new Set(parking.streams);
      let position = from;
      let applied = appliedBefore;
      let caughtUp = 0;
      for (;;) {
        const batch = await context.store.readAll(position, batchSize);
        if (batch.length === 0) break;
        const result = await applyParking(tx, p, handledBy(p, batch), { ...parking, streams }, careful);
        for (const e of result.parked) streams.add(e.stream_id);
        applied += result.applied;
        caughtUp += batch.length;
        position = lastOf(batch).position;
      }
      // Events an operator skipped while the replay ran: skip them here too, and resume their streams.
      const table = `${schema}.${PARKED}`;
      const [replayParked] = await tx<{ exists: boolean }[]>`SELECT to_regclass(${table}) IS NOT NULL AS exists`;
      const skippedMeanwhile = replayParked?.exists
        ? await tx.unsafe<{ event_id: string; stream_id: string }[]>(
            `SELECT r.event_id, r.stream_id FROM ${table} r
           JOIN ${PARKED} o ON o.projector = r.projector AND o.event_id = r.event_id AND o.status = 'skipped'`,
          )
        : [];
      for (const row of skippedMeanwhile) {
        await tx.unsafe(`DELETE FROM ${table} WHERE projector = $1 AND event_id = $2`, [p.name, row.event_id]);
        applied += (await resumeStream(tx, context.store, p, table, row.stream_id)).applied.length;
      }
      await tx`SELECT set_config('search_path', 'public', true)`;
      for (const t of p.tables) {
        await tx.unsafe(`DROP TABLE IF EXISTS public.${t} CASCADE`);
        await tx.unsafe(`ALTER TABLE ${schema}.${t} SET SCHEMA public`);
      }
      // The replay's parked events (if it parked any) replace the old ones (keeping whether their alert went out).
      if (replayParked?.exists) {
        await tx.unsafe(
          `UPDATE ${table} r SET alerted_at = o.alerted_at FROM ${PARKED} o
         WHERE o.projector = r.projector AND o.event_id = r.event_id AND r.status = 'failed' AND o.status = 'failed'`,
        );
      }
      await tx`DELETE FROM parked_events WHERE projector = ${p.name} AND status IN ('failed', 'blocked')`;
      if (replayParked?.exists) {
        const columns = 'projector, event_id, position, stream_id, revision, type, status, error, attempts, parked_at, alerted_at';
        await tx.unsafe(`INSERT INTO ${PARKED} (${columns}) SELECT ${columns} FROM ${table} ON CONFLICT (projector, event_id) DO NOTHING`);
      }
      await tx.unsafe(`DROP SCHEMA ${schema} CASCADE`);
      const total = done + caughtUp;
      await tx`UPDATE projection_checkpoints
             SET position = ${position}, status = 'running', events_processed = ${applied}, updated_at = now()
             WHERE name = ${p.name}`;
      await refreshParkedMark(tx, p.name);
      const pr = progress(total, 'completed');
      await tx`UPDATE projection_rebuilds SET status = 'completed', phase = 'completed', done = ${total}, total = ${pr.total},
               events_per_second = ${pr.eventsPerSecond}, finished_at = now() WHERE name = ${p.name}`;
      return { total, position };
    },
    lockingCheckpoint(p.name),
  );
}
