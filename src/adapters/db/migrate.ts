import { migrateCheckpoints } from '../../projections/runner/checkpoints.ts';
import { migrateEventStore } from '../eventstore/postgres/schema.ts';
import { DevIdentityProvider } from '../identity/devIdentity.ts';
import { OutboxMailer } from '../mail/outboxMailer.ts';
import { PersonalDataVault } from '../personalData/personalDataVault.ts';
import { RateLimiter } from '../rateLimit/rateLimiter.ts';
import { SessionStore } from '../sessions/sessionStore.ts';
import type { Sql } from './db.ts';

/** Infrastructure tables; read models are created by their projectors. Safe to run concurrently. */
export async function migrate(sql: Sql, options: { eventStore: boolean }): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext('topmark:migrate'))`;
    const scoped = tx as unknown as Sql;
    if (options.eventStore) await migrateEventStore(scoped);
    await migrateCheckpoints(scoped);
    await PersonalDataVault.migrate(scoped);
    await OutboxMailer.migrate(scoped);
    await SessionStore.migrate(scoped);
    await RateLimiter.migrate(scoped);
    await DevIdentityProvider.migrate(scoped);
    await tx.unsafe(`
      CREATE TABLE IF NOT EXISTS http_idempotency (
        scope        text NOT NULL,
        key          text NOT NULL,
        request_hash text NOT NULL,
        status_code  int,
        body         jsonb,
        created_at   timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (scope, key)
      );
      -- whose data a stored response holds, so deleting the account deletes it
      ALTER TABLE http_idempotency ADD COLUMN IF NOT EXISTS subject text;
      CREATE INDEX IF NOT EXISTS http_idempotency_subject ON http_idempotency (subject);`);
  });
}
