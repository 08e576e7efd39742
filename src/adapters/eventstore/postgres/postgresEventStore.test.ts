import { createTestDatabase } from '../../../../tests/support/database.ts';
import { eventStoreContract } from '../eventStore.contract.ts';
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
