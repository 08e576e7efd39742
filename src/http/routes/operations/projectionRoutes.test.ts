import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { appendFacts } from '../../../commands/kit/handleCommand.ts';
import { recordJobGaveUp } from '../../../commands/operations/recordFailures.ts';
import { alertPageSchema } from '../../../domain/operations/alertApi.ts';
import {
  parkedEventListSchema,
  parkedOutcomeSchema,
  projectionListSchema,
  rebuildAcceptedSchema,
} from '../../../domain/operations/projectionApi.ts';
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
    username: `proj-${role}`,
    email: `proj-${role}@example.com`,
    firstName: 'Pro',
    lastName: 'Jection',
    password: 'Projections-staff-2026!',
    role,
  });
  return `tm_session=${(await system.signIns.create(userId, role)).token}`;
}

const get = (url: string, cookie = admin) => app.inject({ method: 'GET', url, headers: { cookie } });
const post = (url: string, payload: Record<string, unknown> = {}, cookie = admin) =>
  app.inject({ method: 'POST', url, headers: { cookie }, payload });

async function projection(name: string) {
  const res = await get('/api/admin/projections');
  expect(res.statusCode, res.body).toBe(200);
  const found = projectionListSchema.parse(res.json()).find((p) => p.name === name);
  if (!found) throw new Error(`no projection ${name}`);
  return found;
}

