/**
 * This process's open transactions that write read models and never append to the event log
 * (projector batches, rebuild batches and swaps), by transaction id (`pg_current_xact_id()`).
 *
 * The PostgreSQL event store shows a reader only events below the oldest transaction still
 * running, so that one committing late with a lower id is never skipped. Every transaction with
 * an id counts, and a projector's batch holds one from its checkpoint lock to its commit: under
 * load each batch of a slow read model (the audit log) held back every follower's view of the
 * log, a booking's session included, by hundreds of milliseconds. A transaction listed here
 * cannot add events, so the store's readers need not wait for it.
 */
const open = new Map<string, number>();

export const readModelTransactions = {
  /** Marks `xid` as a transaction that appends no events, until `end(xid)`. */
  begin(xid: string): void {
    open.set(xid, (open.get(xid) ?? 0) + 1);
  },
  end(xid: string): void {
    const n = (open.get(xid) ?? 0) - 1;
    if (n > 0) open.set(xid, n);
    else open.delete(xid);
  },
  /** The transaction ids open now. */
  list(): string[] {
    return [...open.keys()];
  },
};
