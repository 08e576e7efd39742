import postgres from 'postgres';
import { startEmbeddedPostgres } from '../../src/adapters/db/embeddedPostgres.ts';
import { adminUrl } from './database.ts';

/**
 * Tests run against real PostgreSQL: the local service when one answers, otherwise an embedded
 * server started here for the run.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const probe = postgres(adminUrl(), { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await probe`select 1`;
    await probe.end();
    return async () => {};
  } catch {
    await probe.end({ timeout: 1 }).catch(() => {});
    console.log(`No PostgreSQL at ${adminUrl()}: starting embedded PostgreSQL for the tests`);
    const db = await startEmbeddedPostgres('.tmp/test-pg');
    process.env.TEST_DATABASE_URL = db.url;
    return () => db.stop();
  }
}
