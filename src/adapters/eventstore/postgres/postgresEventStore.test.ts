import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/database.ts';
import { readModelTransactions } from '../../db/readModelTransactions.ts';
import { eventStoreContract } from '../eventStore.contract.ts';
import { type NewEvent, START, WrongExpectedRevisionError } from '../eventStore.ts';
import { PostgresEventStore } from './postgresEventStore.ts';
import { migrateEventStore } from './schema.ts';

eventStoreContract('postgres', async () => {
  const db = await createTestDatabase('es');
  await migrateEventStore(db.sql);
  const store = new PostgresEventStore(db.sql);
  return {
    store,
    async dispose() {
      await store.close();
      await db.drop();
    },
  };
});

// The same contract with every concurrent small append written, and every concurrent stream read
// made, in groups (one statement of each in flight).
eventStoreContract('postgres, appends and reads grouped', async () => {
  const db = await createTestDatabase('esg');
  await migrateEventStore(db.sql);
  const store = new PostgresEventStore(db.sql, { appendsInFlight: 1, readsInFlight: 1 });
  return {
    store,
    async dispose() {
      await store.close();
      await db.drop();
    },
  };
});

describe('postgres event store grouped appends', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('group');
    await migrateEventStore(db.sql);
  });
  afterAll(async () => db.drop());

  const event = (n = 0): NewEvent => ({ id: randomUUID(), type: 'Grouped', data: { n }, metadata: {} });

  it('gives each append of a group its own outcome, as if it had been written alone', async () => {
    const store = new PostgresEventStore(db.sql, { appendsInFlight: 1 });
    const id = (name: string) => `group-${name}-${randomUUID()}`;
    const [existing, exact, stale, any, retried] = [id('existing'), id('exact'), id('stale'), id('any'), id('retried')];
    const retriedEvents = [event(), event()];
    await store.append(existing, [event()], 'no_stream');
    await store.append(exact, [event(), event()], 'no_stream');
    await store.append(stale, [event(), event()], 'no_stream');
    await store.append(any, [event()], 'no_stream');
    const first = await store.append(retried, retriedEvents, 'no_stream');

    // One append holds the only statement; those called meanwhile are written together.
    const blocker = store.append(id('blocker'), [event()], 'no_stream');
    const fresh = id('fresh');
    const outcomes = await Promise.allSettled([
      store.append(fresh, [event(), event(), event()], 'no_stream'),
      store.append(existing, [event()], 'no_stream'),
      store.append(exact, [event()], { exact: 1 }),
      store.append(stale, [event()], { exact: 0 }),
      store.append(any, [event(), event()], 'any'),
      store.append(id('missing'), [event()], { exact: 3 }),
    ]);
    await blocker;
    const [created, refusedNew, moved, refusedStale, appendedAny, refusedMissing] = outcomes;
    expect(created).toMatchObject({ status: 'fulfilled', value: { nextRevision: 2, alreadyAppended: false } });
    expect(refusedNew).toMatchObject({ status: 'rejected', reason: { actual: 0 } });
    expect(moved).toMatchObject({ status: 'fulfilled', value: { nextRevision: 2 } });
    expect(refusedStale).toMatchObject({ status: 'rejected', reason: { actual: 1 } });
    expect(appendedAny).toMatchObject({ status: 'fulfilled', value: { nextRevision: 2 } });
    expect(refusedMissing).toMatchObject({ status: 'rejected', reason: { actual: 'no_stream' } });
    for (const o of [refusedNew, refusedStale, refusedMissing]) {
      expect((o as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
    }
    // Written by one statement: the group's appends share a transaction id, in call order.
    const positions = [created, moved, appendedAny].map((o) => (o as PromiseFulfilledResult<{ position: string }>).value.position);
    expect(new Set(positions.map((p) => p.slice(0, 20))).size).toBe(1);
    expect([...positions].sort()).toEqual(positions);
    expect((await store.readStream(fresh)).map((e) => e.revision)).toEqual([0, 1, 2]);
    expect((await store.readStream(existing)).map((e) => e.revision)).toEqual([0]);
    expect((await store.readStream(exact)).map((e) => e.revision)).toEqual([0, 1, 2]);
    expect((await store.readStream(stale)).map((e) => e.revision)).toEqual([0, 1]);
    expect((await store.readStream(any)).map((e) => e.revision)).toEqual([0, 1, 2]);

    // A retried append in a group (its event ids are stored) fails the statement: every append
    // of the group then goes alone and gets its own outcome.
    const again = store.append(id('blocker'), [event()], 'no_stream');
    const other = id('other');
    const [retry, beside] = await Promise.all([store.append(retried, retriedEvents, 'any'), store.append(other, [event()], 'no_stream')]);
    await again;
    expect(retry).toMatchObject({ alreadyAppended: true, position: first.position });
    expect(beside).toMatchObject({ nextRevision: 0, alreadyAppended: false });
    expect(await store.readStream(retried)).toHaveLength(2);
    expect(await store.readStream(other)).toHaveLength(1);
    await store.close();
  });

  it('keeps the order of appends to one stream called together', async () => {
    const store = new PostgresEventStore(db.sql, { appendsInFlight: 1 });
    const stream = `group-order-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.append(stream, [event(i)], 'any')));
    expect(results.map((r) => r.nextRevision)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await store.readStream(stream)).map((e) => (e.data as { n: number }).n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await store.close();
  });
});

describe('postgres event store ordering', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('order');
    await migrateEventStore(db.sql);
  });
  afterAll(async () => db.drop());

  it('orders by transaction id as a number, not as text (99 before 100)', async () => {
    // Rows of long-finished transactions whose ids cross a power of ten.
    for (const txid of ['100', '99', '1000', '9']) {
      await db.sql`INSERT INTO es_events (txid, event_id, stream_id, revision, type, data, metadata)
                   VALUES (${txid}::xid8, ${randomUUID()}, ${`order-${txid}`}, 0, 'Ordered', ${db.sql.json({ txid })}, '{}')`;
    }
    const store = new PostgresEventStore(db.sql);
    const read = await store.readAll(START, 10);
    expect(read.map((e) => (e.data as { txid: string }).txid)).toEqual(['9', '99', '100', '1000']);
    expect((await store.readAll(read[1]!.position, 10)).map((e) => (e.data as { txid: string }).txid)).toEqual(['100', '1000']);
    expect(await store.headPosition()).toBe(read[3]!.position);
    await store.close();
  });
});

describe('postgres event store heads', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('heads');
    await migrateEventStore(db.sql);
  });
  afterAll(async () => db.drop());

  it('reports a committed event as committed while an older open transaction keeps it from readers', async () => {
    const store = new PostgresEventStore(db.sql);
    const before = await store.headPosition();
    let release: () => void = () => {};
    let started: () => void = () => {};
    const holding = new Promise<void>((resolve) => {
      started = resolve;
    });
    // An older transaction with an id of its own, still open: it holds the visibility horizon.
    const open = db.sql.begin(async (tx) => {
      await tx`SELECT pg_current_xact_id()`;
      started();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    await holding;
    const written = await store.append(`heads-${randomUUID()}`, [{ id: randomUUID(), type: 'Held', data: {}, metadata: {} }], 'no_stream');
    expect(await store.committedPosition()).toBe(written.position);
    expect(await store.headPosition()).toBe(before);
    release();
    await open;
    // Other databases' transactions on a shared server may hold the horizon a moment longer.
    const deadline = Date.now() + 10_000;
    while ((await store.headPosition()) !== written.position && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await store.headPosition()).toBe(written.position);
    await store.close();
  });

  it('does not keep events from readers behind this process’s open read-model transactions, which cannot append', async () => {
    const store = new PostgresEventStore(db.sql);
    const before = await store.headPosition();
    let release: () => void = () => {};
    let started: (xid: string) => void = () => {};
    const holding = new Promise<string>((resolve) => {
      started = resolve;
    });
    // A projector's batch: an id of its own, listed as a read-model transaction, still open.
    const open = db.sql.begin(async (tx) => {
      const [row] = await tx<{ xid: string }[]>`SELECT pg_current_xact_id()::text AS xid`;
      readModelTransactions.begin(row?.xid as string);
      started(row?.xid as string);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    const xid = await holding;
    try {
      const written = await store.append(
        `heads-${randomUUID()}`,
        [{ id: randomUUID(), type: 'Seen', data: {}, metadata: {} }],
        'no_stream',
      );
      const deadline = Date.now() + 10_000;
      const seen = async () => (await store.readAll(before, 100)).some((e) => e.position === written.position);
      while (!(await seen()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(await seen()).toBe(true);
      // Unlisted, the same open transaction holds the next event back again.
      readModelTransactions.end(xid);
      const held = await store.append(`heads-${randomUUID()}`, [{ id: randomUUID(), type: 'Held', data: {}, metadata: {} }], 'no_stream');
      expect((await store.readAll(before, 100)).some((e) => e.position === held.position)).toBe(false);
    } finally {
      readModelTransactions.end(xid);
      release();
      await open;
      await store.close();
    }
  });
});

describe('postgres event store grouped stream reads', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('greads');
    await migrateEventStore(db.sql);
  });
  afterAll(async () => db.drop());

  it('answers each of 40 concurrent reads with its own stream and slice, in a few statements', async () => {
    let reads = 0;
    const counted = postgres(db.url, {
      max: 4,
      onnotice: () => {},
      types: { bigint: postgres.BigInt },
      debug: (_connection, query) => {
        if (/^\s*SELECT event_id[\s\S]*\bes_events\b/.test(query)) reads++;
      },
    });
    const store = new PostgresEventStore(counted, { readsInFlight: 1 });
    try {
      const streams = Array.from({ length: 10 }, (_, i) => `greads-${i}-${randomUUID()}`);
      for (const [i, stream] of streams.entries())
        await store.append(
          stream,
          Array.from({ length: i + 1 }, (_, n) => ({ id: randomUUID(), type: 'Read', data: { stream: i, n }, metadata: {} })),
          'no_stream',
        );
      reads = 0;
      // Every stream whole, from its revision 1, up to its revision 0, and a stream nobody wrote.
      const asked = streams.flatMap((stream) => [
        { stream, options: undefined },
        { stream, options: { fromRevision: 1 } },
        { stream, options: { toRevision: 0 } },
      ]);
      asked.push(...Array.from({ length: 10 }, () => ({ stream: `greads-none-${randomUUID()}`, options: undefined })));
      const answers = await Promise.all(asked.map((a) => store.readStream(a.stream, a.options)));
      for (const [k, a] of asked.entries()) {
        const i = streams.indexOf(a.stream);
        const length = i === -1 ? 0 : a.options?.fromRevision === 1 ? i : a.options?.toRevision === 0 ? 1 : i + 1;
        const first = a.options?.fromRevision ?? 0;
        expect((answers[k] ?? []).map((e) => [e.streamId, e.revision, (e.data as { n: number }).n])).toEqual(
          Array.from({ length }, (_, n) => [a.stream, first + n, first + n]),
        );
      }
      // One read goes out alone; the 39 asked meanwhile are made together by the next statement.
      expect(reads).toBe(2);
    } finally {
      await store.close();
      await counted.end();
    }
  });

  it('wakes its followers when its LISTEN connection comes back, so notices lost meanwhile are made up by a read', async () => {
    const listening = postgres(db.url, { max: 1, onnotice: () => {}, connection: { application_name: 'es-watch-test' } });
    const store = new PostgresEventStore(listening);
    let wakes = 0;
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
      return done();
    };
    try {
      const unwatch = store.watch(() => wakes++);
      expect(await until(() => wakes >= 1)).toBe(true);
      const before = wakes;
      // The connection drops (a failover, a restart): no append happens, yet the followers are woken once it is back.
      await db.sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'es-watch-test' AND query ILIKE 'listen%'`;
      expect(await until(() => wakes > before)).toBe(true);
      unwatch();
    } finally {
      await store.close();
      await listening.end();
    }
  });
});
