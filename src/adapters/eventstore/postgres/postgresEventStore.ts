import type { Sql } from '../../db/db.ts';
import { readModelTransactions } from '../../db/readModelTransactions.ts';
import {
  type AppendResult,
  categoryOf,
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

const CHANNEL = 'es_events';
/** The shortest time between two NOTIFYs of one store: appends meanwhile share the next one. */
const NOTIFY_EVERY_MS = 5;
const WIDTH = 20;

export function encodePosition(txid: string | bigint, seq: string | bigint | number): Position {
  return `${String(txid).padStart(WIDTH, '0')}${String(seq).padStart(WIDTH, '0')}`;
}

export function decodePosition(position: Position): { txid: string; seq: string } {
  if (position === START) return { txid: '0', seq: '0' };
  return {
    txid: BigInt(position.slice(0, WIDTH)).toString(),
    seq: BigInt(position.slice(WIDTH)).toString(),
  };
}

/**
 * The columns of a recorded event as its readers select them, named as `RecordedEvent` names
 * them so that each row is the event itself: the position composed by the server (the digits
 * `encodePosition` makes) and the revision a plain number. Reading a batch then parses no bigint
 * and copies no row (the client's share of a rebuild's reading was its largest part).
 */
const EVENT_COLUMNS = `event_id AS id, type, data, metadata, stream_id AS "streamId", revision::float8 AS revision,
  lpad(txid::text, ${WIDTH}, '0') || lpad(seq::text, ${WIDTH}, '0') AS position, recorded_at AS "recordedAt"`;

/** Rows selected as EVENT_COLUMNS are the recorded events: a plain array of them (not the client's result object). */
function recorded(rows: readonly RecordedEvent[]): RecordedEvent[] {
  return Array.from(rows);
}

interface AppendedRow {
  txid: string;
  seq: bigint;
  revision: bigint;
}

export interface PostgresEventStoreOptions {
  /**
   * Statements of small appends in flight at once (default 8). Appends that arrive while that
   * many run are written together by the next statement, one transaction for several appends.
   */
  appendsInFlight?: number;
  /** Most appends written by one statement (default 64). */
  maxAppendsPerStatement?: number;
  /**
   * Stream reads in flight at once (default 4). Reads asked for while that many run are made
   * together by the next statement.
   */
  readsInFlight?: number;
}

/** Appends of at most this many events are written together; larger ones go alone, at once. */
const GROUPED_UP_TO = 4;

interface PendingAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

interface PendingRead {
  streamId: string;
  from: number;
  to: number;
  resolve: (events: RecordedEvent[]) => void;
  reject: (error: unknown) => void;
}

/** Most stream reads made by one statement. */
const MAX_READS_PER_STATEMENT = 64;

interface GroupRow {
  stream_id: string;
  revision: bigint;
  txid: string;
  seq: bigint;
}

/**
 * Several appends in one statement and one transaction: claim every stream's revision (one
 * INSERT … ON CONFLICT over all of them, in stream order, so concurrent statements lock stream
 * rows in the same order and cannot deadlock each other), then insert every claimed append's
 * events. An append whose claim fails (the expected revision does not hold) inserts nothing
 * and is reported by its absence from the result; the others are written.
 */
const GROUP_APPEND = `
  WITH req AS (
    SELECT r.i, r.stream_id COLLATE "C" AS stream_id, r.category, r.mode, r.exact, r.n, r.events
    FROM jsonb_to_recordset($1::text::jsonb) AS r(i int, stream_id text, category text, mode text, exact bigint, n int, events jsonb)
  ),
  claimed AS (
    INSERT INTO es_streams AS st (stream_id, category, revision)
    SELECT stream_id, category, n - 1 FROM req
    WHERE mode <> 'exact' OR EXISTS (SELECT 1 FROM es_streams s WHERE s.stream_id = req.stream_id)
    ORDER BY stream_id
    ON CONFLICT (stream_id) DO UPDATE SET revision = st.revision + EXCLUDED.revision + 1, updated_at = now()
    WHERE (SELECT r.mode = 'any' OR (r.mode = 'exact' AND st.revision = r.exact) FROM req r WHERE r.stream_id = EXCLUDED.stream_id)
    RETURNING stream_id, revision
  ),
  e AS (
    INSERT INTO es_events (event_id, stream_id, revision, type, data, metadata)
    SELECT (x->>'id')::uuid, req.stream_id, c.revision - req.n + t.ord, x->>'type', x->'data', x->'metadata'
    FROM claimed c JOIN req ON req.stream_id = c.stream_id
    CROSS JOIN LATERAL jsonb_array_elements(req.events) WITH ORDINALITY AS t(x, ord)
    ORDER BY req.i, t.ord
    RETURNING txid, seq, stream_id, revision
  )
  SELECT DISTINCT ON (stream_id) stream_id, revision, txid::text AS txid, seq FROM e ORDER BY stream_id, seq DESC`;

/** One append: claim the stream's revision ($1 stream, $3 events, $4 their JSON), insert the events. */
const appendWith = (claim: string) => `
  WITH s AS (${claim}),
  e AS (
    INSERT INTO es_events (event_id, stream_id, revision, type, data, metadata)
    SELECT (x->>'id')::uuid, $1, s.revision - $3 + t.ord, x->>'type', x->'data', x->'metadata'
    FROM s, jsonb_array_elements($4::text::jsonb) WITH ORDINALITY AS t(x, ord)
    ORDER BY t.ord
    RETURNING txid, seq, revision
  )
  SELECT e.txid::text AS txid, e.seq, e.revision FROM e ORDER BY e.seq DESC LIMIT 1`;
/** no_stream: create the stream ($2 category), or claim nothing when it exists. */
const APPEND_NEW = appendWith(`
  INSERT INTO es_streams (stream_id, category, revision) VALUES ($1, $2, $3::int - 1)
  ON CONFLICT (stream_id) DO NOTHING RETURNING revision`);
/** any: create the stream or move its revision on. */
const APPEND_ANY = appendWith(`
  INSERT INTO es_streams AS st (stream_id, category, revision) VALUES ($1, $2, $3::int - 1)
  ON CONFLICT (stream_id) DO UPDATE SET revision = st.revision + $3, updated_at = now() RETURNING revision`);
/** exact: move the revision on only from the expected one ($2). */
const APPEND_EXACT = appendWith(`
  UPDATE es_streams SET revision = revision + $3, updated_at = now()
  WHERE stream_id = $1 AND revision = $2::bigint RETURNING revision`);

export class PostgresEventStore implements EventStore {
  readonly kind = 'postgres' as const;
  private listeners = new Set<() => void>();
  private listening: Promise<{ unlisten: () => Promise<void> }> | null = null;
  private notifying = false;
  private notifyAgain = false;
  private readonly appendsInFlight: number;
  private readonly maxAppendsPerStatement: number;
  private pending: PendingAppend[] = [];
  private inFlight = 0;
  /** Streams with an append in flight: the next append to one waits, so a stream's appends keep their order. */
  private busy = new Set<string>();
  private readonly readsInFlight: number;
  private waitingReads: PendingRead[] = [];
  private readsRunning = 0;

  constructor(
    private readonly sql: Sql,
    options: PostgresEventStoreOptions = {},
  ) {
    this.appendsInFlight = Math.max(1, options.appendsInFlight ?? 8);
    this.maxAppendsPerStatement = Math.max(1, options.maxAppendsPerStatement ?? 64);
    this.readsInFlight = Math.max(1, options.readsInFlight ?? 4);
  }

  /**
   * Each append goes out at once as its own statement while fewer than `appendsInFlight` are in
   * flight (PostgreSQL's group commit then shares the flushes, and the statements run in
   * parallel). Beyond that, small appends (what commands write) wait for a statement to finish
   * and are written together by the next one: one statement, one transaction, one commit for
   * all of them, which bounds the connections appends take under a burst and roughly halves the
   * CPU an append costs. Measured with 8 writers on 2 cores: grouping below 8 in flight saved CPU
   * but lost throughput (execution then waits for the previous group's flush); beyond 8 it gains.
   * Large appends always go at once, on their own. Appends to one stream run one after the
   * other, in the order they were called.
   */
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return new Promise<AppendResult>((resolve, reject) => {
      this.pending.push({ streamId, events, expected, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (let more = true; more && this.pending.length > 0; ) {
      const waiting: PendingAppend[] = [];
      const group: PendingAppend[] = [];
      const streams = new Set<string>();
      const room = this.inFlight < this.appendsInFlight ? this.maxAppendsPerStatement : 0;
      for (const a of this.pending) {
        if (this.busy.has(a.streamId) || streams.has(a.streamId)) {
          waiting.push(a);
        } else if (a.events.length > GROUPED_UP_TO) {
          // A large append gains little from company: it goes at once, on its own.
          this.send([a], false);
        } else if (group.length < room) {
          group.push(a);
          streams.add(a.streamId);
        } else {
          waiting.push(a);
        }
      }
      this.pending = waiting;
      more = group.length > 0;
      if (more) this.send(group, true);
    }
  }

  private send(group: PendingAppend[], counted: boolean): void {
    if (counted) this.inFlight++;
    for (const a of group) this.busy.add(a.streamId);
    void this.write(group).finally(() => {
      if (counted) this.inFlight--;
      for (const a of group) this.busy.delete(a.streamId);
      this.dispatch();
    });
  }

  private async write(group: PendingAppend[]): Promise<void> {
    if (group.length === 1) {
      const a = group[0] as PendingAppend;
      await this.appendOne(a.streamId, a.events, a.expected).then(a.resolve, a.reject);
      return;
    }
    let rows: GroupRow[];
    try {
      const payload = group.map((a, i) => ({
        i,
        stream_id: a.streamId,
        category: categoryOf(a.streamId),
        mode: a.expected === 'no_stream' || a.expected === 'any' ? a.expected : 'exact',
        exact: typeof a.expected === 'object' ? a.expected.exact : null,
        n: a.events.length,
        events: a.events.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })),
      }));
      rows = await this.sql.unsafe<GroupRow[]>(GROUP_APPEND, [JSON.stringify(payload)]);
    } catch {
      // Nothing of the group was written (one statement): a retried append among them (event id
      // already stored), a lost connection… Each append then goes alone, with its own outcome.
      await Promise.all(group.map((a) => this.appendOne(a.streamId, a.events, a.expected).then(a.resolve, a.reject)));
      return;
    }
    const written = new Map(rows.map((r) => [r.stream_id, r]));
    if (written.size > 0) this.announce();
    const refused = group.filter((a) => !written.has(a.streamId));
    const actual = refused.length > 0 ? await this.streamRevisions(refused.map((a) => a.streamId)).catch(() => null) : null;
    for (const a of group) {
      const row = written.get(a.streamId);
      if (row) {
        a.resolve({ nextRevision: Number(row.revision), position: encodePosition(row.txid, row.seq), alreadyAppended: false });
      } else if (actual) {
        a.reject(new WrongExpectedRevisionError(a.streamId, a.expected, actual.get(a.streamId) ?? 'no_stream'));
      } else {
        // Could not read the actual revision: the single path reports the outcome.
        await this.appendOne(a.streamId, a.events, a.expected).then(a.resolve, a.reject);
      }
    }
  }

  private async streamRevisions(streamIds: string[]): Promise<Map<string, number>> {
    const rows = await this.sql<{ stream_id: string; revision: bigint }[]>`
      SELECT stream_id, revision FROM es_streams WHERE stream_id = ANY(${streamIds})`;
    return new Map(rows.map((r) => [r.stream_id, Number(r.revision)]));
  }

  private async appendOne(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const n = events.length;
    const payload = JSON.stringify(events.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })));
    let rows: AppendedRow[];
    try {
      // One statement, one round trip: claim the stream revision and insert the events. Constant
      // texts (one per kind of expected revision): prepared once per connection, nothing to build.
      rows =
        expected === 'no_stream'
          ? await this.sql.unsafe<AppendedRow[]>(APPEND_NEW, [streamId, categoryOf(streamId), n, payload], { prepare: true })
          : expected === 'any'
            ? await this.sql.unsafe<AppendedRow[]>(APPEND_ANY, [streamId, categoryOf(streamId), n, payload], { prepare: true })
            : await this.sql.unsafe<AppendedRow[]>(APPEND_EXACT, [streamId, expected.exact, n, payload], { prepare: true });
    } catch (error) {
      if (isUniqueViolation(error, 'es_events_event_id')) {
        return this.alreadyAppended(streamId, events);
      }
      throw error;
    }
    const last = rows[0];
    if (!last) {
      const actual = await this.streamRevision(streamId);
      throw new WrongExpectedRevisionError(streamId, expected, actual);
    }
    this.announce();
    return {
      nextRevision: Number(last.revision),
      position: encodePosition(last.txid, last.seq),
      alreadyAppended: false,
    };
  }

  private async alreadyAppended(streamId: string, events: NewEvent[]): Promise<AppendResult> {
    const ids = events.map((e) => e.id);
    const rows = await this.sql<{ stream_id: string; revision: bigint; txid: string; seq: bigint }[]>`
      SELECT stream_id, revision, txid::text AS txid, seq FROM es_events
      WHERE event_id = ANY(${ids}::uuid[]) ORDER BY es_events.txid, es_events.seq`;
    const last = rows[rows.length - 1];
    if (!last || rows.length !== ids.length || rows.some((r) => r.stream_id !== streamId)) {
      throw new Error(`Event ids already used elsewhere while appending to ${streamId}`);
    }
    return {
      nextRevision: Number(last.revision),
      position: encodePosition(last.txid, last.seq),
      alreadyAppended: true,
    };
  }

  private async streamRevision(streamId: string): Promise<number | 'no_stream'> {
    const [row] = await this.sql<{ revision: bigint }[]>`
      SELECT revision FROM es_streams WHERE stream_id = ${streamId}`;
    return row ? Number(row.revision) : 'no_stream';
  }

  /**
   * A read goes out at once as its own statement while fewer than `readsInFlight` run; beyond
   * that it waits, and the reads waiting when a statement finishes are made together by the next
   * one (its answer is the stream as committed when that statement runs, after the call). Under
   * load most stream reads find nothing new (a command checking its cached state) and each cost a
   * statement's round trip; grouped, a burst of them costs one.
   */
  async readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    const slice = streamSlice(options);
    if (!slice) return [];
    return new Promise<RecordedEvent[]>((resolve, reject) => {
      this.waitingReads.push({ streamId, from: slice.from, to: slice.to ?? Number.MAX_SAFE_INTEGER, resolve, reject });
      this.dispatchReads();
    });
  }

  private dispatchReads(): void {
    while (this.waitingReads.length > 0 && this.readsRunning < this.readsInFlight) {
      const group = this.waitingReads.splice(0, MAX_READS_PER_STATEMENT);
      this.readsRunning++;
      void this.readGroup(group).finally(() => {
        this.readsRunning--;
        this.dispatchReads();
      });
    }
  }

  private async readGroup(group: PendingRead[]): Promise<void> {
    if (group.length === 1) {
      const r = group[0] as PendingRead;
      // A range on the (stream_id, revision) index.
      await this.sql<RecordedEvent[]>`
        SELECT ${this.sql.unsafe(EVENT_COLUMNS)}
        FROM es_events
        WHERE stream_id = ${r.streamId} AND revision >= ${r.from} AND revision <= ${r.to}
        ORDER BY revision`.then((rows) => r.resolve(recorded(rows)), r.reject);
      return;
    }
    // One range per stream (two reads of one stream take the span of both), each on the index.
    const spans = new Map<string, { from: number; to: number }>();
    for (const r of group) {
      const span = spans.get(r.streamId);
      if (span) {
        span.from = Math.min(span.from, r.from);
        span.to = Math.max(span.to, r.to);
      } else spans.set(r.streamId, { from: r.from, to: r.to });
    }
    const ranges = [...spans.values()];
    let rows: RecordedEvent[];
    try {
      rows = await this.sql<RecordedEvent[]>`
        SELECT ${this.sql.unsafe(EVENT_COLUMNS)}
        FROM unnest(${[...spans.keys()]}::text[], ${ranges.map((r) => r.from)}::bigint[], ${ranges.map((r) => r.to)}::bigint[])
          AS wanted(sid, lo, hi)
        JOIN es_events ON es_events.stream_id = wanted.sid COLLATE "C"
          AND es_events.revision >= wanted.lo AND es_events.revision <= wanted.hi
        ORDER BY es_events.stream_id, es_events.revision`;
    } catch (error) {
      for (const r of group) r.reject(error);
      return;
    }
    const byStream = new Map<string, RecordedEvent[]>();
    for (const row of rows) {
      const events = byStream.get(row.streamId);
      if (events) events.push(row);
      else byStream.set(row.streamId, [row]);
    }
    for (const r of group) r.resolve((byStream.get(r.streamId) ?? []).filter((e) => e.revision >= r.from && e.revision <= r.to));
  }

  async readAll(from: Position, limit: number): Promise<RecordedEvent[]> {
    const { txid, seq } = decodePosition(from);
    const readModelWriters = readModelTransactions.list();
    // Below the oldest transaction still running that may append events: this process's
    // read-model transactions (which cannot) are not waited for.
    const rows =
      readModelWriters.length === 0
        ? await this.sql<RecordedEvent[]>`
            SELECT ${this.sql.unsafe(EVENT_COLUMNS)}
            FROM es_events
            WHERE (txid, seq) > (${txid}::xid8, ${seq}::bigint)
              AND txid < pg_snapshot_xmin(pg_current_snapshot())
            ORDER BY es_events.txid, es_events.seq
            LIMIT ${limit}`
        : await this.sql<RecordedEvent[]>`
            SELECT ${this.sql.unsafe(EVENT_COLUMNS)}
            FROM es_events
            WHERE (txid, seq) > (${txid}::xid8, ${seq}::bigint)
              AND txid < (
                SELECT coalesce(
                  (SELECT min(x) FROM pg_snapshot_xip(snap.s) AS x WHERE x <> ALL(${readModelWriters}::xid8[])),
                  pg_snapshot_xmax(snap.s))
                FROM (SELECT pg_current_snapshot() AS s) AS snap)
            ORDER BY es_events.txid, es_events.seq
            LIMIT ${limit}`;
    return recorded(rows);
  }

  async readByCorrelation(correlationId: string, options: { limit?: number } = {}): Promise<RecordedEvent[]> {
    // A range on es_events_correlation (migration 0013), already in log order.
    const rows = await this.sql<RecordedEvent[]>`
      SELECT ${this.sql.unsafe(EVENT_COLUMNS)}
      FROM es_events
      WHERE metadata->>'correlationId' = ${correlationId}
        AND txid < pg_snapshot_xmin(pg_current_snapshot())
      ORDER BY metadata->>'correlationId', es_events.txid, es_events.seq
      LIMIT ${options.limit ?? 1000}`;
    return recorded(rows);
  }

  async headPosition(): Promise<Position> {
    const [row] = await this.sql<{ txid: string; seq: bigint }[]>`
      SELECT txid::text AS txid, seq FROM es_events
      WHERE txid < pg_snapshot_xmin(pg_current_snapshot())
      ORDER BY es_events.txid DESC, es_events.seq DESC LIMIT 1`;
    return row ? encodePosition(row.txid, row.seq) : START;
  }

  async committedPosition(): Promise<Position> {
    const [row] = await this.sql<{ txid: string; seq: bigint }[]>`
      SELECT txid::text AS txid, seq FROM es_events ORDER BY es_events.txid DESC, es_events.seq DESC LIMIT 1`;
    return row ? encodePosition(row.txid, row.seq) : START;
  }

  async countAfter(from: Position): Promise<number> {
    const { txid, seq } = decodePosition(from);
    const [row] = await this.sql<{ count: bigint }[]>`
      SELECT count(*) AS count FROM es_events
      WHERE (txid, seq) > (${txid}::xid8, ${seq}::bigint)
        AND txid < pg_snapshot_xmin(pg_current_snapshot())`;
    return Number(row?.count ?? 0);
  }

  async listStreams(options: { category?: string; limit?: number } = {}): Promise<StreamInfo[]> {
    const limit = options.limit ?? 1000;
    const rows = options.category
      ? await this.sql<{ stream_id: string; category: string; revision: bigint; updated_at: Date }[]>`
          SELECT stream_id, category, revision, updated_at FROM es_streams
          WHERE stream_id LIKE ${`${options.category.replace(/[\\%_]/g, '\\$&')}-%`} ORDER BY stream_id LIMIT ${limit}`
      : await this.sql<{ stream_id: string; category: string; revision: bigint; updated_at: Date }[]>`
          SELECT stream_id, category, revision, updated_at FROM es_streams ORDER BY stream_id LIMIT ${limit}`;
    return rows.map((r) => ({
      streamId: r.stream_id,
      category: r.category,
      revision: Number(r.revision),
      updatedAt: r.updated_at,
    }));
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

  /**
   * Wakes followers after a commit. A NOTIFY inside the append would take PostgreSQL's global
   * notify lock at commit and serialise every writer's commit (no group commit): 8 writers then
   * append no faster than one. So this process's followers are woken directly, and other
   * processes by one coalesced NOTIFY at a time, sent after the commit and at most one per
   * `NOTIFY_EVERY_MS`: under thousands of appends a second a NOTIFY per round trip cost about
   * a sixth of the append rate (a statement, a commit and a global lock each), while a follower
   * in another process waits at most a few milliseconds longer.
   */
  private announce(): void {
    for (const listener of this.listeners) listener();
    if (this.notifying) {
      this.notifyAgain = true;
      return;
    }
    this.notifying = true;
    void (async () => {
      try {
        do {
          this.notifyAgain = false;
          const sent = performance.now();
          await this.sql`SELECT pg_notify(${CHANNEL}, '')`;
          const wait = NOTIFY_EVERY_MS - (performance.now() - sent);
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        } while (this.notifyAgain);
      } catch {
        // Followers also poll: a lost wake-up only delays them.
      } finally {
        this.notifying = false;
      }
    })();
  }

  /** One LISTEN connection per store, shared by every subscriber. */
  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.listening) {
      const wake = () => {
        for (const l of this.listeners) l();
      };
      // Woken on every notice, and whenever LISTEN is (re)established: notices sent while the
      // connection was down are lost, and a wake-up makes the followers read what they missed.
      this.listening = this.sql.listen(CHANNEL, wake, wake);
      this.listening.catch(() => {
        this.listening = null;
      });
    }
    return () => {
      this.listeners.delete(listener);
    };
  }

  async close(): Promise<void> {
    const listening = this.listening;
    this.listening = null;
    if (listening !== null) await (await listening.catch(() => null))?.unlisten().catch(() => {});
  }
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint_name?: string };
  return e?.code === '23505' && e.constraint_name === constraint;
}
