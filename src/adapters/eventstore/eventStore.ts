/**
 * The event store port. Two adapters implement it (PostgreSQL, EventStoreDB), a third holds the
 * log in memory for specifications that run without a database, and one contract suite
 * (eventStore.contract.ts) proves all three behave the same.
 *
 * A global position is an opaque string whose lexicographic order is the log order, so that
 * checkpoints of either adapter can be stored and compared in PostgreSQL as plain text.
 */
export type Position = string;
export const START: Position = '';

export type ExpectedRevision = 'no_stream' | 'any' | { exact: number };

export interface EventMetadata {
  actorId?: string | null;
  actorRole?: string | null;
  commandId?: string;
  correlationId?: string;
  causationId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  [key: string]: unknown;
}

export interface NewEvent {
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

export interface RecordedEvent {
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  streamId: string;
  revision: number;
  position: Position;
  recordedAt: Date;
}

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  nextRevision: number;
  /** Position of the last appended event. */
  position: Position;
  /** True when every event id was already in the stream: a retried command appended nothing. */
  alreadyAppended: boolean;
}

export interface StreamInfo {
  streamId: string;
  category: string;
  revision: number;
  updatedAt: Date;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Wrong expected revision on ${streamId}: expected ${typeof expected === 'object' ? expected.exact : expected}, actual ${actual}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** A slice of a stream by revision, both ends inclusive: the whole stream when neither is given. */
export interface ReadStreamOptions {
  /** First revision returned (default 0). */
  fromRevision?: number;
  /** Last revision returned (default: the stream's last); the stream as it was after that event. */
  toRevision?: number;
}

/** Checks a slice's bounds; null when it is empty (to before from). */
export function streamSlice(options: ReadStreamOptions = {}): { from: number; to: number | null } | null {
  const from = options.fromRevision ?? 0;
  const to = options.toRevision ?? null;
  for (const [name, value] of [
    ['fromRevision', from],
    ['toRevision', to],
  ] as const) {
    if (value !== null && (!Number.isSafeInteger(value) || value < 0))
      throw new RangeError(`${name} must be a whole number ≥ 0, not ${value}`);
  }
  if (to !== null && to < from) return null;
  return { from, to };
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface SubscribeOptions {
  batchSize?: number;
  /** Upper bound between polls when no wake-up arrives. */
  pollMs?: number;
  onError?: (error: unknown) => void;
}

export interface EventStore {
  readonly kind: 'postgres' | 'esdb' | 'memory';
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * A stream's events in revision order ([] when it does not exist); `toRevision` gives the stream
   * as it was after that event (history, time travel), `fromRevision` only what follows a revision.
   */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Events strictly after `from`, in global order, at most `limit`. */
  readAll(from: Position, limit: number): Promise<RecordedEvent[]>;
  /**
   * The events of every stream whose metadata carries this correlation id (one request's whole
   * story across streams), in global order, at most `limit` (default 1000).
   */
  readByCorrelation(correlationId: string, options?: { limit?: number }): Promise<RecordedEvent[]>;
  /** Position of the newest event a reader may see now (START when empty). */
  headPosition(): Promise<Position>;
  /**
   * Position of the newest committed event, readable or not yet (PostgreSQL: a transaction anywhere
   * in the cluster holds the visibility horizon back). What to wait for after a write: once a
   * projector has passed it, it has seen every event committed before the call.
   */
  committedPosition(): Promise<Position>;
  /** Number of events strictly after `from` (for lag and rebuild progress). */
  countAfter(from: Position): Promise<number>;
  listStreams(options?: { category?: string; limit?: number }): Promise<StreamInfo[]>;
  /**
   * Live tail: calls `onBatch` with every event after `from`, in order, exactly once, and keeps
   * following new events until stopped. A batch is not re-delivered once `onBatch` resolved.
   */
  subscribe(from: Position, onBatch: (events: RecordedEvent[]) => Promise<void>, options?: SubscribeOptions): Subscription;
  /** Calls `listener` whenever new events may have become readable; returns an unsubscribe. */
  watch(listener: () => void): () => void;
  close(): Promise<void>;
}

export function categoryOf(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash === -1 ? streamId : streamId.slice(0, dash);
}

/**
 * The catch-up-then-follow loop both adapters share: read batches until empty, then sleep until
 * woken (NOTIFY, a subscription signal) or the poll interval passes. After a wake-up that found
 * nothing (the event may not be visible yet), it polls again quickly with a growing delay.
 */
export function followLog(
  readAll: (from: Position, limit: number) => Promise<RecordedEvent[]>,
  onWake: (wake: () => void) => () => void,
  from: Position,
  onBatch: (events: RecordedEvent[]) => Promise<void>,
  options: SubscribeOptions = {},
): Subscription {
  const batchSize = options.batchSize ?? 1000;
  const pollMs = options.pollMs ?? 500;
  let stopped = false;
  let wakeUp: (() => void) | null = null;
  let woken = false;
  const unlisten = onWake(() => {
    woken = true;
    wakeUp?.();
  });
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });

  const loop = (async () => {
    let position = from;
    let quickPoll = 0;
    while (!stopped) {
      try {
        woken = false;
        const batch = await readAll(position, batchSize);
        if (stopped) break;
        if (batch.length > 0) {
          await onBatch(batch);
          position = (batch[batch.length - 1] as RecordedEvent).position;
          quickPoll = 0;
          continue;
        }
        if (woken) {
          quickPoll = 2;
          continue;
        }
        if (quickPoll > 0 && quickPoll < pollMs) {
          await sleep(quickPoll);
          quickPoll *= 2;
        } else {
          quickPoll = 0;
          await sleep(pollMs);
        }
      } catch (error) {
        if (stopped) break;
        options.onError?.(error);
        await sleep(Math.min(pollMs * 4, 2000));
      }
    }
  })();

  return {
    async stop() {
      stopped = true;
      wakeUp?.();
      unlisten();
      await loop;
    },
  };
}
