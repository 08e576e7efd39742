import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { deadLetterOf, JobQueue } from './jobQueue.ts';

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 40_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface JobRow {
  id: string;
  state: string;
  retry_count: number;
  started_on: Date | null;
  output: { message?: string } | null;
  source_id: string | null;
}

let db: TestDatabase;
let queue: JobQueue;
const rows = (name: string) =>
  db.sql<JobRow[]>`SELECT id, state::text AS state, retry_count, started_on, output, source_id FROM pgboss.job WHERE name = ${name}`;

beforeAll(async () => {
  db = await createTestDatabase('jobs');
  queue = new JobQueue(db.url);
  await queue.start([
    { name: 'batch', retryLimit: 1, retryDelaySeconds: 1 },
    { name: 'settle', retryLimit: 1, retryDelaySeconds: 1 },
    { name: 'keyed', retryLimit: 1, retryDelaySeconds: 1 },
    { name: 'many', retryLimit: 1, retryDelaySeconds: 1 },
    { name: 'wake', retryLimit: 1, retryDelaySeconds: 1 },
    { name: 'orphaned', retryLimit: 2, retryDelaySeconds: 1 },
  ]);
});
afterAll(async () => {
  await queue.stop();
  await db.drop();
});

describe('JobQueue', () => {
  it('gives a job whose worker died mid-run (no heartbeat) to another worker within seconds, not 15 minutes', async () => {
    const id = randomUUID();
    await queue.send({ queue: 'orphaned', id, data: { n: 1 } });
    // A worker of another process claims it and dies: the job stays active, and its heartbeat stops.
    const dying = new JobQueue(db.url);
    await dying.boss.start();
    const [claimed] = await dying.boss.fetch('orphaned');
    expect(claimed?.id).toBe(id);
    await dying.boss.stop({ graceful: false });
    const ran: string[] = [];
    const started = Date.now();
    await queue.work<{ n: number }>('orphaned', async (_data, job) => {
      ran.push(job.id);
    });
    await until(async () => (await rows('orphaned')).some((r) => r.state === 'completed'), 45_000);
    expect(ran).toEqual([id]);
    expect(Date.now() - started).toBeLessThan(45_000);
  }, 60_000);

  it('settles the jobs of a batch one by one: a failing job is retried then dead-lettered, the others complete once', async () => {
    const ids = Array.from({ length: 6 }, () => randomUUID());
    const failing = ids[2] as string;
    // all queued before the worker starts, so its first fetch (batchSize 10) claims the six together
    for (const [i, id] of ids.entries()) await queue.send({ queue: 'batch', id, data: { i } });
    const attempts = new Map<string, number[]>();
    await queue.work(
      'batch',
      async (_data, job) => {
        attempts.set(job.id, [...(attempts.get(job.id) ?? []), job.retryCount]);
        if (job.id === failing) throw new Error('provider unavailable');
      },
      { batchSize: 10, concurrency: 3, workers: 1 },
    );

    await until(async () => (await rows(deadLetterOf('batch'))).length === 1);
    const jobs = new Map((await rows('batch')).map((r) => [r.id, r]));
    const others = ids.filter((id) => id !== failing);
    // one fetch claimed them: the claim time is the fetch statement's, the same for every job
    expect(new Set(others.map((id) => jobs.get(id)?.started_on?.getTime())).size).toBe(1);
    for (const id of others) {
      expect(jobs.get(id)?.state).toBe('completed');
      expect(attempts.get(id)).toEqual([0]);
    }
    expect(attempts.get(failing)).toEqual([0, 1]);
    expect(jobs.get(failing)).toMatchObject({ state: 'failed', retry_count: 1 });
    expect(jobs.get(failing)?.output?.message).toBe('provider unavailable');
    const [dead] = await rows(deadLetterOf('batch'));
    expect(dead?.source_id).toBe(failing);
  });

  it('does not run a batch again when the statement completing it fails once (a dropped connection)', async () => {
    const ids = Array.from({ length: 5 }, () => randomUUID());
    for (const [i, id] of ids.entries()) await queue.send({ queue: 'settle', id, data: { i } });
    // the first statement completing jobs of this queue fails, as on a connection lost mid-way
    const db = queue.boss.getDb() as { executeSql: (text: string, values?: unknown[]) => Promise<unknown> };
    const executeSql = db.executeSql.bind(db);
    let broken = 0;
    db.executeSql = async (text, values) => {
      if (broken === 0 && values?.[0] === 'settle' && text.includes("state = 'completed'")) {
        broken++;
        throw new Error('Connection terminated unexpectedly');
      }
      return executeSql(text, values);
    };
    const attempts = new Map<string, number[]>();
    await queue.work(
      'settle',
      async (_data, job) => {
        attempts.set(job.id, [...(attempts.get(job.id) ?? []), job.retryCount]);
      },
      { batchSize: 10, workers: 1 },
    );
    await until(async () => (await rows('settle')).every((r) => r.state === 'completed'));
    // a later retry would have shown up by now: the retry delay is 1 to 2 s
    await new Promise((r) => setTimeout(r, 3000));
    db.executeSql = executeSql;
    expect(broken).toBe(1);
    for (const id of ids) expect(attempts.get(id)).toEqual([0]);
    expect((await rows('settle')).map((r) => r.state)).toEqual(ids.map(() => 'completed'));
  });

  it('runs the jobs of a batch that share a key one after another, in the order they were sent', async () => {
    const sent = Array.from({ length: 8 }, (_, i) => ({ id: randomUUID(), key: i % 2 === 0 ? 'a' : 'b', i }));
    for (const job of sent) await queue.send({ queue: 'keyed', id: job.id, data: { key: job.key, i: job.i } });
    const running = new Map<string, number>();
    let overlaps = 0;
    const order: number[] = [];
    await queue.work<{ key: string; i: number }>(
      'keyed',
      async (data) => {
        running.set(data.key, (running.get(data.key) ?? 0) + 1);
        if ((running.get(data.key) ?? 0) > 1) overlaps++;
        await new Promise((r) => setTimeout(r, 20));
        order.push(data.i);
        running.set(data.key, (running.get(data.key) ?? 0) - 1);
      },
      { batchSize: 10, concurrency: 4, workers: 1, keyOf: (data) => data.key },
    );
    await until(() => order.length === sent.length);
    expect(overlaps).toBe(0);
    expect(order.filter((i) => i % 2 === 0)).toEqual([0, 2, 4, 6]);
    expect(order.filter((i) => i % 2 === 1)).toEqual([1, 3, 5, 7]);
  });

  it('sends many jobs at once, each id once, with the queue’s retries and dead-letter queue', async () => {
    const existing = randomUUID();
    await queue.send({ queue: 'many', id: existing, data: { n: 0 } });
    const ids = [existing, randomUUID(), randomUUID()];
    await queue.sendMany([
      ...ids.map((id, n) => ({ queue: 'many', id, data: { n } })),
      { queue: 'many', id: ids[1] as string, data: { n: 9 } },
    ]);
    const jobs = await db.sql<{ id: string; retry_limit: number; dead_letter: string }[]>`
      SELECT id, retry_limit, dead_letter FROM pgboss.job WHERE name = 'many'`;
    expect(jobs.map((j) => j.id).sort()).toEqual([...ids].sort());
    expect(jobs.every((j) => j.retry_limit === 1 && j.dead_letter === deadLetterOf('many'))).toBe(true);
  });

  it('keeps a job with a start time in the queue until then, sent alone or with others', async () => {
    const later = new Date(Date.now() + 3_600_000);
    const [alone, grouped] = [randomUUID(), randomUUID()];
    await queue.send({ queue: 'many', id: alone, data: {}, startAfter: later });
    await queue.sendMany([{ queue: 'many', id: grouped, data: {}, startAfter: later }]);
    const jobs = await db.sql<{ id: string; start_after: Date }[]>`
      SELECT id, start_after FROM pgboss.job WHERE id = ANY(${[alone, grouped]}::uuid[])`;
    expect(jobs).toHaveLength(2);
    for (const job of jobs) expect(Math.abs(job.start_after.getTime() - later.getTime())).toBeLessThan(1000);
  });

  it('wakes an idle worker when a job is sent instead of leaving it to the next poll', async () => {
    expect((await queue.boss.getQueue('wake'))?.notify).toBe(true);
    const handled: string[] = [];
    // A 300 s poll: longer than this test may run (60 s), so only the NOTIFY sent with the job can
    // make the worker fetch it.
    await queue.work('wake', async (_data, job) => void handled.push(job.id), { pollingIntervalSeconds: 300 });
    const wakeWorkers = () => queue.boss.getWipData().filter((w) => w.name === 'wake');
    // each worker's first fetch has come back empty: they are now waiting out the poll
    await until(() => wakeWorkers().length > 0 && wakeWorkers().every((w) => w.lastFetchedOn !== null));
    const polled = Math.max(...wakeWorkers().map((w) => w.lastFetchedOn as number));

    const id = randomUUID();
    await queue.send({ queue: 'wake', id, data: {} });
    await until(() => handled.includes(id));
    expect(handled).toEqual([id]);
    // fetched again well inside the poll interval, so by the notification
    expect(Math.max(...wakeWorkers().map((w) => w.lastFetchedOn as number))).toBeGreaterThan(polled);
  });
});
