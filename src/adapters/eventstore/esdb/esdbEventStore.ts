import {
  type AllStreamSubscription,
  ANY,
  BACKWARDS,
  END,
  ErrorType,
  START as ESDB_START,
  type Position as EsdbPosition,
  type RecordedEvent as EsdbRecordedEvent,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  type JSONType,
  jsonEvent,
  NO_STREAM,
  type ReadPosition,
  type StreamingRead,
} from '@eventstore/db-client';
import {
  type AppendResult,
  categoryOf,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  followLog,
  type NewEvent,
  type Position,
  type ReadStreamOptions,
  type RecordedEvent,
  START,
  type StreamInfo,
  type SubscribeOptions,
  type Subscription,
  streamSlice,
  WrongExpectedRevisionError,
} from '../eventStore.ts';

/**
 * EventStoreDB adapter of the event store port (needs EventStoreDB 22.6 or later: stream reads must
 * carry the $all position of each event). It is held to the same contract suite as the PostgreSQL
 * adapter; where the server cannot behave exactly the same, the difference is written down here.
 *
 * Global order. A position is `${commit}${prepare}`, each zero-padded to 20 digits, so the
 * lexicographic order of positions is the order of $all. Events of system streams and system event
 * types (anything starting with '$': projection links, projection checkpoints, settings, stats) are
 * not part of the application's log: readAll, headPosition and countAfter skip them, filtering on
 * the client because the Node client cannot ask the server to filter a $all read.
 *
 * Append. Each append costs three round trips: read the stream's tail (its head revision and the
 * last events, where a retried append's ids would be), append, and read back the last appended
 * event to learn its exact $all position (the position an append reports is not documented to be
 * the $all position of its last event, and is absent for a recognised retry on older servers).
 * Differences from PostgreSQL:
 * - PostgreSQL refuses an event id used anywhere before; EventStoreDB only recognises a retry when
 *   the ids are the events right after the expected revision, or (with 'any') still in the
 *   server's idempotency cache, and this adapter also checks the stream's last `events.length`
 *   events. An id used earlier in the stream than that, or in another stream, is written again
 *   here where PostgreSQL would answer alreadyAppended or refuse the append.
 * - Like PostgreSQL, a retry whose expected revision no longer holds ('no_stream', or a stale
 *   exact revision) fails with WrongExpectedRevisionError even when the server recognised it as a
 *   retry and wrote nothing; only 'any' or a still-matching exact revision reports alreadyAppended.
 * - Two identical appends racing each other between the tail read and the write may both report
 *   alreadyAppended=false (the events are written once); PostgreSQL reports true to one of them.
 *
 * Every call has a deadline (default 10 s) so that a server that accepts connections but never
 * answers cannot hang a caller: the Node client puts no deadline on streaming reads.
 */

const WIDTH = 20;
const MAX_PAGE = 4096;
const MISSING_POSITION = (1n << 64n) - 1n;

export interface EsdbEventStoreOptions {
  /** Upper bound for one call to the server (one append, one page of a read). Default 10 000 ms. */
  deadlineMs?: number;
}

export function encodePosition(position: { commit: bigint; prepare: bigint }): Position {
  return `${position.commit.toString().padStart(WIDTH, '0')}${position.prepare.toString().padStart(WIDTH, '0')}`;
}

export function decodePosition(position: Position): { commit: bigint; prepare: bigint } {
  if (position === START) return { commit: 0n, prepare: 0n };
  if (!/^\d{40}$/.test(position)) throw new Error(`Not an EventStoreDB position: ${JSON.stringify(position)}`);
  return { commit: BigInt(position.slice(0, WIDTH)), prepare: BigInt(position.slice(WIDTH)) };
}

/** Raised when the server did not answer within the deadline (the outcome of an append is then unknown). */
export class EventStoreDeadlineError extends Error {
  constructor(operation: string, deadlineMs: number, endpoint: string) {
    super(`EventStoreDB ${operation} got no answer from ${endpoint} within ${deadlineMs} ms`);
    this.name = 'EventStoreDeadlineError';
  }
}

type EsdbEvent = EsdbRecordedEvent & { position?: EsdbPosition };
interface Resolved {
  event?: EsdbEvent;
}

function isSystem(event: EsdbEvent): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

function hasErrorType(error: unknown, type: ErrorType): boolean {
  return (error as { type?: unknown } | null)?.type === type;
}

