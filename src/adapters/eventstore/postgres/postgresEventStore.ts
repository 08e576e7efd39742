import type { Sql } from '../../db/db.ts';
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

interface EventRow {
  event_id: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  stream_id: string;
  revision: bigint | number;
  txid: string;
  seq: bigint | number;
  recorded_at: Date;
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    streamId: row.stream_id,
    revision: Number(row.revision),
    position: encodePosition(row.txid, row.seq),
    recordedAt: row.recorded_at,
  };
}

interface AppendedRow {
  txid: string;
  seq: bigint;
  revision: bigint;
}

export class PostgresEventStore implements EventStore {
  readonly kind = 'postgres' as const;
  private listeners = new Set<() => void>();
  private listening: Promise<{ unlisten: () => Promise<void> }> | null = null;
  private notifying = false;
  private notifyAgain = false;

  constructor(private readonly sql: Sql) {}

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const sql = this.sql;
    const n = events.length;
    const payload = sql.json(events.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })) as never);
    let rows: AppendedRow[];
    try {
      // One statement, one round trip: claim the stream revision and insert the events.
      const claim =
        expected === 'no_stream'
          ? sql`INSERT INTO es_streams (stream_id, category, revision) VALUES (${streamId}, ${categoryOf(streamId)}, ${n - 1})
                ON CONFLICT (stream_id) DO NOTHING RETURNING revision`
          : expected === 'any'
            ? sql`INSERT INTO es_streams AS st (stream_id, category, revision) VALUES (${streamId}, ${categoryOf(streamId)}, ${n - 1})
                  ON CONFLICT (stream_id) DO UPDATE SET revision = st.revision + ${n}, updated_at = now() RETURNING revision`
            : sql`UPDATE es_streams SET revision = revision + ${n}, updated_at = now()
                  WHERE stream_id = ${streamId} AND revision = ${expected.exact} RETURNING revision`;
      rows = await sql<AppendedRow[]>`
        WITH s AS (${claim}),
        e AS (
          INSERT INTO es_events (event_id, stream_id, revision, type, data, metadata)
          SELECT (x->>'id')::uuid, ${streamId}, s.revision - ${n} + t.ord, x->>'type', x->'data', x->'metadata'
          FROM s, jsonb_array_elements(${payload}) WITH ORDINALITY AS t(x, ord)
          ORDER BY t.ord
          RETURNING txid, seq, revision
        )
        SELECT e.txid::text AS txid, e.seq, e.revision FROM e ORDER BY e.seq DESC LIMIT 1`;
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

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    const slice = streamSlice(options);
    if (!slice) return [];
    // A range on the (stream_id, revision) index.
    const rows = await this.sql<EventRow[]>`
      SELECT event_id, type, data, metadata, stream_id, revision, txid::text AS txid, seq, recorded_at
      FROM es_events
      WHERE stream_id = ${streamId} AND revision >= ${slice.from} AND revision <= ${slice.to ?? Number.MAX_SAFE_INTEGER}
      ORDER BY revision`;
    return rows.map(toRecorded);
  }

  async readAll(from: Position, limit: number): Promise<RecordedEvent[]> {
    const { txid, seq } = decodePosition(from);
    const rows = await this.sql<EventRow[]>`
      SELECT event_id, type, data, metadata, stream_id, revision, txid::text AS txid, seq, recorded_at
      FROM es_events
      WHERE (txid, seq) > (${txid}::xid8, ${seq}::bigint)
        AND txid < pg_snapshot_xmin(pg_current_snapshot())
      ORDER BY es_events.txid, es_events.seq
      LIMIT ${limit}`;
    return rows.map(toRecorded);
  }

  async headPosition(): Promise<Position> {
    const [row] = await this.sql<{ txid: string; seq: bigint }[]>`
      SELECT txid::text AS txid, seq FROM es_events
      WHERE txid < pg_snapshot_xmin(pg_current_snapshot())
      ORDER BY es_events.txid DESC, es_events.seq DESC LIMIT 1`;
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
   * processes by one coalesced NOTIFY in flight at a time, sent after the commit.
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
          await this.sql`SELECT pg_notify(${CHANNEL}, '')`;
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
      this.listening = this.sql.listen(CHANNEL, () => {
        for (const l of this.listeners) l();
      });
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
