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
  streamSlice,
  WrongExpectedRevisionError,
} from '../eventStore.ts';

/**
 * The event store held in this process's memory: what the API specifications run on (a feature's
 * rules over its command handlers, no PostgreSQL), and a third implementation of the port that
 * the same contract suite holds to the behaviour of the other two. Nothing survives the process.
 *
 * Written to behave as the PostgreSQL store does where a caller can tell:
 * - an append is atomic (checked and written before the first await, so concurrent appends are
 *   decided one after the other in call order, as row locks order them);
 * - the expected revision is checked before the event ids: a retried append with a stale
 *   revision is a conflict, a retry whose revision holds (or `any`) is `alreadyAppended`;
 * - event ids are UUIDs (PostgreSQL casts them) and unique across the whole log;
 * - data and metadata are stored and read back as JSON (as jsonb does): a reader gets its own
 *   copy, a writer mutating its objects after the append changes nothing stored;
 * - every appended event is readable at once (no visibility horizon), so the head and the
 *   committed position are the same.
 */

/** Digits of a position: lexicographic order is numeric order, as the port requires. */
const WIDTH = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const memoryPosition = (sequence: number): Position => String(sequence).padStart(WIDTH, '0');

/** The sequence number (1-based) of the event at `position`; 0 for START. */
function sequenceOf(position: Position): number {
  if (position === START) return 0;
  if (!/^\d+$/.test(position)) throw new RangeError(`Not a position of the in-memory event store: ${JSON.stringify(position)}`);
  return Number(position);
}

interface StoredEvent {
  id: string;
  type: string;
  /** The JSON text of data and metadata, as jsonb holds them: parsed afresh for every reader. */
  data: string;
  metadata: string;
  streamId: string;
  revision: number;
  position: Position;
  recordedAt: number;
}

interface Stream {
  events: StoredEvent[];
  updatedAt: number;
}

export interface MemoryEventStoreOptions {
  /** When events are recorded (`recordedAt`) and streams updated; the wall clock by default. */
  now?: () => Date;
}

export class MemoryEventStore implements EventStore {
  readonly kind = 'memory' as const;
  /** The global log: the event at sequence n (position `memoryPosition(n)`) is at index n - 1. */
  private readonly log: StoredEvent[] = [];
  private readonly streams = new Map<string, Stream>();
  private readonly byId = new Map<string, StoredEvent>();
  private readonly byCorrelation = new Map<string, StoredEvent[]>();
  private readonly listeners = new Set<() => void>();
  private readonly now: () => Date;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.now = options.now ?? (() => new Date());
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    for (const e of events) if (!UUID.test(e.id)) throw new Error(`Event id ${JSON.stringify(e.id)} is not a UUID`);
    const stream = this.streams.get(streamId);
    const actual = stream ? stream.events.length - 1 : 'no_stream';
    const holds = expected === 'any' || (expected === 'no_stream' ? actual === 'no_stream' : actual === expected.exact);
    if (!holds) throw new WrongExpectedRevisionError(streamId, expected, actual);

    const known = events.map((e) => this.byId.get(e.id));
    if (known.some((e) => e !== undefined)) return this.alreadyAppended(streamId, known);
    const ids = new Set(events.map((e) => e.id));
    if (ids.size !== events.length) throw new Error(`The same event id twice in one append to ${streamId}`);

