import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import type { Sql } from '../../adapters/db/db.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import type { ExpectedRevision, NewEvent, RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import { PostgresEventStore } from '../../adapters/eventstore/postgres/postgresEventStore.ts';
import { recordEventParked, recordParkedEventSkipped } from '../../commands/operations/parkedEvents.ts';
import { NotParkedError, ProjectionRunner } from './projectionRunner.ts';
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

/**
 * Records the revisions it applies per stream, in the order applied, and fails on events marked
 * poison until fixed: shows what was applied, what was parked and in which order.
 */
function orderingProjector(name: string, poisonTag = prefix) {
  const table = `${name}_revisions`;
  let fixed = false;
  const projector: Projector = {
    name,
    handles: ['Counted'],
    tables: [table],
    async setup(tx) {
      await tx.unsafe(`CREATE TABLE IF NOT EXISTS ${table} (stream_id text PRIMARY KEY, revisions int[] NOT NULL)`);
    },
    async apply(tx, events) {
      if (!fixed && events.some((e) => (e.data as { poison?: string }).poison === poisonTag)) throw new Error('cannot project this');
      const perStream = new Map<string, number[]>();
      for (const e of events) perStream.set(e.streamId, [...(perStream.get(e.streamId) ?? []), e.revision]);
      await tx.unsafe(
        `INSERT INTO ${table} (stream_id, revisions) SELECT key, ARRAY(SELECT jsonb_array_elements_text(value)::int)
         FROM jsonb_each($1::text::jsonb)
         ON CONFLICT (stream_id) DO UPDATE SET revisions = ${table}.revisions || EXCLUDED.revisions`,
        [JSON.stringify(Object.fromEntries(perStream))],
      );
    },
  };
  return {
    projector,
    fix() {
      fixed = true;
    },
    async revisions(): Promise<Record<string, number[]>> {
      const rows = await sql.unsafe<{ stream_id: string; revisions: number[] }[]>(`SELECT stream_id, revisions FROM ${table}`);
      return Object.fromEntries(rows.map((r) => [r.stream_id, r.revisions]));
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

/** Position of the newest event the tests appended. */
let lastWritten = '';

async function append(streamId: string, events: NewEvent[], expected: ExpectedRevision) {
  const result = await store.append(streamId, events, expected);
  if (result.position > lastWritten) lastWritten = result.position;
  return result;
}

/**
 * Waits until everything appended is readable: a transaction anywhere in the cluster (other
 * test databases included) holds the visibility horizon back for a while, never opening a gap.
 */
async function settled(): Promise<void> {
  await until(async () => (await store.headPosition()) >= lastWritten);
}

async function caughtUp(name: string): Promise<boolean> {
  const [row] = await sql<{ position: string }[]>`SELECT position FROM projection_checkpoints WHERE name = ${name}`;
  return (row?.position ?? '') >= lastWritten;
}

let prefix: string;
beforeEach(() => {
  prefix = `p${randomUUID().slice(0, 8)}`;
});

async function appendMany(streams: number, perStream: number): Promise<void> {
  for (let s = 0; s < streams; s++) {
    const events = Array.from({ length: perStream }, (_, i) => tested({ i }));
    await append(`${prefix}-${s}`, events, 'no_stream');
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
    await settled();
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
    const runner = new ProjectionRunner(sql, store, [projector], { batchSize: 40, pollMs: 50, retryMs: 100 });
    await runner.start();
    await until(() => caughtUp(projector.name), 30_000);
    await runner.stop();
    expect(kills).toBe(2);
    const live = await counts(`${projector.name}_counts`);
    expect(live).toEqual(await expectedCounts());
    await settled();
    await runner.rebuild(projector.name);
    expect(await counts(`${projector.name}_counts`)).toEqual(live);
  });

  it('catches up to every event committed before the call, even one an older open transaction still hides', async () => {
    const projector = countingProjector(`${prefix}_hidden`);
    const runner = new ProjectionRunner(sql, store, [projector], { batchSize: 50, pollMs: 50 });
    await runner.setup();
    await runner.catchUp();
    // An older transaction holds its id open: the event committed after it stays out of readers' view.
    const older = await sql.reserve();
    await older`BEGIN`;
    await older`SELECT pg_current_xact_id()`;
    const stream = `${prefix}-hidden-${randomUUID()}`;
    await append(stream, [tested()], 'no_stream');
    let ended = false;
    const end = new Promise<void>((resolve) =>
      setTimeout(async () => {
        ended = true;
        await older`COMMIT`;
        older.release();
        resolve();
      }, 300),
    );
    await runner.catchUp([projector.name]);
    // It waited for the older transaction to end rather than stopping where the log went quiet.
    expect(ended).toBe(true);
    expect((await counts(`${projector.name}_counts`))[stream]).toBe(1);
    await end;
  });

  it('picks up from its checkpoint after a stop mid-stream, applying nothing twice', async () => {
    const projector = countingProjector(`${prefix}_restart`);
    await appendMany(5, 40);
    const first = new ProjectionRunner(sql, store, [projector], { batchSize: 7, pollMs: 50 });
    await first.start();
    await until(async () => Object.values(await counts(`${projector.name}_counts`)).reduce((a, b) => a + b, 0) > 30);
    await first.stop();
    await append(`${prefix}-more`, [tested(), tested()], 'no_stream');
    const second = new ProjectionRunner(sql, store, [projector], { batchSize: 7, pollMs: 50 });
    await second.start();
    await until(() => caughtUp(projector.name));
    await second.stop();
    expect(await counts(`${projector.name}_counts`)).toEqual(await expectedCounts());
  });

  it('parks a poison event and goes on: other streams are applied, its stream waits behind it; retry after a fix applies them in order', async () => {
    const poisoned = orderingProjector(`${prefix}_poisoned`);
    const healthy = countingProjector(`${prefix}_healthy`);
    await appendMany(3, 5);
    const poison = tested({ poison: prefix });
    await append(`${prefix}-x`, [tested(), poison, tested()], 'no_stream');
    await append(`${prefix}-y`, [tested()], 'no_stream');
    await append(`${prefix}-x`, [tested()], 'any');
    const alerts: { projector: string; eventId: string; error: string }[] = [];
    const runner = new ProjectionRunner(sql, store, [poisoned.projector, healthy], {
      batchSize: 100,
      pollMs: 50,
      onParked: async (projector, event, error) => {
        alerts.push({ projector, eventId: event.id, error });
        await recordEventParked(
          store,
          { projector, eventId: event.id, eventType: event.type, streamId: event.streamId, error },
          new Date(),
        );
      },
    });
    await runner.start();
    await until(async () => (await caughtUp(healthy.name)) && (await caughtUp(poisoned.projector.name)));
    // Later events of other streams keep flowing while the poison event is parked.
    await append(`${prefix}-y`, [tested()], 'any');
    await until(async () => (await caughtUp(healthy.name)) && (await caughtUp(poisoned.projector.name)));
    await runner.stop();

    expect(alerts).toEqual([{ projector: poisoned.projector.name, eventId: poison.id, error: 'cannot project this' }]);
    const recorded = await sql<{ stream_id: string; data: Record<string, unknown> }[]>`
      SELECT stream_id, data FROM es_events WHERE type = 'EventParked' AND data->>'eventId' = ${poison.id}`;
    expect(recorded).toEqual([
      {
        stream_id: expect.stringMatching(/^parkedEvent-/),
        data: expect.objectContaining({
          projector: poisoned.projector.name,
          eventType: 'Counted',
          streamId: `${prefix}-x`,
          error: 'cannot project this',
        }),
      },
    ]);
    const again = await recordEventParked(
      store,
      {
        projector: poisoned.projector.name,
        eventId: poison.id,
        eventType: 'Counted',
        streamId: `${prefix}-x`,
        error: 'cannot project this',
      },
      new Date(),
    );
    expect(again.alreadyRecorded).toBe(true);
    expect(await counts(`${healthy.name}_counts`)).toEqual(await expectedCounts());
    const applied = await poisoned.revisions();
    expect(applied[`${prefix}-x`]).toEqual([0]);
    expect(applied[`${prefix}-y`]).toEqual([0, 1]);
    for (let s = 0; s < 3; s++) expect(applied[`${prefix}-${s}`]).toEqual([0, 1, 2, 3, 4]);

    const parked = await runner.parked(poisoned.projector.name);
    expect(parked.map((p) => [p.revision, p.status, p.error])).toEqual([
      [1, 'failed', 'cannot project this'],
      [2, 'blocked', null],
      [3, 'blocked', null],
    ]);
    expect(parked.every((p) => p.streamId === `${prefix}-x` && p.type === 'Counted')).toBe(true);
    const status = (await runner.status()).find((s) => s.name === poisoned.projector.name);
    expect(status).toMatchObject({ status: 'running', lagEvents: 0, parked: 3, lastError: 'cannot project this', errorEventId: poison.id });
    expect((await runner.status()).find((s) => s.name === healthy.name)).toMatchObject({ parked: 0, lastError: null });

    // Retrying before the fix changes nothing but the attempt count.
    const early = await runner.retryParked(poisoned.projector.name, poison.id);
    expect(early).toMatchObject({ applied: [], stillParked: 3, failedEventId: poison.id, error: 'cannot project this' });
    expect((await runner.parked(poisoned.projector.name))[0]?.attempts).toBe(2);

    poisoned.fix();
    const retried = await runner.retryParked(poisoned.projector.name, parked[2]?.eventId as string);
    expect(retried).toMatchObject({ streamId: `${prefix}-x`, stillParked: 0, error: null });
    expect(retried.applied).toEqual(parked.map((p) => p.eventId));
    expect((await poisoned.revisions())[`${prefix}-x`]).toEqual([0, 1, 2, 3]);
    expect(await runner.parked(poisoned.projector.name)).toEqual([]);
    expect((await runner.status()).find((s) => s.name === poisoned.projector.name)).toMatchObject({
      parked: 0,
      lastError: null,
      errorEventId: null,
    });
    await expect(runner.retryParked(poisoned.projector.name, poison.id)).rejects.toBeInstanceOf(NotParkedError);

    // Nothing parked any more: the stream's new events are applied as they come.
    await append(`${prefix}-x`, [tested()], 'any');
    await settled();
    await runner.catchUp();
    expect((await poisoned.revisions())[`${prefix}-x`]).toEqual([0, 1, 2, 3, 4]);
    expect(alerts).toHaveLength(1);
  });

  it('skips a parked event with a reason recorded as an event, then applies what waited behind it', async () => {
    const poisoned = orderingProjector(`${prefix}_skip`);
    const poison = tested({ poison: prefix });
    await append(`${prefix}-z`, [tested(), poison, tested(), tested()], 'no_stream');
    const runner = new ProjectionRunner(sql, store, [poisoned.projector], { batchSize: 100 });
    await runner.setup();
    await settled();
    await runner.catchUp();
    expect((await runner.parked()).map((p) => p.status)).toEqual(['failed', 'blocked', 'blocked']);
    await expect(runner.skipParked(poisoned.projector.name, poison.id, { reason: ' ', actor: 'ops' })).rejects.toThrow('reason');

    const outcome = await runner.skipParked(
      poisoned.projector.name,
      poison.id,
      { reason: 'test data', actor: 'ops:alice' },
      async (event) => {
        await recordParkedEventSkipped(store, { ...event, eventType: event.type, reason: 'test data', actor: 'ops:alice' }, new Date());
      },
    );
    expect(outcome).toMatchObject({
      stillParked: 0,
      error: null,
      skipped: { eventId: poison.id, status: 'skipped', reason: 'test data', actor: 'ops:alice' },
    });
    expect(outcome.applied).toHaveLength(2);
    expect((await poisoned.revisions())[`${prefix}-z`]).toEqual([0, 2, 3]);
    expect(await runner.parked()).toEqual([]);
    expect((await runner.parked(undefined, { includeSkipped: true })).map((p) => [p.eventId, p.status])).toEqual([[poison.id, 'skipped']]);
    expect((await runner.status())[0]).toMatchObject({ parked: 0, lastError: null });

    const [skip] = await sql<{ stream_id: string; data: Record<string, unknown>; metadata: Record<string, unknown> }[]>`
      SELECT stream_id, data, metadata FROM es_events WHERE type = 'ParkedEventSkipped' AND data->>'eventId' = ${poison.id}`;
    expect(skip?.stream_id).toMatch(/^parkedEvent-/);
    expect(skip?.data).toMatchObject({
      projector: poisoned.projector.name,
      eventId: poison.id,
      eventType: 'Counted',
      streamId: `${prefix}-z`,
      reason: 'test data',
      actor: 'ops:alice',
    });
    expect(skip?.metadata).toMatchObject({ actorRole: 'operator' });
    // Recording the same skip again appends nothing.
    const again = await recordParkedEventSkipped(
      store,
      {
        projector: poisoned.projector.name,
        eventId: poison.id,
        eventType: 'Counted',
        streamId: `${prefix}-z`,
        reason: 'test data',
        actor: 'ops:alice',
      },
      new Date(),
    );
    expect(again.alreadyRecorded).toBe(true);
    await expect(runner.skipParked(poisoned.projector.name, poison.id, { reason: 'again', actor: null })).rejects.toBeInstanceOf(
      NotParkedError,
    );

    // A rebuild meets the poison event again: the operator's skip holds.
    await settled();
    await runner.rebuild(poisoned.projector.name);
    expect((await poisoned.revisions())[`${prefix}-z`]).toEqual([0, 2, 3]);
    expect(await runner.parked()).toEqual([]);
  });

  it('starts over on a rebuild: parks what still fails, resolves what a fix made applicable', async () => {
    const poisoned = orderingProjector(`${prefix}_rebuilt`);
    const healthy = countingProjector(`${prefix}_beside`);
    const poison = tested({ poison: prefix });
    await appendMany(2, 3);
    await append(`${prefix}-x`, [tested(), poison, tested()], 'no_stream');
    const runner = new ProjectionRunner(sql, store, [poisoned.projector, healthy], { batchSize: 50 });
    await runner.setup();
    await settled();
    await runner.catchUp();
    const before = await runner.parked();
    expect(before.map((p) => p.status)).toEqual(['failed', 'blocked']);

    await settled();
    const rebuilt = await runner.rebuildAll();
    expect(rebuilt.map((r) => r.status)).toEqual(['completed', 'completed']);
    expect((await runner.parked()).map((p) => [p.eventId, p.status])).toEqual(before.map((p) => [p.eventId, p.status]));
    expect((await poisoned.revisions())[`${prefix}-x`]).toEqual([0]);
    expect(await counts(`${healthy.name}_counts`)).toEqual(await expectedCounts());
    const status = (await runner.status()).find((s) => s.name === poisoned.projector.name);
    expect(status).toMatchObject({ parked: 2, lagEvents: 0, errorEventId: poison.id });

    poisoned.fix();
    await settled();
    await runner.rebuildAll([poisoned.projector.name]);
    expect(await runner.parked()).toEqual([]);
    expect((await poisoned.revisions())[`${prefix}-x`]).toEqual([0, 1, 2]);
    expect((await runner.status()).find((s) => s.name === poisoned.projector.name)).toMatchObject({ parked: 0, errorEventId: null });
  });

  it('reads the log once for all its projectors, following, catching up and rebuilding', async () => {
    const projectors = [countingProjector(`${prefix}_a`), countingProjector(`${prefix}_b`), orderingProjector(`${prefix}_c`).projector];
    await appendMany(10, 10);
    await append(
      `${prefix}-long`,
      Array.from({ length: 300 }, (_, i) => tested({ i })),
      'no_stream',
    );
    const reads = { count: 0 };
    const counted = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'readAll') {
          return (from: string, limit: number) => {
            reads.count++;
            return target.readAll(from, limit);
          };
        }
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const runner = new ProjectionRunner(sql, counted, projectors, { batchSize: 25 });
    await runner.setup();
    await settled();
    const total = await store.countAfter('');
    await runner.catchUp();
    // One read per batch of 25 for all three, and the read that finds the end.
    expect(reads.count).toBe(Math.ceil(total / 25) + 1);
    for (const p of projectors.slice(0, 2)) expect(await counts(`${p.name}_counts`)).toEqual(await expectedCounts());
    reads.count = 0;
    await settled();
    const firstReports = new Map<string, number>();
    await runner.rebuildAll(undefined, (name, progress) => {
      if (progress.done > 0 && !firstReports.has(name)) firstReports.set(name, progress.done);
    });
    // Batches of 250, 1,000 and 4,000, then 5,000 while replaying, plus one read per projector to catch up in its swap.
    expect(reads.count).toBeLessThanOrEqual(3 + Math.ceil(total / 5000) + 1 + projectors.length);
    // Every projector's first figure comes after the small first batch, not after 5,000 events.
    expect([...firstReports.values()]).toEqual(projectors.map(() => Math.min(250, total)));
    for (const p of projectors.slice(0, 2)) expect(await counts(`${p.name}_counts`)).toEqual(await expectedCounts());
  });

  it('keeps following with the others while one projector is stuck in a slow batch', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let stuck = false;
    // The slow one blocks inside its first batch's transaction (checkpoint locked, an id of its own).
    const slow = countingProjector(`${prefix}_slow`, {
      beforeApply: async () => {
        if (stuck) return;
        stuck = true;
        await gate;
      },
    });
    const fast = countingProjector(`${prefix}_fast`);
    const runner = new ProjectionRunner(sql, store, [slow, fast], { batchSize: 20, pollMs: 50 });
    await runner.start();
    try {
      await appendMany(1, 5);
      await until(async () => stuck);
      // Written while the slow batch is open: the fast projector follows them to the head, batch after batch.
      for (let s = 0; s < 12; s++)
        await append(
          `${prefix}-later-${s}`,
          Array.from({ length: 10 }, (_, i) => tested({ i })),
          'no_stream',
        );
      await until(() => caughtUp(fast.name));
      expect(await caughtUp(slow.name)).toBe(false);
    } finally {
      release();
    }
    await until(() => caughtUp(slow.name));
    await runner.stop();
    for (const p of [slow, fast]) expect(await counts(`${p.name}_counts`)).toEqual(await expectedCounts());
  });

  it('does not hold the others back while a new projector catches up from the start', async () => {
    const old = countingProjector(`${prefix}_old`);
    await appendMany(4, 50);
    const first = new ProjectionRunner(sql, store, [old], { batchSize: 1000 });
    await first.setup();
    await settled();
    await first.catchUp();
    const fresh = countingProjector(`${prefix}_new`);
    const runner = new ProjectionRunner(sql, store, [old, fresh], { batchSize: 100, pollMs: 20 });
    await runner.setup();
    const late = await append(`${prefix}-late`, [tested()], 'no_stream');
    // Readable once every older transaction of the cluster has ended (gap safety).
    await until(async () => (await store.headPosition()) === late.position);
    // One round: the new projector gets its first batch, the old one the new event.
    // The round is the follower's (follower.ts), inside the runner.
    const { follower } = runner as unknown as { follower: { round(p: readonly Projector[], e: string): Promise<boolean> } };
    await follower.round(runner.projectors, 'throw');
    expect((await counts(`${old.name}_counts`))[`${prefix}-late`]).toBe(1);
    await settled();
    await runner.catchUp();
    expect(await counts(`${fresh.name}_counts`)).toEqual(await expectedCounts());
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
        await append(`${prefix}-w${w}`, [tested({ i })], 'any');
        i++;
      }
    });
    await new Promise((r) => setTimeout(r, 200));
    const progress: number[] = [];
    await settled();
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