function positionOf(event: EsdbEvent): Position {
  const p = event.position;
  if (!p || p.commit === MISSING_POSITION || (p.commit === 0n && p.prepare === 0n)) {
    throw new Error(`EventStoreDB gave no $all position for ${event.streamId}@${event.revision}: the server must be 22.6 or later`);
  }
  return encodePosition(p);
}

function parseJson(value: unknown): unknown {
  if (!(value instanceof Uint8Array)) return value;
  try {
    return JSON.parse(Buffer.from(value).toString('utf8'));
  } catch {
    return value;
  }
}

function toRecorded(event: EsdbEvent): RecordedEvent {
  const metadata = parseJson(event.metadata);
  return {
    id: event.id,
    type: event.type,
    data: parseJson(event.data),
    metadata:
      metadata && typeof metadata === 'object' && !Array.isArray(metadata) && !(metadata instanceof Uint8Array)
        ? (metadata as EventMetadata)
        : {},
    streamId: event.streamId,
    revision: Number(event.revision),
    position: positionOf(event),
    recordedAt: event.created,
  };
}

function toEventData(event: NewEvent) {
  return jsonEvent({
    id: event.id,
    type: event.type,
    data: (event.data ?? null) as JSONType,
    metadata: event.metadata,
  });
}

function toEsdbExpected(expected: ExpectedRevision) {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  return BigInt(expected.exact);
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//');
}

export class EsdbEventStore implements EventStore {
  readonly kind = 'esdb' as const;
  private readonly client: EventStoreDBClient;
  private readonly endpoint: string;
  private readonly deadlineMs: number;
  private listeners = new Set<() => void>();
  private wakeSubscription: AllStreamSubscription | null = null;
  private wakeRetry: NodeJS.Timeout | null = null;
  private closed = false;

  /** Constructs without contacting the server; the first call connects. */
  constructor(connectionString: string, options: EsdbEventStoreOptions = {}) {
    this.client = EventStoreDBClient.connectionString(connectionString);
    this.endpoint = redact(connectionString);
    this.deadlineMs = options.deadlineMs ?? 10_000;
  }

  /** Constructs and checks the server answers, so a wrong URL fails at start-up with a clear error. */
  static async connect(connectionString: string, options: EsdbEventStoreOptions = {}): Promise<EsdbEventStore> {
    const store = new EsdbEventStore(connectionString, options);
    try {
      await store.headPosition();
      return store;
    } catch (error) {
      await store.close();
      throw new Error(`Cannot reach EventStoreDB at ${store.endpoint}: ${(error as Error).message}`, { cause: error });
    }
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const n = events.length;
    // The stream as it was: its head revision, and the last n events, where a retry's ids would be.
    const tail = await this.readTail(streamId, n);
    const head: number | 'no_stream' = tail[0] ? Number(tail[0].revision) : 'no_stream';
    const expectedHolds = expected === 'any' || (expected === 'no_stream' ? head === 'no_stream' : head === expected.exact);
    // A stream's revision only grows: past the expected one, the server could only refuse or
    // recognise a retry, and both end in this error, as with PostgreSQL.
    if (head !== 'no_stream' && (expected === 'no_stream' || (expected !== 'any' && head > expected.exact))) {
      throw new WrongExpectedRevisionError(streamId, expected, head);
    }

    if (expectedHolds && tail.length > 0) {
      const byId = new Map(tail.map((e) => [e.id.toLowerCase(), e]));
      const found = events.flatMap((e) => byId.get(e.id.toLowerCase()) ?? []);
      if (found.length === n) {
        const last = found.reduce((a, b) => (b.revision > a.revision ? b : a));
        return { nextRevision: Number(last.revision), position: positionOf(last), alreadyAppended: true };
      }
      if (found.length > 0) throw new Error(`Event ids already used elsewhere while appending to ${streamId}`);
    }

    let nextRevision: number;
    this.assertOpen();
    try {
      const result = await this.withDeadline('append', () =>
        this.client.appendToStream(streamId, events.map(toEventData), {
          expectedRevision: toEsdbExpected(expected),
          deadline: this.deadlineMs,
        }),
      );
      nextRevision = Number(result.nextExpectedRevision);
    } catch (error) {
      if (hasErrorType(error, ErrorType.WRONG_EXPECTED_VERSION)) {
        const actual = (error as { actualVersion: bigint | 'no_stream' }).actualVersion;
        throw new WrongExpectedRevisionError(streamId, expected, actual === 'no_stream' ? actual : Number(actual));
      }
      throw error;
    }

    // The server answers success without writing when it recognises a retry: the revision it
    // reports is then one the stream already had before this call.
    const alreadyAppended = head !== 'no_stream' && nextRevision <= head;
    if (alreadyAppended && !expectedHolds) {
      // PostgreSQL checks the expected revision before the ids, so a retry that no longer matches
      // fails (reached only when the stream grew between the tail read and the append).
      throw new WrongExpectedRevisionError(streamId, expected, head);
    }
    const [last] = await this.readRaw(`append to ${streamId} (reading back the last event)`, () =>
      this.client.readStream(streamId, { fromRevision: BigInt(nextRevision), maxCount: 1, direction: FORWARDS }),
    );
    const lastId = (events[n - 1] as NewEvent).id.toLowerCase();
    if (!last || Number(last.revision) !== nextRevision || last.id.toLowerCase() !== lastId) {
      throw new Error(`EventStoreDB reported ${streamId}@${nextRevision} after an append, but that is not the appended event`);
    }
    return { nextRevision, position: positionOf(last), alreadyAppended };
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    const slice = streamSlice(options);
    if (!slice) return [];
    // Revisions of a stream are dense from 0 (streams are never truncated here): a slice is a count.
    const events = await this.readRaw(
      `read ${streamId}`,
      () =>
        this.client.readStream(streamId, {
          direction: FORWARDS,
          fromRevision: slice.from === 0 ? ESDB_START : BigInt(slice.from),
          ...(slice.to === null ? {} : { maxCount: slice.to - slice.from + 1 }),
        }),
      true,
    );
    return events.map(toRecorded);
  }

