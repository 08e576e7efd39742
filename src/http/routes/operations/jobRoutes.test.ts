import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../../../tests/support/system.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { failedJobsPageSchema, jobsOverviewSchema } from '../../../domain/operations/jobApi.ts';
import { buildApp } from '../../app.ts';

// An API process: no workers, so the test settles the jobs itself through pg-boss.
let system: TestSystem;
let app: FastifyInstance;
let admin: string;
let finance: string;
let queue: string;

async function staff(role: 'admin' | 'finance') {
  const { userId } = await createStaffAccount(system.accounts, system.clock, {
    username: `jobs-${role}`,
    email: `jobs-${role}@example.com`,
    firstName: 'Jo',
    lastName: 'Bs',
    password: 'Jobs-staff-2026!',
    role,
  });
  return `tm_session=${(await system.signIns.create(userId, role)).token}`;
}

beforeAll(async () => {
  system = await createTestSystem('api', {}, { retry: { retryLimit: 0, retryDelaySeconds: 1 } });
  app = await buildApp(system, { logger: false });
  admin = await staff('admin');
  finance = await staff('finance');
  queue = system.jobs.queueNames[0] as string;
});
afterAll(async () => {
  await app.close();
  await system.dispose();
});

const get = (url: string, cookie = admin) => app.inject({ method: 'GET', url, headers: { cookie } });
const post = (url: string, cookie = admin) => app.inject({ method: 'POST', url, headers: { cookie }, payload: {} });

/** A job of a real queue whose one attempt fails (no retries left): failed and dead-lettered. */
async function failedJob(): Promise<string> {
  const id = randomUUID();
  await system.jobs.send({ queue, id, data: { messageId: 'msg-1', email: 'someone@example.com', text: 'a private mail body' } });
  const [job] = await system.jobs.boss.fetch(queue, { batchSize: 1 });
  expect(job?.id).toBe(id);
  await system.jobs.boss.fail(queue, id, { message: 'smtp unreachable' });
  return id;
}

const stateOf = async (name: string, id: string) => (await system.jobs.boss.findJobs(name, { id }))[0]?.state;

describe('jobs over HTTP', () => {
  it('counts every queue by state with its dead-letter queue, and shows the schedules with their next run', async () => {
    await failedJob();
    await system.jobs.boss.schedule(queue, '*/5 * * * *');
    const res = await get('/api/admin/jobs');
    expect(res.statusCode, res.body).toBe(200);
    const overview = jobsOverviewSchema.parse(res.json());
    expect(overview.queues.map((q) => q.name)).toEqual(system.jobs.queueNames);
    const counted = overview.queues.find((q) => q.name === queue);
    expect(counted?.counts.failed).toBe(1);
    expect(counted?.deadLetter).toMatchObject({ name: `${queue}__dead`, counts: { created: 1 } });
    const schedule = overview.schedules.find((s) => s.queue === queue);
    expect(schedule?.cron).toBe('*/5 * * * *');
    const next = new Date(schedule?.nextRunAt ?? 0).getTime();
    expect(next).toBeGreaterThan(Date.now() - 1000);
    expect(next).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
    expect((await get('/api/admin/jobs', finance)).statusCode).toBe(403);
  });

  it('lists failed jobs with their errors and ids only, then retries and cancels one', async () => {
    const id = await failedJob();
    const res = await get(`/api/admin/jobs/failed?queue=${queue}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = failedJobsPageSchema.parse(res.json());
    const job = page.jobs.find((j) => j.id === id);
    expect(job).toMatchObject({ queue, state: 'failed', error: 'smtp unreachable', refs: { messageId: 'msg-1' } });
    expect(job?.deadLetterId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).not.toContain('someone@example.com');
    expect(res.body).not.toContain('private mail body');

    const retried = await post(`/api/admin/jobs/${queue}/${id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toEqual({ queue, id, status: 'retried' });
    expect(await stateOf(queue, id)).toBe('retry');
    expect((await post(`/api/admin/jobs/${queue}/${id}/retry`)).statusCode).toBe(409);

    const cancelled = await post(`/api/admin/jobs/${queue}/${id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await stateOf(queue, id)).toBe('cancelled');
    expect((await post(`/api/admin/jobs/${queue}/${id}/cancel`)).statusCode).toBe(409);
    const after = failedJobsPageSchema.parse((await get(`/api/admin/jobs/failed?queue=${queue}`)).json());
    expect(after.jobs.map((j) => j.id)).not.toContain(id);
  });

  it('retries a dead-lettered job by running its original again', async () => {
    const id = await failedJob();
    const page = failedJobsPageSchema.parse((await get('/api/admin/jobs/failed')).json());
    const deadId = page.jobs.find((j) => j.id === id)?.deadLetterId;
    const res = await post(`/api/admin/jobs/${queue}__dead/${deadId}/retry`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await stateOf(queue, id)).toBe('retry');
    // Out of the way of the next test's fetch.
    expect((await post(`/api/admin/jobs/${queue}/${id}/cancel`)).statusCode).toBe(200);
  });

  it('answers 404 for unknown queues and jobs, and refuses finance', async () => {
    const id = await failedJob();
    expect((await post(`/api/admin/jobs/no_such_queue/${id}/retry`)).statusCode).toBe(404);
    expect((await post(`/api/admin/jobs/${queue}/not-a-uuid/retry`)).statusCode).toBe(404);
    expect((await post(`/api/admin/jobs/${queue}/${randomUUID()}/cancel`)).statusCode).toBe(404);
    expect((await get('/api/admin/jobs/failed?queue=no_such_queue')).statusCode).toBe(404);
    expect((await get('/api/admin/jobs/failed?page=0')).statusCode).toBe(400);
    expect((await post(`/api/admin/jobs/${queue}/${id}/retry`, finance)).statusCode).toBe(403);
    expect((await get('/api/admin/jobs/failed', finance)).statusCode).toBe(403);
    expect(await stateOf(queue, id)).toBe('failed');
  });
});
