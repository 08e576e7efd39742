import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import type { EventMetadata } from '../../../adapters/eventstore/eventStore.ts';
import { registerAccount } from '../../../commands/accounts/registerUser.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import {
  AUDIT_CURSOR_INVALID,
  AUDIT_RANGE_INVALID,
  type AuditLogEntry,
  auditLogPageSchema,
  recentActivitySchema,
} from '../../../domain/operations/auditLogApi.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

let admin: string;
let adminId: string;
let finance: string;

async function staff(role: 'admin' | 'finance') {
  const { userId } = await createStaffAccount(system.accounts, system.clock, {
    username: `audit-${role}`,
    email: `audit-${role}@example.com`,
    firstName: 'Audrey',
    lastName: role === 'admin' ? 'Admin' : 'Finance',
    password: 'Audit-staff-2026!',
    role,
  });
  return { userId, cookie: `tm_session=${(await system.signIns.create(userId, role)).token}` };
}

beforeAll(async () => {
  ({ userId: adminId, cookie: admin } = await staff('admin'));
  ({ cookie: finance } = await staff('finance'));
});

/** Time zone changes of one user, recorded by `actor` and projected into the audit log. */
async function zones(userId: string, timezones: string[], metadata: EventMetadata = {}) {
  const { position } = await system.store.append(
    `user-${userId}`,
    timezones.map((timezone) => ({
      id: randomUUID(),
      type: 'TimezoneChanged',
      data: { userId, timezone, at: new Date().toISOString() },
      metadata: { commandId: randomUUID(), ...metadata },
    })),
    'any',
  );
  expect(await waitForProjections(system.sql, ['audit_log'], position, 30_000)).toBe(true);
}

