import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import type { EventMetadata } from '../../../adapters/eventstore/eventStore.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { alertPageSchema, alertSchema } from '../../../domain/operations/alertApi.ts';
import { auditEventTypeSchema, auditLogPageSchema, recentActivitySchema } from '../../../domain/operations/auditLogApi.ts';
import { entityEventsSchema } from '../../../domain/operations/entityHistoryApi.ts';
import { DELETED_USER } from '../../../projections/operations/entityNames.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';

/** The console speaks in names (issue 24 item 4): audit log, recent activity, history and alerts name who and what. */

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

let admin: string;
let adminId: string;
let finance: string;
let personId: string;

async function account(username: string, firstName: string, lastName: string, role: 'admin' | 'finance') {
  const { userId } = await createStaffAccount(system.accounts, system.clock, {
    username,
    email: `${username}@example.com`,
    firstName,
    lastName,
    password: 'Names-staff-2026!',
    role,
  });
  return { userId, cookie: `tm_session=${(await system.signIns.create(userId, role)).token}` };
}

beforeAll(async () => {
  ({ userId: adminId, cookie: admin } = await account('names-admin', 'Ada', 'Lovelace', 'admin'));
  ({ cookie: finance } = await account('names-finance', 'Fin', 'Ance', 'finance'));
  ({ userId: personId } = await account('names-person', 'Grace', 'Hopper', 'admin'));
});

async function append(streamId: string, type: string, data: Record<string, unknown>, metadata: EventMetadata = {}) {
  const { position } = await system.store.append(
    streamId,
    [{ id: randomUUID(), type, data, metadata: { commandId: randomUUID(), ...metadata } }],
    'any',
  );
  expect(await waitForProjections(system.sql, ['audit_log', 'alerts'], position, 30_000)).toBe(true);
}

const get = (url: string, cookie = admin) => app.inject({ method: 'GET', url, headers: { cookie } });

describe('names instead of ids in the console', () => {
  it("names the entity and the actor in the audit log, recent activity and the entity's history", async () => {
    await append(
      `user-${personId}`,
      'TimezoneChanged',
      { userId: personId, timezone: 'Europe/Paris', at: new Date().toISOString() },
      { actorId: adminId, actorRole: 'admin' },
    );

    const log = await get(`/api/admin/audit-log?entityId=${personId}&type=TimezoneChanged`);
    expect(log.statusCode, log.body).toBe(200);
    const [row] = auditLogPageSchema.parse(log.json()).rows;
    expect(row?.entity).toEqual({ type: 'user', id: personId, kind: 'user', name: 'Grace Hopper' });
    expect(row?.actor).toEqual({ id: adminId, role: 'admin', name: 'Ada Lovelace' });

    const recent = await get('/api/admin/recent-activity?limit=50');
    expect(recent.statusCode, recent.body).toBe(200);
    const item = recentActivitySchema
      .array()
      .parse(recent.json())
      .find((r) => r.entity.id === personId && r.what.includes('ime zone'));
    expect(item).toMatchObject({ who: 'Ada Lovelace (admin)', actorId: adminId, entity: { kind: 'user', name: 'Grace Hopper' } });

    const history = await get(`/api/admin/entities/user/${personId}/events`);
    expect(history.statusCode, history.body).toBe(200);
    const events = entityEventsSchema.parse(history.json());
    expect(events.name).toBe('Grace Hopper');
    expect(events.events.find((e) => e.type === 'TimezoneChanged')?.actor).toEqual({ id: adminId, role: 'admin', name: 'Ada Lovelace' });
  });

  it('filters the audit log by part of the actor name (any case, every word) and offers the event types in words', async () => {
    const at = new Date().toISOString();
    await append(
      `user-${personId}`,
      'TimezoneChanged',
      { userId: personId, timezone: 'Asia/Tokyo', at },
      { actorId: personId, actorRole: 'admin' },
    );
    const byName = async (actorName: string) => {
      const res = await get(`/api/admin/audit-log?type=TimezoneChanged&actorName=${encodeURIComponent(actorName)}`);
      expect(res.statusCode, res.body).toBe(200);
      return auditLogPageSchema.parse(res.json()).rows.map((r) => r.actor.name);
    };
    expect(new Set(await byName('hopper'))).toEqual(new Set(['Grace Hopper']));
    expect(new Set(await byName('ADA love'))).toEqual(new Set(['Ada Lovelace']));
    expect(await byName('Ada Hopper')).toEqual([]);
    // LIKE's wildcards are letters to look for, not patterns.
    expect(await byName('%')).toEqual([]);
    expect((await byName('  ')).length).toBeGreaterThanOrEqual(2);
    expect((await get(`/api/admin/audit-log?actorName=${'x'.repeat(101)}`)).statusCode).toBe(400);

    const types = await get('/api/admin/audit-log/event-types');
    expect(types.statusCode, types.body).toBe(200);
    const list = auditEventTypeSchema.array().parse(types.json());
    expect(list).toContainEqual({ type: 'SessionBooked', label: 'Session booked' });
    expect(list.map((t) => t.label)).toEqual([...list.map((t) => t.label)].sort((a, b) => a.localeCompare(b, 'en')));
    expect((await get('/api/admin/audit-log/event-types', finance)).statusCode).toBe(403);
  });

  it('says what an alert is about by name, "Deleted user" for a person whose account is gone; finance is refused', async () => {
    const gone = randomUUID();
    for (const userId of [personId, gone]) {
      await append(`tutor-${userId}`, 'TutorCalendarAccessLost', {
        tutorId: userId,
        userId,
        reason: 'invalid_grant',
        at: new Date().toISOString(),
      });
    }
    const res = await get('/api/admin/alerts?type=calendar_invalid_grant&status=open');
    expect(res.statusCode, res.body).toBe(200);
    const rows = alertPageSchema.parse(res.json()).rows;
    expect(rows.find((a) => a.userId === personId)?.about).toEqual([{ kind: 'user', id: personId, name: 'Grace Hopper' }]);
    expect(rows.find((a) => a.userId === gone)?.about).toEqual([{ kind: 'user', id: gone, name: DELETED_USER }]);

    const badge = alertSchema.array().parse((await get('/api/admin/alerts/unresolved')).json());
    expect(badge.find((a) => a.userId === personId)?.about?.[0]?.name).toBe('Grace Hopper');

    for (const url of ['/api/admin/alerts', '/api/admin/recent-activity', `/api/admin/entities/user/${personId}/events`]) {
      expect((await get(url, finance)).statusCode, url).toBe(403);
    }
  });
});
