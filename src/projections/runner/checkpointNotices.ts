import type { Sql } from '../../adapters/db/db.ts';
import type { Position } from '../../adapters/eventstore/eventStore.ts';
import { checkpointCommitted } from './committedProgress.ts';

/**
 * Checkpoints told across processes. A request served by an API process waits for a projector
 * followed by the projector process: instead of polling the checkpoints table it learns the
 * moment a batch commits there, from a NOTIFY on this channel carrying the checkpoints moved.
 * Like the event store's wake-ups, the NOTIFY goes out after the commit (never inside the batch's
 * transaction, which would take PostgreSQL's global notify lock at commit) and coalesced: at
 * most one per NOTIFY_EVERY_MS, carrying every checkpoint moved meanwhile. A lost notice only
 * delays a waiter until its next read of the table.
 */
const CHANNEL = 'topmark_checkpoints';
const NOTIFY_EVERY_MS = 2;

interface Sender {
  pending: Map<string, Position>;
  sending: boolean;
}
const senders = new WeakMap<Sql, Sender>();

/** A checkpoint this process committed: waiters here are told at once, other processes (when `announce`) by the next notice. */
export function checkpointMoved(sql: Sql, name: string, position: Position, announce: boolean): void {
  checkpointCommitted(sql, name, position);
  if (!announce) return;
  let sender = senders.get(sql);
  if (!sender) {
    sender = { pending: new Map(), sending: false };
    senders.set(sql, sender);
  }
  if (position > (sender.pending.get(name) ?? '')) sender.pending.set(name, position);
  if (!sender.sending) void send(sql, sender);
}

async function send(sql: Sql, sender: Sender): Promise<void> {
  sender.sending = true;
  try {
    while (sender.pending.size > 0) {
      const moved = [...sender.pending.entries()];
      sender.pending.clear();
      const started = performance.now();
      await sql`SELECT pg_notify(${CHANNEL}, ${JSON.stringify(moved)})`;
      const wait = NOTIFY_EVERY_MS - (performance.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  } catch {
    // Waiters also read the table now and then: a lost notice only delays them.
  } finally {
    sender.sending = false;
  }
}

/** Parses a notice's payload: [name, position] pairs; anything else is ignored. */
export function parseCheckpointNotice(payload: string): [string, Position][] {
  try {
    const value: unknown = JSON.parse(payload);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (entry): entry is [string, Position] =>
        Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && typeof entry[1] === 'string',
    );
  } catch {
    return [];
  }
}

interface Listener {
  /** LISTEN is in place: notices arrive (until the connection drops). */
  live: boolean;
}
const listeners = new WeakMap<Sql, Listener>();

/**
 * Listens for other processes' checkpoint notices on `sql`'s database (once per pool), feeding
 * them to this process's waiters. Whether notices are arriving now: a waiter that is not sure
 * reads the table more often.
 */
export function hearCheckpoints(sql: Sql): boolean {
  const known = listeners.get(sql);
  if (known) return known.live;
  const listener: Listener = { live: false };
  listeners.set(sql, listener);
  sql
    .listen(
      CHANNEL,
      (payload) => {
        for (const [name, position] of parseCheckpointNotice(payload)) checkpointCommitted(sql, name, position);
      },
      // Listening (again, after a reconnect: notices sent meanwhile are lost, and the waiters' reads of the table make up for them).
      () => {
        listener.live = true;
      },
    )
    .catch(() => {
      listeners.delete(sql);
    });
  return false;
}
