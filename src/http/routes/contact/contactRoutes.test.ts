import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

const valid = { name: 'Ann Lee', email: 'ann@example.com', phone: '', subject: 'Pricing', message: 'Do you tutor calculus?' };
// The mail saga appends its own events in the background; count only what the endpoint appends.
const eventCount = async () =>
  Number((await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events WHERE type = 'ContactMessageReceived'`)[0]?.n);
const post = (payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/contact', payload: payload as object, headers });

describe('POST /api/contact', () => {
  it('records the message and answers once the audit log shows it (read your writes)', async () => {
    const res = await post(valid);
    expect(res.statusCode).toBe(201);
    const { id } = res.json() as { id: string };
    // The mail saga may already have added its own entry (SupportNotifiedOfContact): look at the message's.
    const audit = await system.sql`SELECT action, new_values FROM audit_logs WHERE entity_id = ${id} AND action = 'ContactMessageReceived'`;
    expect(audit.map((a) => a.action)).toEqual(['ContactMessageReceived']);
    expect(JSON.stringify(audit[0]?.new_values)).not.toContain('ann@example.com');
    const [message] = await system.sql`SELECT name, email, phone FROM contact_messages WHERE id = ${id}`;
    expect(message).toEqual({ name: 'Ann Lee', email: 'ann@example.com', phone: null });
  });

  it.each([
    ['a missing name', { ...valid, name: undefined }, 'name'],
    ['an empty message', { ...valid, message: '   ' }, 'message'],
    ['an invalid e-mail', { ...valid, email: 'not-an-email' }, 'email'],
    ['a wrong type', { ...valid, subject: 42 }, 'subject'],
    ['an oversized message', { ...valid, message: 'x'.repeat(5001) }, 'message'],
    ['an unexpected field', { ...valid, admin: true }, ''],
  ])('refuses %s with a 400 naming the field, and records nothing', async (_label, payload, field) => {
    const before = await eventCount();
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    const body = res.json() as { message: string; field?: string };
    expect(body.message).toBeTruthy();
    if (field) expect(body.field).toBe(field);
    else expect(body.message).toMatch(/admin|Unrecognized/);
    expect(await eventCount()).toBe(before);
  });

  it('refuses malformed JSON and a non-JSON body with a 4xx, never a 500', async () => {
    const broken = await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ message: 'Request body is not valid JSON' });
    const text = await app.inject({ method: 'POST', url: '/api/contact', payload: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(400);
    expect((text.json() as { message: string }).message).toBeTruthy();
  });

  it('answers a repeated Idempotency-Key with the first response and appends nothing twice', async () => {
    const before = await eventCount();
    const headers = { 'idempotency-key': 'contact-key-0001' };
    const results = await Promise.all([post(valid, headers), post(valid, headers), post(valid, headers)]);
    const again = await post(valid, headers);
    const ids = new Set([...results, again].filter((r) => r.statusCode === 201).map((r) => (r.json() as { id: string }).id));
    expect(again.statusCode).toBe(201);
    expect(ids.size).toBe(1);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await eventCount()).toBe(before + 1);
    const reused = await post({ ...valid, subject: 'Different' }, headers);
    expect(reused.statusCode).toBe(422);
  });
});

describe('HTTP basics', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found' });
  });

  it('reports health of the database, the event store, the projections and the queues (to an admin)', async () => {
    const staff = await createStaffAccount(system.accounts, system.clock, {
      username: 'contact-health-admin',
      email: 'contact-health-admin@example.com',
      firstName: 'Ada',
      lastName: 'Ops',
      password: 'Contact-health-2026!',
      role: 'admin',
    });
    const cookie = `tm_session=${(await system.signIns.create(staff.userId, 'admin')).token}`;
    const res = await app.inject({ method: 'GET', url: '/api/health', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { status: string; database: { ok: boolean }; projections: { name: string }[]; queues: { name: string }[] };
    expect(body.status).toBe('ok');
    expect(body.database.ok).toBe(true);
    expect(body.projections.map((p) => p.name)).toEqual(
      expect.arrayContaining(['audit_log', 'alerts', 'contact_messages', 'contact_mail_saga']),
    );
    expect(body.queues.map((q) => q.name)).toContain('contact-mail');
  });

  it('publishes the OpenAPI document', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys((res.json() as { paths: object }).paths)).toContain('/api/contact');
  });
});