/** Polls the list until the projection's rebuild has ended; returns the progress seen on the way. */
async function untilRebuilt(name: string, timeoutMs = 60_000) {
  const seen: { phase: string; done: number }[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const p = await projection(name);
    if (p.rebuild) seen.push({ phase: p.rebuild.phase, done: p.rebuild.done });
    if (p.rebuild && (p.rebuild.status === 'completed' || p.rebuild.status === 'failed')) return { projection: p, seen };
    if (Date.now() > deadline) throw new Error(`rebuild of ${name} did not end: ${JSON.stringify(p)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Job failures written straight to the log, a thousand per append: the alerts projection's raw material. */
async function manyJobFailures(count: number): Promise<void> {
  for (let i = 0; i < count; i += 1000) {
    const n = Math.min(1000, count - i);
    const events = Array.from({ length: n }, (_, k) => ({
      type: 'JobGaveUp',
      data: { queue: 'bulk', jobId: randomUUID(), error: `bulk failure ${i + k}`, attempts: 3, gaveUpAt: new Date().toISOString() },
    }));
    await appendFacts(
      system.store,
      `jobFailure-bulk-${randomUUID()}`,
      events,
      commandContext({ actorRole: 'system', now: system.clock.now() }),
    );
  }
}

const alertRows = () => system.sql`SELECT * FROM alerts ORDER BY id`.then((rows) => rows.map((r) => ({ ...r })));

beforeAll(async () => {
  admin = await staff('admin');
  finance = await staff('finance');
});

describe('projections over HTTP', () => {
  it('lists every projection and reactor with position, lag, rows and status; finance is refused', async () => {
    const appendedFrom = Date.now();
    const { position } = await recordJobGaveUp(
      system.store,
      { queue: 'calendar-sync', jobId: randomUUID(), error: 'x', attempts: 1 },
      new Date(),
    );
    await waitForProjections(system.sql, ['alerts'], position, 10_000);
    const alerts = await projection('alerts');
    expect(alerts).toMatchObject({ kind: 'projector', rebuildable: true, status: 'running', lagEvents: 0 });
    expect(alerts.rows).toBeGreaterThanOrEqual(1);
    expect(alerts.position).not.toBe('');
    // The position in people's terms: when the last event it applied was recorded.
    expect(Date.parse(alerts.lastEventAt ?? '')).toBeGreaterThanOrEqual(appendedFrom - 1000);
    expect(Date.parse(alerts.lastEventAt ?? '')).toBeLessThanOrEqual(Date.now() + 1000);
    const list = projectionListSchema.parse((await get('/api/admin/projections')).json());
    expect(list.some((p) => p.kind === 'reactor' && !p.rebuildable)).toBe(true);
    expect((await get('/api/admin/projections', finance)).statusCode).toBe(403);
    expect((await post('/api/admin/projections/alerts/rebuild', {}, finance)).statusCode).toBe(403);
    expect((await post('/api/admin/projections/rebuild-all', {}, finance)).statusCode).toBe(403);
  });

  it('answers 404 for unknown projections and 409 for a reactor', async () => {
    expect((await post('/api/admin/projections/nope/rebuild')).statusCode).toBe(404);
    expect((await get('/api/admin/projections/parked?projection=nope')).statusCode).toBe(404);
    expect((await post('/api/admin/projections/nope/parked/x/retry', { reason: 'fixed' })).statusCode).toBe(404);
    const reactor = projectionListSchema.parse((await get('/api/admin/projections')).json()).find((p) => p.kind === 'reactor');
    const res = await post(`/api/admin/projections/${reactor?.name}/rebuild`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/reactor/);
  });

  it('accepts one of ten identical rebuild requests at once (409 for the rest), then runs it in the background', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('/api/admin/projections/alerts/rebuild')));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([202, ...Array(9).fill(409)]);
    const accepted = rebuildAcceptedSchema.parse(answers.find((a) => a.statusCode === 202)?.json());
    expect(accepted.projections).toEqual(['alerts']);
    expect(answers.find((a) => a.statusCode === 409)?.json().message).toMatch(/already under way/);
    const { projection: done } = await untilRebuilt('alerts');
    expect(done.rebuild).toMatchObject({ rebuildId: accepted.rebuildId, status: 'completed', phase: 'completed' });
    expect(done.status).toBe('running');
    // Once it ended another may start.
    const again = await post('/api/admin/projections/alerts/rebuild');
    expect(again.statusCode).toBe(202);
    await untilRebuilt('alerts');
  });

  it('rebuilds while writers append: the API keeps answering from the old tables, and the rows equal a clean rebuild', async () => {
    await manyJobFailures(40_000);
    await waitForProjections(system.sql, ['alerts'], await system.store.committedPosition(), 60_000);
    const before = alertPageSchema.parse((await get('/api/admin/alerts?status=all&pageSize=1')).json()).total;
    expect(before).toBeGreaterThanOrEqual(40_000);

    const res = await post('/api/admin/projections/alerts/rebuild');
    expect(res.statusCode, res.body).toBe(202);
    let writing = true;
    const written: string[] = [];
    const writer = (async () => {
      while (writing) {
        const jobId = randomUUID();
        await recordJobGaveUp(system.store, { queue: 'calendar-sync', jobId, error: 'during the rebuild', attempts: 5 }, new Date());
        written.push(jobId);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    // While it replays, the site reads the old tables: every alert is still there.
    const readsDuring: number[] = [];
    const seen: { phase: string; done: number }[] = [];
    for (;;) {
      const p = await projection('alerts');
      if (p.rebuild) seen.push({ phase: p.rebuild.phase, done: p.rebuild.done });
      if (p.rebuild?.status === 'completed' || p.rebuild?.status === 'failed') break;
      if (p.status === 'rebuilding') {
        const page = await get('/api/admin/alerts?status=all&pageSize=1');
        expect(page.statusCode).toBe(200);
        readsDuring.push(alertPageSchema.parse(page.json()).total);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    writing = false;
    await writer;
    expect(readsDuring.length).toBeGreaterThan(0);
    for (const total of readsDuring) expect(total).toBeGreaterThanOrEqual(before);
    expect(seen.some((s) => s.phase === 'replaying' && s.done > 0)).toBe(true);
    expect(written.length).toBeGreaterThan(0);

    await waitForProjections(system.sql, ['alerts'], await system.store.committedPosition(), 30_000);
    const afterApi = await alertRows();
    expect(afterApi.length).toBe(before + written.length);
    await system.projections.rebuild('alerts');
    expect(await alertRows()).toEqual(afterApi);
  }, 180_000);

  it('retries and skips a parked event with a reason, each recorded as an event', async () => {
    const park = async () => {
      const jobId = randomUUID();
      const { position } = await recordJobGaveUp(system.store, { queue: 'mail', jobId, error: 'x', attempts: 2 }, new Date());
      await waitForProjections(system.sql, ['alerts'], position, 10_000);
      const [event] = await system.store.readStream(`jobFailure-${jobId}`);
      if (!event) throw new Error('event not stored');
      // As if the projector had failed on it: the alert is missing and the event parked.
      await system.sql`DELETE FROM alerts WHERE id = ${event.id}`;
      await system.sql`INSERT INTO parked_events (projector, event_id, position, stream_id, revision, type, status, error)
                       VALUES ('alerts', ${event.id}, ${event.position}, ${event.streamId}, ${event.revision}, 'JobGaveUp', 'failed', 'boom')`;
      return event.id;
    };
    const retried = await park();
    const skipped = await park();
    const parked = parkedEventListSchema.parse((await get('/api/admin/projections/parked')).json());
    expect(parked.filter((p) => [retried, skipped].includes(p.eventId)).map((p) => p.status)).toEqual(['failed', 'failed']);

    expect((await post(`/api/admin/projections/alerts/parked/${retried}/retry`, { reason: '  ' })).statusCode).toBe(400);
    expect((await post(`/api/admin/projections/alerts/parked/${retried}/retry`, { reason: 'x'.repeat(501) })).statusCode).toBe(400);
    expect((await post(`/api/admin/projections/alerts/parked/${retried}/retry`, { reason: 'fixed' }, finance)).statusCode).toBe(403);
    const retry = await post(`/api/admin/projections/alerts/parked/${retried}/retry`, { reason: 'the bug is fixed' });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(parkedOutcomeSchema.parse(retry.json())).toMatchObject({ applied: [retried], stillParked: 0, error: null });
    expect(await system.sql`SELECT 1 FROM alerts WHERE id = ${retried}`).toHaveLength(1);
    expect((await post(`/api/admin/projections/alerts/parked/${retried}/retry`, { reason: 'again' })).statusCode).toBe(404);

    const skip = await post(`/api/admin/projections/alerts/parked/${skipped}/skip`, { reason: 'test data' });
    expect(skip.statusCode, skip.body).toBe(200);
    expect(await system.sql`SELECT 1 FROM alerts WHERE id = ${skipped}`).toHaveLength(0);
    expect((await post(`/api/admin/projections/alerts/parked/${skipped}/skip`, { reason: 'again' })).statusCode).toBe(404);

    const recorded = await system.sql<{ type: string; data: { eventId: string; reason: string }; metadata: { actorRole: string } }[]>`
      SELECT type, data, metadata FROM es_events WHERE type IN ('ParkedEventRetried', 'ParkedEventSkipped') ORDER BY txid, seq`;
    expect(recorded.map((r) => [r.type, r.data.eventId, r.data.reason, r.metadata.actorRole])).toEqual([
      ['ParkedEventRetried', retried, 'the bug is fixed', 'admin'],
      ['ParkedEventSkipped', skipped, 'test data', 'admin'],
    ]);
    const left = parkedEventListSchema.parse((await get('/api/admin/projections/parked?projection=alerts')).json());
    expect(left.map((p) => p.eventId)).not.toContain(retried);
    expect(left.map((p) => p.eventId)).not.toContain(skipped);
  });
});
