import { describe, expect, it } from 'vitest';
import type { TransactionSql } from '../../adapters/db/db.ts';
import type { RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import type { EventType } from '../../domain/eventCatalog.ts';
import { type AnyEvent, defineProjection, isEvent, type ProjectedEvent } from './defineProjection.ts';
import { table, text } from './table.ts';

const things = table('things', { id: text().primaryKey(), name: text() }, { indexes: [{ name: 'things_name', on: ['lower(name)'] }] });
const tx = {} as TransactionSql;
let position = 0;
const recorded = (type: string, data: unknown): RecordedEvent => ({
  id: `e${++position}`,
  type,
  data,
  metadata: {},
  streamId: 'x-1',
  revision: 0,
  position: String(position).padStart(10, '0'),
  recordedAt: new Date('2025-08-01T00:00:00.000Z'),
});

describe('defineProjection', () => {
  it('is a Projector: its handled types, its tables, their DDL as setup and their indexes', async () => {
    const statements: string[] = [];
    const p = defineProjection({ name: 'things', handles: ['TimezoneChanged'], tables: [things], apply: async () => {} });
    expect(p).toMatchObject({ name: 'things', handles: ['TimezoneChanged'], tables: ['things'] });
    const recording = { unsafe: async (q: string) => statements.push(q) } as unknown as TransactionSql;
    await p.setup(recording);
    expect(statements).toEqual([things.ddl]);
    expect(p.indexes).toEqual(['CREATE INDEX IF NOT EXISTS things_name ON things (lower(name));']);
  });

  it('refuses an event type the catalogue does not define (a type error too)', () => {
    const handles = ['TimezoneChanged', 'TimeZoneChanged'] as EventType[];
    expect(() => defineProjection({ name: 'typo', handles, tables: [things], apply: async () => {} })).toThrow(
      'Projection typo handles event types the catalogue does not define: TimeZoneChanged',
    );
    // @ts-expect-error not a catalogued type
    const typed = () => defineProjection({ name: 'typo', handles: ['TimeZoneChanged'], tables: [things], apply: async () => {} });
    expect(typed).toThrow();
  });

  it('hands apply the handled events only, parsed by their schemas and typed', async () => {
    const seen: ProjectedEvent<'ContactMessageReceived' | 'TimezoneChanged'>[] = [];
    const p = defineProjection({
      name: 'things',
      handles: ['ContactMessageReceived', 'TimezoneChanged'],
      tables: [things],
      async apply(_tx, events) {
        for (const e of events) {
          // typed without a cast: the union narrows on `type`
          if (e.type === 'TimezoneChanged') expect(typeof e.data.timezone).toBe('string');
          else expect(e.data.senderUserId === null || typeof e.data.senderUserId === 'string').toBe(true);
        }
        seen.push(...events);
      },
    });
    await p.apply(tx, [
      recorded('TimezoneChanged', { userId: 'u', timezone: 'Europe/Oslo', at: 'now' }),
      recorded('EmailVerified', { userId: 'u', at: 'now' }),
      // recorded before the field existed: the schema's default fills it in
      recorded('ContactMessageReceived', {
        contactId: 'c',
        name: 'n',
        email: 'e',
        phone: null,
        subject: 's',
        message: 'm',
        receivedAt: 'now',
      }),
    ]);
    expect(seen.map((e) => e.type)).toEqual(['TimezoneChanged', 'ContactMessageReceived']);
    expect(seen[1]?.data).toMatchObject({ senderUserId: null });
    expect(seen[0]).toMatchObject({ id: `e${position - 2}`, streamId: 'x-1', recordedAt: new Date('2025-08-01T00:00:00.000Z') });
  });

  it('does not call apply for a batch without handled events', async () => {
    let calls = 0;
    const p = defineProjection({ name: 'things', handles: ['TimezoneChanged'], tables: [things], apply: async () => void calls++ });
    await p.apply(tx, [recorded('EmailVerified', { userId: 'u', at: 'now' })]);
    expect(calls).toBe(0);
  });

  it('stops at an event whose data does not match its schema, naming it', async () => {
    const p = defineProjection({ name: 'things', handles: ['TimezoneChanged'], tables: [things], apply: async () => {} });
    const bad = recorded('TimezoneChanged', { userId: 'u', at: 'now' });
    await expect(p.apply(tx, [bad])).rejects.toThrow(`Event ${bad.id} (TimezoneChanged) does not match its catalogue schema: timezone:`);
  });

  it('a projector of every event gets catalogued ones parsed and others as recorded; isEvent narrows', async () => {
    const seen: AnyEvent[] = [];
    const p = defineProjection({ name: 'all', handles: '*', tables: [things], apply: async (_tx, events) => void seen.push(...events) });
    expect(p.handles).toBe('*');
    await p.apply(tx, [recorded('ValueReserved', { userId: 'u', at: 'then' }), recorded('NoLongerCatalogued', { anything: 1 })]);
    const [reserved, other] = seen;
    // an upcasting schema (reservations recorded before holders) is applied
    expect(reserved && isEvent(reserved, 'ValueReserved') && reserved.data.holderId).toBe('user-u');
    expect(other).toMatchObject({ type: 'NoLongerCatalogued', data: { anything: 1 } });
    expect(other && isEvent(other, 'ValueReserved')).toBe(false);
  });
});
