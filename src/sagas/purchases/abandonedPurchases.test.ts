import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { connect } from '../../adapters/db/db.ts';
import { purchaseHandlers } from '../../commands/purchases/purchaseHandlers.ts';
import { ABANDONED_PURCHASE_SWEEP_CRON, ABANDONED_PURCHASE_SWEEP_QUEUE, scheduleAbandonSweeps } from './abandonedPurchases.ts';

async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem('all', {}, { retry: { retryLimit: 1, retryDelaySeconds: 1 } });
});
afterAll(async () => system?.dispose());

describe('the abandoned-purchase sweep', () => {
  it('is a pg-boss schedule, every minute, once the worker has started', async () => {
    const schedules = await system.jobs.schedules();
    expect(schedules.filter((s) => s.queue === ABANDONED_PURCHASE_SWEEP_QUEUE)).toEqual([
      expect.objectContaining({ cron: ABANDONED_PURCHASE_SWEEP_CRON, timezone: 'UTC' }),
    ]);
    expect(ABANDONED_PURCHASE_SWEEP_CRON).toBe('* * * * *');
  });

  it('fails its job when the sweep throws, and raises an alert once the retries are spent', async () => {
    // The worker's own sweep stops; this one reads through a connection that is closed.
    await system.jobs.boss.offWork(ABANDONED_PURCHASE_SWEEP_QUEUE);
    const closed = connect(system.databaseUrl, { max: 1 });
    await closed.end();
    await scheduleAbandonSweeps(
      system.jobs,
      { sql: closed, purchases: purchaseHandlers(system.store), payments: system.payments },
      system.clock,
    );

    const id = randomUUID();
    await system.jobs.send({ queue: ABANDONED_PURCHASE_SWEEP_QUEUE, id, data: {} });
    const job = async () =>
      (
        await system.sql<{ state: string; retry_count: number; output: { message?: string } | null }[]>`
          SELECT state::text AS state, retry_count, output FROM pgboss.job WHERE name = ${ABANDONED_PURCHASE_SWEEP_QUEUE} AND id = ${id}`
      )[0];
    await until(async () => (await job())?.state === 'failed');
    expect(await job()).toMatchObject({ state: 'failed', retry_count: 1 });
    expect((await job())?.output?.message).toBeTruthy();

    await until(
      async () =>
        (await system.sql`SELECT 1 FROM alerts WHERE title = ${`Background job ${ABANDONED_PURCHASE_SWEEP_QUEUE} gave up`}`).length > 0,
    );
  });
});