  async readAll(from: Position, limit: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    if (limit <= 0) return out;
    // Projections interleave their link events with the application's: read a few raw per wanted.
    await this.scanForward(from, Math.min(Math.max(limit * 3, 64), MAX_PAGE), (event) => {
      out.push(toRecorded(event));
      return out.length < limit;
    });
    return out;
  }

  /**
   * A filtered scan of $all: the `$bc-<correlationId>` streams of the by-correlation system
   * projection would be faster, but that projection reads `$correlationId`, which our metadata does
   * not carry (`correlationId`), and it must be enabled and caught up. Operations use only.
   */
  async readByCorrelation(correlationId: string, options: { limit?: number } = {}): Promise<RecordedEvent[]> {
    const limit = options.limit ?? 1000;
    const out: RecordedEvent[] = [];
    if (limit <= 0) return out;
    await this.scanForward(START, MAX_PAGE, (event) => {
      const recorded = toRecorded(event);
      if (recorded.metadata.correlationId === correlationId) out.push(recorded);
      return out.length < limit;
    });
    return out;
  }

  async headPosition(): Promise<Position> {
    let cursor: Position | null = null;
    for (;;) {
      const fromPosition: ReadPosition = cursor === null ? END : decodePosition(cursor);
      const page = await this.readRaw('read $all backwards', () =>
        this.client.readAll({ fromPosition, direction: BACKWARDS, maxCount: 256 }),
      );
      let moved = false;
      for (const event of page) {
        const position = positionOf(event);
        if (cursor !== null && position >= cursor) continue;
        cursor = position;
        moved = true;
        if (!isSystem(event)) return position;
      }
      if (!moved || page.length < 256) return START;
    }
  }

  /** EventStoreDB makes an appended event readable on commit: the committed head is the head. */
  committedPosition(): Promise<Position> {
    return this.headPosition();
  }

  async countAfter(from: Position): Promise<number> {
    let count = 0;
    await this.scanForward(from, MAX_PAGE, () => {
      count++;
      return true;
    });
    return count;
  }

