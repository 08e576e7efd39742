import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { recordJobGaveUp } from '../../../commands/operations/recordFailures.ts';
import { alertPageSchema, alertSchema } from '../../../domain/operations/alertApi.ts';
import { ALERT_ALREADY_RESOLVED, ALERT_NOT_FOUND, RESOLUTION_NOTE_REQUIRED } from '../../../domain/operations/alertDecider.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

let admin: string;
let finance: string;

async function staff(role: 'admin' | 'finance') {
  const { userId } = await createStaffAccount(system.accounts, system.clock, {
    username: `alerts-${role}`,
    email: `alerts-${role}@example.com`,
    firstName: 'Al',
    lastName: 'Erts',
    password: 'Alerts-staff-2026!',
    role,
  });
  return `tm_session=${(await system.signIns.create(userId, role)).token}`;
}

/** Raises a job_failed alert and waits until the console can see it; its id is the event's. */
async function raiseAlert(queue = 'calendar-sync'): Promise<string> {
  const jobId = randomUUID();
  const { events, position } = await recordJobGaveUp(system.store, { queue, jobId, error: 'timeout', attempts: 5 }, new Date());
  expect(events).toHaveLength(1);
  expect(await waitForProjections(system.sql, ['alerts'], position ?? (await system.store.committedPosition()), 30_000)).toBe(true);
  const [row] = await system.sql<{ id: string }[]>`SELECT id FROM alerts WHERE metadata->>'jobId' = ${jobId}`;
  if (!row) throw new Error('the alert was not raised');
  return row.id;
}

const get = (url: string, cookie: string) => app.inject({ method: 'GET', url, headers: { cookie } });
const resolve = (id: string, note: unknown, cookie = admin) =>
  app.inject({ method: 'POST', url: `/api/admin/alerts/${id}/resolve`, headers: { cookie }, payload: { note } });

beforeAll(async () => {
  admin = await staff('admin');
  finance = await staff('finance');
});

describe('alerts over HTTP', () => {
  it('lists an unresolved alert for the badge and the tab; finance and signed-out callers are refused', async () => {
    const id = await raiseAlert();
    const unresolved = await get('/api/admin/alerts/unresolved', admin);
    expect(unresolved.statusCode, unresolved.body).toBe(200);
    const open = alertSchema.array().parse(unresolved.json());
    expect(open.find((a) => a.id === id)).toMatchObject({ type: 'job_failed', isResolved: false, severity: 'high' });

    const page = alertPageSchema.parse((await get('/api/admin/alerts?status=open&type=job_failed', admin)).json());
    expect(page.rows.map((a) => a.id)).toContain(id);
    expect(page.total).toBeGreaterThanOrEqual(1);

    expect((await get('/api/admin/alerts/unresolved', finance)).statusCode).toBe(403);
    expect((await get('/api/admin/alerts', finance)).statusCode).toBe(403);
    expect((await resolve(id, 'finance tries', finance)).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/admin/alerts' })).statusCode).toBe(401);
  });

  it('resolves with the note; the alert leaves the open list and shows who resolved it', async () => {
    const id = await raiseAlert();
    const res = await resolve(id, '  Restarted the calendar worker ');
    expect(res.statusCode, res.body).toBe(200);
    expect(alertSchema.parse(res.json())).toMatchObject({ id, isResolved: true, resolutionNote: 'Restarted the calendar worker' });
    expect(res.json().resolvedAt).toEqual(expect.any(String));
    const open = alertSchema.array().parse((await get('/api/admin/alerts/unresolved', admin)).json());
    expect(open.map((a) => a.id)).not.toContain(id);
    const resolved = alertPageSchema.parse((await get('/api/admin/alerts?status=resolved', admin)).json());
    expect(resolved.rows.find((a) => a.id === id)?.resolvedBy).toEqual(expect.any(String));
  });

  it('ten admins resolving one alert at once: exactly one succeeds, the others are told it is resolved', async () => {
    const id = await raiseAlert();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => resolve(id, `fixed by attempt ${i}`)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, ...Array(9).fill(409)]);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json().message).toBe(ALERT_ALREADY_RESOLVED);
    const events = await system.store.readStream(`alert-${id}`);
    expect(events.map((e) => e.type)).toEqual(['AlertResolved']);
  });

  it('refuses an empty note, an unknown alert, a NUL byte and a 1 MB note, changing nothing', async () => {
    const id = await raiseAlert();
    const empty = await resolve(id, '   ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(RESOLUTION_NOTE_REQUIRED);
    expect((await resolve(id, 'a\u0000b')).statusCode).toBe(400);
    expect((await resolve(id, 'x'.repeat(2001))).statusCode).toBe(400);
    expect((await resolve(id, 'x'.repeat(1_000_000))).statusCode).toBe(413);
    expect((await resolve(id, 42)).statusCode).toBe(400);
    const unknown = await resolve(randomUUID(), 'done');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(ALERT_NOT_FOUND);
    expect((await resolve('not-an-id', 'done')).statusCode).toBe(404);
    expect(await system.store.readStream(`alert-${id}`)).toEqual([]);
  });

  it('pages, sorts and filters on the server and refuses an unknown filter', async () => {
    await raiseAlert('mail');
    await raiseAlert('mail');
    const first = alertPageSchema.parse((await get('/api/admin/alerts?pageSize=1&page=1&sort=createdAt&order=asc', admin)).json());
    const second = alertPageSchema.parse((await get('/api/admin/alerts?pageSize=1&page=2&sort=createdAt&order=asc', admin)).json());
    expect(first.rows).toHaveLength(1);
    expect(second.rows).toHaveLength(1);
    expect(first.rows[0]?.id).not.toBe(second.rows[0]?.id);
    expect(first.total).toBe(second.total);
    expect(Date.parse(first.rows[0]?.createdAt as string)).toBeLessThanOrEqual(Date.parse(second.rows[0]?.createdAt as string));
    expect((await get('/api/admin/alerts?type=payment_failed', admin)).json().rows).toEqual([]);
    expect((await get('/api/admin/alerts?type=drop%20table', admin)).statusCode).toBe(400);
    expect((await get('/api/admin/alerts?sort=id;--', admin)).statusCode).toBe(400);
    expect((await get('/api/admin/alerts?pageSize=1000', admin)).statusCode).toBe(400);
  });
});
