import { type Position, type RecordedEvent, START } from '../../adapters/eventstore/eventStore.ts';

/** The last event of a batch that is not empty. */
export const lastOf = (events: readonly RecordedEvent[]) => events[events.length - 1] as RecordedEvent;

/** The first batch a rebuild reads (then 4×, 16×, … up to the batch size). */
export const FIRST_REBUILD_BATCH = 250;

/**
 * One read of the log for several consumers that move at their own pace: batch k is read once
 * (right after batch k - 1, from its last event, so the next read overlaps the current batch's
 * writes) and dropped once every consumer has passed it; a consumer more than `ahead` batches in
 * front of the slowest waits, which bounds the memory held. The first batches are small and
 * grow fourfold up to `size`: every consumer reports its first progress within moments of the
 * start instead of after a full batch applied by all of them at once (over a second at 16
 * projections), and the later, large batches keep the throughput.
 */
export class SharedReader {
  private readonly batches = new Map<number, Promise<RecordedEvent[]>>();
  private tail: Promise<RecordedEvent[]> | null = null;
  private created = 0;
  private readonly at: number[];
  private waiters: (() => void)[] = [];

  constructor(
    private readonly read: (from: Position, limit: number) => Promise<RecordedEvent[]>,
    private readonly size: number,
    consumers: number,
    private readonly ahead: number,
    private readonly firstSize = size,
  ) {
    this.at = new Array<number>(consumers).fill(0);
  }

  /** How many events batch k asks for: `firstSize`, growing fourfold per batch up to `size`. */
  private sizeOf(k: number): number {
    return Math.min(this.size, Math.max(1, this.firstSize) * 4 ** Math.min(k, 20));
  }

  /** The consumer's next batch ([] at the end of the log). */
  async take(consumer: number): Promise<RecordedEvent[]> {
    const k = this.at[consumer] as number;
    while (k - Math.min(...this.at) > this.ahead) await new Promise<void>((resolve) => this.waiters.push(resolve));
    while (this.created <= k + 1) this.create();
    return this.batches.get(k) as Promise<RecordedEvent[]>;
  }

  private create(): void {
    const previous = this.tail;
    const k = this.created;
    const next =
      previous === null
        ? this.read(START, this.sizeOf(k))
        : previous.then((b) => (b.length < this.sizeOf(k - 1) ? [] : this.read(lastOf(b).position, this.sizeOf(k))));
    next.catch(() => {});
    this.tail = next;
    this.batches.set(this.created++, next);
  }

  /** The consumer is done with its current batch. */
  passed(consumer: number): void {
    this.at[consumer] = (this.at[consumer] as number) + 1;
    this.changed();
  }

  /** The consumer takes no more batches (finished, or failed): it holds nobody back. */
  leave(consumer: number): void {
    this.at[consumer] = Number.POSITIVE_INFINITY;
    this.changed();
  }

  private changed(): void {
    const slowest = Math.min(...this.at);
    for (const k of this.batches.keys()) if (k < slowest) this.batches.delete(k);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
