import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/database.ts';
import { eventStoreContract } from '../eventStore.contract.ts';
import { START } from '../eventStore.ts';
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