const get = (url: string, cookie = admin) => app.inject({ method: 'GET', url, headers: { cookie } });
async function page(query: string): Promise<{ rows: AuditLogEntry[]; nextCursor: string | null }> {
  const res = await get(`/api/admin/audit-log?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return auditLogPageSchema.parse(res.json());
}

describe('the audit log over HTTP', () => {
  it('filters by entity, actor, type and time, combined; rows say who, what, which entity and what changed', async () => {
    const one = randomUUID();
    const two = randomUUID();
    const start = new Date(Date.now() - 1000).toISOString();
    await zones(one, ['Europe/Paris', 'Europe/Rome', 'Europe/Oslo'], { actorId: adminId, actorRole: 'admin', ip: '203.0.113.5' });
    await zones(two, ['Asia/Tokyo', 'Asia/Seoul'], { actorId: two, actorRole: 'student', userAgent: 'Firefox' });

    const first = await page(`entityId=${one}`);
    expect(first.nextCursor).toBeNull();
    expect(first.rows.map((r) => r.changes.find((c) => c.field === 'timezone'))).toEqual([
      { field: 'timezone', before: 'Europe/Rome', after: 'Europe/Oslo' },
      { field: 'timezone', before: 'Europe/Paris', after: 'Europe/Rome' },
      { field: 'timezone', before: null, after: 'Europe/Paris' },
    ]);
    expect(first.rows[0]).toMatchObject({
      actor: { id: adminId, role: 'admin', name: 'Audrey Admin' },
      action: 'TimezoneChanged',
      description: 'Time zone set to Europe/Oslo',
      entity: { type: 'user', id: one, kind: 'user' },
      ip: '203.0.113.5',
      userAgent: null,
    });
    const positions = first.rows.map((r) => r.position);
    expect(positions).toEqual([...positions].sort().reverse());

    const byActor = await page(`actorId=${two}`);
    expect(byActor.rows.map((r) => [r.entity.id, r.actor.role, r.userAgent])).toEqual([
      [two, 'student', 'Firefox'],
      [two, 'student', 'Firefox'],
    ]);
    expect((await page(`actorId=${two}&type=TimezoneChanged`)).rows).toHaveLength(2);
    expect((await page(`actorId=${two}&type=NameChanged`)).rows).toEqual([]);
    expect((await page(`entityId=${one}&actorId=${two}`)).rows).toEqual([]);
    const soon = new Date(Date.now() + 60_000).toISOString();
    expect((await page(`entityId=${one}&from=${start}&to=${soon}`)).rows).toHaveLength(3);
    expect((await page(`entityId=${one}&from=${soon}`)).rows).toEqual([]);
    expect((await page(`entityId=${one}&to=${start}`)).rows).toEqual([]);
    // Empty filters (a cleared form field) filter nothing.
    expect((await page(`entityId=${one}&actorId=&type=&from=&to=`)).rows).toHaveLength(3);
  });

  it('pages through more than one page by cursor with no duplicates and no gaps while new events arrive', async () => {
    const user = randomUUID();
    const initial = Array.from({ length: 25 }, (_, i) => `Zone/N${i}`);
    await zones(user, initial);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const next: { rows: AuditLogEntry[]; nextCursor: string | null } = await page(
        `entityId=${user}&limit=10${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...next.rows.map((r) => String(r.changes.find((c) => c.field === 'timezone')?.after)));
      cursor = next.nextCursor;
      pages += 1;
      // Someone acts on the entity between two pages: it lands above the first page.
      if (pages === 1) await zones(user, ['Zone/Late1', 'Zone/Late2']);
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...initial].reverse());
    expect((await page(`entityId=${user}&limit=2`)).rows.map((r) => r.changes.find((c) => c.field === 'timezone')?.after)).toEqual([
      'Zone/Late2',
      'Zone/Late1',
    ]);
  });

  it('refuses garbled or forged cursors, bad dates and limits with a 400 that says why', async () => {
    const forged = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
    for (const cursor of [
      'not a cursor!',
      forged('p:123'),
      forged(`p:${'9'.repeat(39)}'`),
      forged(`x:${'0'.repeat(40)}`),
      'A'.repeat(300),
    ]) {
      const res = await get(`/api/admin/audit-log?cursor=${encodeURIComponent(cursor)}`);
      expect(res.statusCode, cursor).toBe(400);
      expect(res.json().message).toBe(AUDIT_CURSOR_INVALID);
    }
    const late = '2026-02-01T00:00:00Z';
    const early = '2026-01-01T00:00:00Z';
    for (const url of [`/api/admin/audit-log?from=${late}&to=${early}`, `/api/admin/audit-log.csv?from=${late}&to=${early}`]) {
      const res = await get(url);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: AUDIT_RANGE_INVALID, field: 'from' });
    }
    const notADate = await get('/api/admin/audit-log?from=yesterday');
    expect(notADate.statusCode).toBe(400);
    expect(notADate.json().message).toMatch(/from must be an ISO date/);
    for (const limit of ['0', '201', 'many']) expect((await get(`/api/admin/audit-log?limit=${limit}`)).statusCode, limit).toBe(400);
    expect((await get(`/api/admin/audit-log?entityId=${'x'.repeat(201)}`)).statusCode).toBe(400);
    expect((await get('/api/admin/audit-log?type=1%3BDROP')).statusCode).toBe(400);
    expect((await get('/api/admin/recent-activity?limit=51')).statusCode).toBe(400);
  });

  it('is for admins only: finance staff get 403, anonymous callers 401', async () => {
    for (const url of ['/api/admin/audit-log', '/api/admin/audit-log.csv', '/api/admin/recent-activity']) {
      expect((await get(url, finance)).statusCode, url).toBe(403);
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });

  it("masks a deleted account's trail: no request details, no name, no personal values", async () => {
    const { userId, position } = await registerAccount(
      system.accounts,
      {
        username: 'audit-gone',
        email: 'audit-gone@example.com',
        firstName: 'Gwendolyn',
        lastName: 'Erased',
        password: 'secret123',
        role: 'student',
        phone: null,
        authProvider: 'local',
        googleId: null,
        emailVerified: true,
        termsAccepted: { version: '1.0', ip: '198.51.100.77' },
        student: { grade: 'Grade 10', isUniversityStudent: false },
      },
      commandContext({ ip: '198.51.100.77', userAgent: 'GoneBrowser/1.0', now: system.clock.now() }),
    );
    await waitForProjections(system.sql, ['users', 'audit_log'], position, 30_000);
    await zones(userId, ['America/Halifax'], { actorId: userId, actorRole: 'student', ip: '198.51.100.77', userAgent: 'GoneBrowser/1.0' });
    const before = await page(`entityId=${userId}`);
    expect(before.rows.some((r) => r.ip === '198.51.100.77')).toBe(true);
    expect(before.rows.find((r) => r.action === 'TimezoneChanged')?.actor.name).toBe('Gwendolyn Erased');

    const cookie = `tm_session=${(await system.signIns.create(userId, 'student')).token}`;
    const deleted = await app.inject({ method: 'DELETE', url: '/api/user/delete', headers: { cookie } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await waitForProjections(system.sql, ['audit_log'], await system.store.committedPosition(), 30_000)).toBe(true);

    const after = await page(`entityId=${userId}`);
    expect(after.rows.map((r) => r.action)).toContain('AccountDeleted');
    expect(after.rows.length).toBeGreaterThan(before.rows.length);
    for (const row of after.rows) expect([row.ip, row.userAgent, row.actor.name]).toEqual([null, null, undefined]);
    const text = JSON.stringify(after.rows);
    for (const personal of ['Gwendolyn', 'audit-gone@example.com', '198.51.100.77', 'GoneBrowser']) expect(text).not.toContain(personal);
    expect(text).toContain('[personal data]');
    const csv = (await get(`/api/admin/audit-log.csv?entityId=${userId}`)).body;
    for (const personal of ['Gwendolyn', 'audit-gone@example.com', '198.51.100.77', 'GoneBrowser']) expect(csv).not.toContain(personal);
  });

  it('exports the filtered rows as CSV named by date, with formula-like cells neutralised', async () => {
    const user = randomUUID();
    const attacker = '=HYPERLINK("http://evil.example/","x")';
    await zones(user, ['+1-2', 'Europe/Lisbon'], { actorId: attacker, actorRole: 'student' });
    const res = await get(`/api/admin/audit-log.csv?entityId=${user}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      '"at","position","actor_id","actor_role","actor_name","action","event","description","entity_type","entity_id","entity_kind","entity_name","changes","ip","user_agent"',
    );
    expect(lines).toHaveLength(3);
    // Ids and, beside them, the words the console shows: an actor with no account reads Deleted user, as does the entity.
    expect(lines[1]).toContain(
      `"'=HYPERLINK(""http://evil.example/"",""x"")","student","Deleted user","TimezoneChanged","Timezone changed","Time zone set to Europe/Lisbon","user","${user}","user","Deleted user"`,
    );
    expect(lines[1]).toContain('timezone: +1-2 → Europe/Lisbon');
    expect(lines[2]).toContain('"Time zone set to +1-2"');
    // A known person's rows carry their name as actor and entity, the type in words.
    await zones(adminId, ['Europe/Oslo'], { actorId: adminId, actorRole: 'admin' });
    const own = (await get(`/api/admin/audit-log.csv?entityId=${adminId}&type=TimezoneChanged`)).body.trimEnd().split('\r\n');
    expect(own).toHaveLength(2);
    expect(own[1]).toContain(
      `"${adminId}","admin","Audrey Admin","TimezoneChanged","Timezone changed","Time zone set to Europe/Oslo","user","${adminId}","user","Audrey Admin"`,
    );
    // The same filters as the list: an actor filter narrows the file too.
    expect((await get(`/api/admin/audit-log.csv?actorId=${encodeURIComponent(attacker)}`)).body.trimEnd().split('\r\n')).toHaveLength(3);
  });

  it('gives the Overview the latest rows as who did what to which entity', async () => {
    const user = randomUUID();
    await zones(user, ['Europe/Madrid'], { actorId: adminId, actorRole: 'admin' });
    await zones(user, ['Europe/Berlin']);
    const res = await get('/api/admin/recent-activity?limit=2');
    expect(res.statusCode, res.body).toBe(200);
    const feed = recentActivitySchema.array().parse(res.json());
    expect(feed.map((f) => [f.who, f.what, f.entity])).toEqual([
      // The user has no account (only these events): the console names them as a deleted one.
      ['The system', 'Time zone set to Europe/Berlin', { type: 'user', id: user, kind: 'user', name: 'Deleted user' }],
      ['Audrey Admin (admin)', 'Time zone set to Europe/Madrid', { type: 'user', id: user, kind: 'user', name: 'Deleted user' }],
    ]);
    expect(recentActivitySchema.array().parse((await get('/api/admin/recent-activity')).json()).length).toBeGreaterThan(2);
  });
});
