import type { Sql } from '../../db/db.ts';
import { migrate } from '../../db/migrate.ts';

/**
 * The event-store tables (`es_streams`, `es_events`) and their gap-safe ordering are defined by
 * the versioned migration `src/adapters/db/migrations/0001_event_store.sql`. This runs the
 * migrations, for callers that only need the store (its tests); it creates the other
 * infrastructure tables too.
 */
export async function migrateEventStore(sql: Sql): Promise<void> {
  await migrate(sql);
}
