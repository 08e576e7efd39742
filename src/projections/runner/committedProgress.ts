import type { Sql } from '../../adapters/db/db.ts';
import type { Position } from '../../adapters/eventstore/eventStore.ts';

/**
 * Where this process's runners have committed each projector's checkpoint, per database (its
 * connection pool), and a wake-up for whoever waits on it: a request that waits for its own
 * write to reach a read model (read your writes) learns it the moment the batch commits here
 * instead of polling the checkpoints table. A projector followed by another process never shows
 * up here; waiters still read the table for it.
 */
const committed = new WeakMap<Sql, Map<string, Position>>();
const waiters = new Set<() => void>();
/** How many runners of this process follow each projector, per database. */
const followers = new WeakMap<Sql, Map<string, number>>();

/** A runner of this process follows these projectors (until `unfollowedHere`). */
export function followedHere(sql: Sql, names: readonly string[]): void {
  let counts = followers.get(sql);
  if (!counts) {
    counts = new Map();
    followers.set(sql, counts);
  }
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
}

/** A runner of this process stopped following these projectors. */
export function unfollowedHere(sql: Sql, names: readonly string[]): void {
  const counts = followers.get(sql);
  if (!counts) return;
  for (const name of names) {
    const n = (counts.get(name) ?? 0) - 1;
    if (n > 0) counts.set(name, n);
    else counts.delete(name);
  }
}

/** Whether every named projector is followed by a runner of this process. */
export function allFollowedHere(sql: Sql, names: readonly string[]): boolean {
  const counts = followers.get(sql);
  return counts !== undefined && names.every((name) => counts.has(name));
}

/**
 * `name`'s checkpoint is committed at `position` in the database of `sql`: by a runner of this
 * process, or (read from the table) by whichever process applied it.
 */
export function checkpointCommitted(sql: Sql, name: string, position: Position): void {
  let positions = committed.get(sql);
  if (!positions) {
    positions = new Map();
    committed.set(sql, positions);
  }
  if (position > (positions.get(name) ?? '')) positions.set(name, position);
  for (const wake of [...waiters]) wake();
}

/** Whether this process committed every named projector's checkpoint at or past `position`. */
export function committedHere(sql: Sql, names: readonly string[], position: Position): boolean {
  const positions = committed.get(sql);
  return positions !== undefined && names.every((name) => (positions.get(name) ?? '') >= position);
}

/** Resolves at the next checkpoint committed in this process, or after `ms`. */
export function nextCommit(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      waiters.delete(done);
      resolve();
    }
    waiters.add(done);
  });
}

/** A projector's checkpoint as the table showed it. */
export interface TableCheckpoint {
  position: Position;
  running: boolean;
}
export interface CheckpointTableRead {
  /** Reads are numbered in the order they are made (in this process). */
  n: number;
  /** The statement has gone to the server: until then the read shows what is committed when it runs. */
  sent: boolean;
  checkpoints: Promise<ReadonlyMap<string, TableCheckpoint>>;
}

let readsMade = 0;
const latestRead = new WeakMap<Sql, CheckpointTableRead>();

/** The number of the last read of the checkpoints table made: a wait beginning now is answered only by a later one, or one not yet sent. */
export const checkpointReadsMade = (): number => readsMade;

/**
 * The checkpoints table as a read made after read number `after` saw it (or one not yet sent,
 * which sees everything committed before it runs). Waiters whose checks fall due together share
 * one read: under load hundreds of requests wait at once, and each reading the table for itself
 * came to about two statements per booking. The statement goes out at the next turn of the event
 * loop, so the waiters of one turn share it. A read that fails is not shared with later callers.
 */
export function checkpointTableAfter(sql: Sql, after: number): CheckpointTableRead {
  const latest = latestRead.get(sql);
  if (latest && (!latest.sent || latest.n > after)) return latest;
  const read: CheckpointTableRead = { n: ++readsMade, sent: false, checkpoints: Promise.resolve(new Map()) };
  read.checkpoints = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
    read.sent = true;
    const rows = await sql<{ name: string; position: Position; status: string }[]>`
      SELECT name, position, status FROM projection_checkpoints`;
    return new Map(rows.map((r) => [r.name, { position: r.position, running: r.status === 'running' }]));
  });
  latestRead.set(sql, read);
  read.checkpoints.catch(() => {
    if (latestRead.get(sql) === read) latestRead.delete(sql);
  });
  return read;
}

/** Whether the table shows every named projector at or past `position`: a stopped one is not waited for, one it does not know is not behind. */
export function tableShowsPast(table: ReadonlyMap<string, TableCheckpoint>, names: readonly string[], position: Position): boolean {
  return names.every((name) => {
    const checkpoint = table.get(name);
    return !checkpoint?.running || checkpoint.position >= position;
  });
}