    // Serialised before anything is stored: data that is not JSON fails the append, leaving no trace.
    const texts = events.map((e) => ({ data: json(e.data, 'data'), metadata: json(e.metadata, 'metadata') }));
    const recordedAt = this.now().getTime();
    const target = stream ?? { events: [], updatedAt: recordedAt };
    if (!stream) this.streams.set(streamId, target);
    target.updatedAt = recordedAt;
    for (const [i, e] of events.entries()) {
      const text = texts[i] as { data: string; metadata: string };
      const stored: StoredEvent = {
        id: e.id,
        type: e.type,
        data: text.data,
        metadata: text.metadata,
        streamId,
        revision: target.events.length,
        position: memoryPosition(this.log.length + 1),
        recordedAt,
      };
      target.events.push(stored);
      this.log.push(stored);
      this.byId.set(e.id, stored);
      const correlationId = e.metadata.correlationId;
      if (typeof correlationId === 'string') {
        const correlated = this.byCorrelation.get(correlationId);
        if (correlated) correlated.push(stored);
        else this.byCorrelation.set(correlationId, [stored]);
      }
    }
    this.announce();
    const last = target.events[target.events.length - 1] as StoredEvent;
    return { nextRevision: last.revision, position: last.position, alreadyAppended: false };
  }

  /** A retried append: every id already in this stream answers with where they are; anything else is an error. */
  private alreadyAppended(streamId: string, known: (StoredEvent | undefined)[]): AppendResult {
    if (known.some((e) => e === undefined || e.streamId !== streamId)) {
      throw new Error(`Event ids already used elsewhere while appending to ${streamId}`);
    }
    const last = (known as StoredEvent[]).reduce((a, b) => (b.position > a.position ? b : a));
    return { nextRevision: last.revision, position: last.position, alreadyAppended: true };
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    const slice = streamSlice(options);
    const events = this.streams.get(streamId)?.events;
    if (!slice || !events) return [];
    return events.slice(slice.from, slice.to === null ? undefined : slice.to + 1).map(recorded);
  }

  async readAll(from: Position, limit: number): Promise<RecordedEvent[]> {
    const start = sequenceOf(from);
    return this.log.slice(start, start + Math.max(0, limit)).map(recorded);
  }

  async readByCorrelation(correlationId: string, options: { limit?: number } = {}): Promise<RecordedEvent[]> {
    return (this.byCorrelation.get(correlationId) ?? []).slice(0, options.limit ?? 1000).map(recorded);
  }

  async headPosition(): Promise<Position> {
    return this.log.length === 0 ? START : memoryPosition(this.log.length);
  }

  /** Nothing is ever committed and unreadable here: the same as the head. */
  async committedPosition(): Promise<Position> {
    return this.headPosition();
  }

  async countAfter(from: Position): Promise<number> {
    return Math.max(0, this.log.length - sequenceOf(from));
  }

  async listStreams(options: { category?: string; limit?: number } = {}): Promise<StreamInfo[]> {
    const prefix = options.category === undefined ? null : `${options.category}-`;
    // Ordered by stream id as PostgreSQL's "C" collation orders it: by UTF-16 code unit here, the
    // same order for the ASCII ids the application writes.
    const ids = [...this.streams.keys()].filter((id) => prefix === null || id.startsWith(prefix)).sort();
    return ids.slice(0, options.limit ?? 1000).map((streamId) => {
      const stream = this.streams.get(streamId) as Stream;
      return { streamId, category: categoryOf(streamId), revision: stream.events.length - 1, updatedAt: new Date(stream.updatedAt) };
    });
  }

  subscribe(from: Position, onBatch: (events: RecordedEvent[]) => Promise<void>, options?: SubscribeOptions) {
    return followLog(
      (f, l) => this.readAll(f, l),
      (wake) => this.watch(wake),
      from,
      onBatch,
      options,
    );
  }

  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Wakes followers once the append is stored; a listener that throws does not fail the append. */
  private announce(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // Followers also poll: a failed wake-up only delays them.
      }
    }
  }

  /** Stops waking followers; what is stored stays readable (as PostgreSQL's store after its close). */
  async close(): Promise<void> {
    this.listeners.clear();
  }
}

function json(value: unknown, what: string): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error(`Event ${what} is not JSON`);
  return text;
}

function recorded(e: StoredEvent): RecordedEvent {
  return {
    id: e.id,
    type: e.type,
    data: JSON.parse(e.data),
    metadata: JSON.parse(e.metadata) as EventMetadata,
    streamId: e.streamId,
    revision: e.revision,
    position: e.position,
    recordedAt: new Date(e.recordedAt),
  };
}