  /**
   * Scans the whole of $all: simple and exact, fine for operations use, slow on a big store (the
   * $streams and $ce- projections would be faster but depend on projections being run and caught up).
   */
  async listStreams(options: { category?: string; limit?: number } = {}): Promise<StreamInfo[]> {
    const limit = options.limit ?? 1000;
    const streams = new Map<string, StreamInfo>();
    await this.scanForward(START, MAX_PAGE, (event) => {
      const category = categoryOf(event.streamId);
      if (options.category !== undefined && category !== options.category) return true;
      const revision = Number(event.revision);
      const known = streams.get(event.streamId);
      if (!known || revision > known.revision) {
        streams.set(event.streamId, { streamId: event.streamId, category, revision, updatedAt: event.created });
      }
      return true;
    });
    return [...streams.values()].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0)).slice(0, limit);
  }

  subscribe(from: Position, onBatch: (events: RecordedEvent[]) => Promise<void>, options?: SubscribeOptions): Subscription {
    return followLog(
      (f, l) => this.readAll(f, l),
      (wake) => this.watch(wake),
      from,
      onBatch,
      options,
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.stopWakeSubscription();
    await this.client.dispose().catch(() => {});
  }

  /**
   * Calls `visit` with every non-system event strictly after `from`, in $all order, with its
   * position, until it returns false or the log ends. Reads pages of `pageSize` raw events.
   */
  private async scanForward(from: Position, pageSize: number, visit: (event: EsdbEvent, position: Position) => boolean): Promise<void> {
    let cursor = from;
    for (;;) {
      const fromPosition: ReadPosition = cursor === START ? ESDB_START : decodePosition(cursor);
      const page = await this.readRaw('read $all', () => this.client.readAll({ fromPosition, direction: FORWARDS, maxCount: pageSize }));
      let moved = false;
      for (const event of page) {
        const position = positionOf(event);
        // A $all read includes the event at its start position: only what is strictly after counts.
        if (position <= cursor) continue;
        cursor = position;
        moved = true;
        if (!isSystem(event) && !visit(event, position)) return;
      }
      if (!moved || page.length < pageSize) return;
    }
  }

  private async readTail(streamId: string, count: number): Promise<EsdbEvent[]> {
    return this.readRaw(
      `append to ${streamId} (reading its tail)`,
      () => this.client.readStream(streamId, { fromRevision: END, direction: BACKWARDS, maxCount: count }),
      true,
    );
  }

  /** Reads a stream of resolved events fully, under the deadline; a missing stream is [] when allowed. */
  private async readRaw(operation: string, open: () => StreamingRead<Resolved>, missingIsEmpty = false): Promise<EsdbEvent[]> {
    this.assertOpen();
    let read: StreamingRead<Resolved> | null = null;
    try {
      return await this.withDeadline(
        operation,
        async () => {
          read = open();
          const out: EsdbEvent[] = [];
          for await (const resolved of read) if (resolved.event) out.push(resolved.event);
          return out;
        },
        () => read?.cancel(),
      );
    } catch (error) {
      if (missingIsEmpty && hasErrorType(error, ErrorType.STREAM_NOT_FOUND)) return [];
      throw error;
    }
  }

  /** The client would quietly open a new connection for a call made after dispose. */
  private assertOpen(): void {
    if (this.closed) throw new Error(`EventStoreDB store for ${this.endpoint} is closed`);
  }

  private withDeadline<T>(operation: string, run: () => Promise<T>, onTimeout?: () => unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (onTimeout)
          Promise.resolve()
            .then(onTimeout)
            .catch(() => {});
        reject(new EventStoreDeadlineError(operation, this.deadlineMs, this.endpoint));
      }, this.deadlineMs);
      run().then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  /**
   * One live subscription to $all per store, shared by every subscriber, used only as a wake-up:
   * the events themselves are read by followLog, so a lost subscription only slows delivery down
   * to the poll interval until it is re-established.
   */
  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    this.startWakeSubscription();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopWakeSubscription();
    };
  }

  private startWakeSubscription(): void {
    if (this.closed || this.wakeSubscription || this.wakeRetry || this.listeners.size === 0) return;
    const subscription = this.client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
    this.wakeSubscription = subscription;
    const lost = () => {
      if (this.wakeSubscription !== subscription) return;
      this.wakeSubscription = null;
      if (this.closed || this.listeners.size === 0) return;
      this.wakeRetry = setTimeout(() => {
        this.wakeRetry = null;
        this.startWakeSubscription();
      }, 1000);
      this.wakeRetry.unref();
    };
    subscription.on('data', () => {
      for (const wake of this.listeners) wake();
    });
    subscription.on('error', lost);
    subscription.on('end', lost);
    subscription.on('close', lost);
  }

  private stopWakeSubscription(): void {
    if (this.wakeRetry) clearTimeout(this.wakeRetry);
    this.wakeRetry = null;
    const subscription = this.wakeSubscription;
    this.wakeSubscription = null;
    if (subscription) subscription.unsubscribe().catch(() => {});
  }
}
