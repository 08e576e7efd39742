import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import type { Sql } from '../../adapters/db/db.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import type { NewEvent, RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import { PostgresEventStore } from '../../adapters/eventstore/postgres/postgresEventStore.ts';
import { ProjectionRunner } from './projectionRunner.ts';
import type { Projector } from './projector.ts';

let db: TestDatabase;
let sql: Sql;
let store: PostgresEventStore;

beforeAll(async () => {
  db = await createTestDatabase('proj');
  sql = db.sql;
  await migrate(sql, { eventStore: true });
  store = new PostgresEventStore(sql);
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

const tested = (data: Record<string, unknown> = {}): NewEvent => ({ id: randomUUID(), type: 'Counted', data, metadata: {} });

/** Counts events per stream with `n = n + 1`: applying an event twice shows up as a wrong count. */
function countingProjector(name: string, hooks: { beforeApply?: (tx: Sql, events: RecordedEvent[]) => Promise<void> } = {}): Projector {
  const table = `${name}_counts`;
  return {
    name,
    handles: ['Counted'],
    tables: [table],
    async setup(tx) {
      await tx.unsafe(`CREATE TABLE IF NOT EXISTS ${table} (stream_id text PRIMARY KEY, n int NOT NULL)`);
    },
    async apply(tx, events) {
      const perStream = new Map<string, number>();
      for (const e of events) perStream.set(e.streamId, (perStream.get(e.streamId) ?? 0) + 1);
      await tx.unsafe(
        `INSERT INTO ${table} (stream_id, n) SELECT * FROM unnest($1::text[], $2::int[])
         ON CONFLICT (stream_id) DO UPDATE SET n = ${table}.n + EXCLUDED.n`,
        [[...perStream.keys()], [...perStream.values()]],
      );
      await hooks.beforeApply?.(tx as unknown as Sql, events);
    },
  };
}

async function counts(table: string): Promise<Record<string, number>> {
  const rows = await sql.unsafe<{ stream_id: string; n: number }[]>(`SELECT stream_id, n FROM ${table} ORDER BY stream_id`);
  return Object.fromEntries(rows.map((r) => [r.stream_id, r.n]));
}

/** What a projector of the whole log must hold: every Counted event, optionally only those before one event. */
async function expectedCounts(beforeEventId?: string): Promise<Record<string, number>> {
  const rows = beforeEventId
    ? await sql<{ stream_id: string; n: bigint }[]>`
        SELECT stream_id, count(*) AS n FROM es_events
        WHERE type = 'Counted' AND (txid, seq) < (SELECT txid, seq FROM es_events WHERE event_id = ${beforeEventId})
        GROUP BY stream_id`
    : await sql<{ stream_id: string; n: bigint }[]>`
        SELECT stream_id, count(*) AS n FROM es_events WHERE type = 'Counted' GROUP BY stream_id`;
  return Object.fromEntries(rows.map((r) => [r.stream_id, Number(r.n)]));
}

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function caughtUp(name: string): Promise<boolean> {
  const head = await store.headPosition();
  const [row] = await sql<{ position: string }[]>`SELECT position FROM projection_checkpoints WHERE name = ${name}`;
  return row?.position === head;
}

let prefix: string;
beforeEach(() => {
  prefix = `p${randomUUID().slice(0, 8)}`;
});

async function appendMany(streams: number, perStream: number): Promise<void> {
  for (let s = 0; s < streams; s++) {
    const events = Array.from({ length: perStream }, (_, i) => tested({ i }));
    await store.append(`${prefix}-${s}`, events, 'no_stream');
  }
}

describe('projection runner', () => {
  it('applies each event exactly once and ends with the rows of a clean rebuild', async () => {
    const projector = countingProjector(`${prefix}_clean`);
    await appendMany(20, 30);
    const runner = new ProjectionRunner(sql, store, [projector], { batchSize: 50, pollMs: 50 });
    await runner.start();
    await until(() => caughtUp(projector.name));
    await runner.stop();
    const live = await counts(`${projector.name}_counts`);
    expect(live).toEqual(await expectedCounts());
    const progress = await runner.rebuild(projector.name);
    expect(progress.status).toBe('completed');
    expect(await counts(`${projector.name}_counts`)).toEqual(live);
  });

  it('survives its connection being killed mid-batch and ends with exactly the rows of a clean rebuild', async () => {
    let kills = 0;
    const projector = countingProjector(`${prefix}_killed`, {
      async beforeApply(tx) {
        // The batch has written rows; the server now kills the connection before the commit.
        if (kills < 2) {
          kills++;
          const [me] = await tx<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
          await sql`SELECT pg_terminate_backend(${me?.pid ?? 0})`;
          await tx`SELECT 1`;
        }
      },
    });
    await appendMany(10, 25);
    const runner = new ProjectionRunner(sql, store, [projector], { batchSize: 40, pollMs: 50 });
    await runner.start();
    await until(() => caughtUp(projector.name), 30_000);
    await runner.stop();
    expect(kills).toBe(2);
    const live = await counts(`${projector.name}_counts`);
    expect(live).toEqual(await expectedCounts());
    await runner.rebuild(projector.name);
    expect(await counts(`${projector.name}_counts`)).toEqual(live);
  });

  it('picks up from its checkpoint after a stop mid-stream, applying nothing twice', async () => {
    const projector = countingProjector(`${prefix}_restart`);
    await appendMany(5, 40);
    const first = new ProjectionRunner(sql, store, [projector], { batchSize: 7, pollMs: 50 });
    await first.start();
    await until(async () => Object.values(await counts(`${projector.name}_counts`)).reduce((a, b) => a + b, 0) > 30);
    await first.stop();
    await store.append(`${prefix}-more`, [tested(), tested()], 'no_stream');
    const second = new ProjectionRunner(sql, store, [projector], { batchSize: 7, pollMs: 50 });
    await second.start();
    await until(() => caughtUp(projector.name));
    await second.stop();
    expect(await counts(`${projector.name}_counts`)).toEqual(await expectedCounts());
  });

  it('stops only the projector that meets a poison event, keeps what came before, and reports it', async () => {
    const poisoned = countingProjector(`${prefix}_poisoned`);
    const apply = poisoned.apply;
    poisoned.apply = async (tx, events) => {
      if (events.some((e) => (e.data as { poison?: boolean }).poison)) throw new Error('cannot project this');
      return apply(tx, events);
    };
    const healthy = countingProjector(`${prefix}_healthy`);
    await appendMany(3, 5);
    const poison = tested({ poison: true });
    await store.append(`${prefix}-x`, [tested(), poison, tested()], 'no_stream');
    await appendMany(0, 0);
    await store.append(`${prefix}-y`, [tested()], 'no_stream');
    const stopped: { projector: string; eventId: string; error: string }[] = [];
    const runner = new ProjectionRunner(sql, store, [poisoned, healthy], {
      batchSize: 100,
      pollMs: 50,
      onStopped: async (projector, event, error) => {
        stopped.push({ projector, eventId: event.id, error });
      },
    });
    await runner.start();
    await until(() => caughtUp(healthy.name));
    await until(async () => stopped.length > 0);
    await runner.stop();
    expect(stopped).toEqual([{ projector: poisoned.name, eventId: poison.id, error: 'cannot project this' }]);
    const status = (await runner.status()).find((s) => s.name === poisoned.name);
    expect(status).toMatchObject({ status: 'failed', lastError: 'cannot project this', errorEventId: poison.id });
    expect(status?.lagEvents).toBeGreaterThan(0);
    expect(await counts(`${healthy.name}_counts`)).toEqual(await expectedCounts());
    // Everything before the poison event is applied, nothing after it.
    const before = await expectedCounts(poison.id);
    expect(before[`${prefix}-x`]).toBe(1);
    expect(await counts(`${poisoned.name}_counts`)).toEqual(before);
  });

  it('loses nothing when rebuilt while writers keep appending, and serves the old tables meanwhile', async () => {
    const projector = countingProjector(`${prefix}_live`);
    await appendMany(10, 100);
    const runner = new ProjectionRunner(sql, store, [projector], { batchSize: 100, pollMs: 20 });
    await runner.start();
    let writing = true;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      let i = 0;
      while (writing) {
        await store.append(`${prefix}-w${w}`, [tested({ i })], 'any');
        i++;
      }
    });
    await new Promise((r) => setTimeout(r, 200));
    const progress: number[] = [];
    await runner.rebuild(projector.name, (p) => progress.push(p.done));
    await new Promise((r) => setTimeout(r, 200));
    writing = false;
    await Promise.all(writers);
    await until(() => caughtUp(projector.name));
    await runner.stop();
    expect(progress.length).toBeGreaterThan(0);
    expect(await counts(`${projector.name}_counts`)).toEqual(await expectedCounts());
  });
});
