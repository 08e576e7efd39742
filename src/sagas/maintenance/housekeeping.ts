import type { Sql } from '../../adapters/db/db.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';

export const HOUSEKEEPING_QUEUE = 'housekeeping';

/**
 * Short-lived infrastructure rows expire: stored idempotent responses after a day, sign-in sessions and
 * one-time sign-in codes when they lapse, rate-limit windows once they are over.
 */
export async function housekeeping(sql: Sql): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  // A failing sweep fails the job (retried, then dead-lettered with an alert): nothing is swallowed.
  const run = async (name: string, statement: PromiseLike<readonly unknown[]>) => {
    removed[name] = (await statement).length;
  };
  await run('idempotency', sql`DELETE FROM http_idempotency WHERE created_at < now() - interval '24 hours' RETURNING 1`);
  await run('signIns', sql`DELETE FROM user_sessions WHERE expires_at < now() RETURNING 1`);
  await run('rateLimits', sql`DELETE FROM rate_limits WHERE window_start < now() - interval '1 day' RETURNING 1`);
  await run('devIdentityCodes', sql`DELETE FROM dev_identity_codes WHERE created_at < now() - interval '1 hour' RETURNING 1`);
  return removed;
}

export async function scheduleHousekeeping(queue: JobQueue, sql: Sql): Promise<void> {
  await queue.boss.schedule(HOUSEKEEPING_QUEUE, '17 * * * *');
  await queue.work(HOUSEKEEPING_QUEUE, async () => {
    await housekeeping(sql);
  });
}
