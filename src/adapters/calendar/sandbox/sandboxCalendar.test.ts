import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/database.ts';
import { migrate } from '../../db/migrate.ts';
import { calendarContract } from '../calendar.contract.ts';
import { type CalendarError, type CalendarTarget, calendarEventId } from '../calendarPort.ts';
import { SANDBOX_MEET_ORIGIN, SandboxCalendar, sandboxMeetLink } from './sandboxCalendar.ts';

const targetFor = (ownerId: string, calendarId = 'primary'): CalendarTarget => ({ ownerId, calendarId, credentials: { kind: 'none' } });

calendarContract('sandbox (PostgreSQL)', async () => {
  const db = await createTestDatabase('calendar');
  await migrate(db.sql, { eventStore: true });
  const port = new SandboxCalendar(db.sql);
  return {
    port,
    async connect() {
      const ownerKey = `tutor-${randomUUID()}`;
      const email = `${ownerKey}@example.com`;
      return { target: targetFor(ownerKey, email), email, ownerKey };
    },
    revoke: (ownerKey) => port.setAccess(ownerKey, 'revoked'),
    dispose: () => db.drop(),
  };
});

describe('sandbox calendar', () => {
  let db: TestDatabase;
  let port: SandboxCalendar;
  beforeAll(async () => {
    db = await createTestDatabase('calsbx');
    await migrate(db.sql, { eventStore: true });
    port = new SandboxCalendar(db.sql);
  });
  afterAll(async () => db.drop());

  const failure = async (p: Promise<unknown>) =>
    (await p.then(
      () => null,
      (e: unknown) => e,
    )) as CalendarError | null;

  it('makes Meet-shaped links from the request id, the same every time, on a domain that cannot resolve', () => {
    const link = sandboxMeetLink('session-42');
    expect(link).toMatch(/^https:\/\/meet\.sandbox\.topmark\.invalid\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
    expect(link.startsWith(SANDBOX_MEET_ORIGIN)).toBe(true);
    expect(sandboxMeetLink('session-42')).toBe(link);
    expect(sandboxMeetLink('session-43')).not.toBe(link);
  });

  it('gives every tutor a calendar on first use, with a sandbox address unless the target names one', async () => {
    const status = await port.calendar(targetFor('t-auto')).status();
    expect(status).toEqual({
      accessible: true,
      email: 't-auto@calendar.sandbox.topmark.invalid',
      isConnected: true,
      timeZone: 'America/New_York',
      reason: null,
    });
    expect(port.serviceAccountEmail).toBe('calendar@sandbox.topmark.invalid');
  });

  it('lets a developer switch the access state to see every banner and failure', async () => {
    const owner = 't-states';
    const calendar = port.calendar(targetFor(owner));
    const eventId = calendarEventId('states');
    const input = { summary: 'x', start: { dateTime: '2026-03-10T15:00:00Z' }, end: { dateTime: '2026-03-10T16:00:00Z' } };

    await port.setAccess(owner, 'read_only');
    expect(await calendar.status()).toMatchObject({ accessible: false, isConnected: true, reason: 'forbidden' });
    expect(await calendar.listEvents({ from: '2026-03-10T00:00:00Z', to: '2026-03-11T00:00:00Z' })).toEqual([]);
    const readOnly = await failure(calendar.createEvent(eventId, input));
    expect(readOnly).toMatchObject({ reason: 'forbidden', message: 'You need to have writer access to this calendar.' });

    await port.setAccess(owner, 'disconnected');
    expect(await calendar.status()).toEqual({
      accessible: false,
      email: null,
      isConnected: false,
      timeZone: null,
      reason: 'not_connected',
    });
    expect((await failure(calendar.getEvent(eventId)))?.reason).toBe('not_connected');

    await port.setAccess(owner, 'granted');
    expect((await calendar.createEvent(eventId, input)).id).toBe(eventId);
  });

  it('reads all-day events in the calendar’s zone for busy time', async () => {
    const owner = 't-london';
    await port.setTimeZone(owner, 'Europe/London');
    const calendar = port.calendar(targetFor(owner));
    await calendar.createEvent(calendarEventId('holiday'), {
      summary: 'Holiday',
      start: { date: '2026-07-01' },
      end: { date: '2026-07-02' },
    });
    expect(await calendar.freeBusy({ from: '2026-06-30T00:00:00Z', to: '2026-07-03T00:00:00Z' })).toEqual([
      { start: '2026-06-30T23:00:00Z', end: '2026-07-01T23:00:00Z' },
    ]);
    expect((await failure(port.setTimeZone(owner, 'Mars/Olympus')))?.reason).toBe('invalid');
  });

  it('refuses recurrence it cannot expand, and a series without a zone, as Google refuses bad input', async () => {
    const calendar = port.calendar(targetFor('t-rules'));
    const base = {
      summary: 'x',
      start: { dateTime: '2026-03-10T09:00:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-03-10T10:00:00', timeZone: 'America/New_York' },
    };
    const monthly = await failure(
      calendar.createEvent(calendarEventId('monthly'), { ...base, recurrence: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=10'] }),
    );
    expect(monthly).toMatchObject({ reason: 'invalid', message: expect.stringContaining('is not supported') });
    const zoneless = await failure(
      calendar.createEvent(calendarEventId('zoneless'), {
        ...base,
        start: { dateTime: '2026-03-10T09:00:00-04:00' },
        end: { dateTime: '2026-03-10T10:00:00-04:00' },
        recurrence: ['RRULE:FREQ=WEEKLY'],
      }),
    );
    expect(zoneless?.reason).toBe('invalid');
    expect(await calendar.getEvent(calendarEventId('monthly'))).toBeNull();
  });

  it('lets two changes of the same occurrence take turns, and deletes all-day occurrences on the calendar’s date', async () => {
    const calendar = port.calendar(targetFor('t-turns'));
    const series = calendarEventId('turns');
    await calendar.createEvent(series, {
      summary: 'Topmark Hours',
      start: { dateTime: '2026-04-06T09:00:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-04-06T11:00:00', timeZone: 'America/New_York' },
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    const instance = `${series}_20260413T130000Z`;
    const [a, b] = await Promise.all([
      calendar.updateEvent(instance, { summary: 'A' }),
      calendar.updateEvent(instance, { description: 'B' }),
    ]);
    expect([a.id, b.id]).toEqual([instance, instance]);
    expect(await calendar.getEvent(instance)).toMatchObject({ summary: 'A', description: 'B', recurringEventId: series });

    const owner = 't-tokyo';
    await port.setTimeZone(owner, 'Asia/Tokyo');
    const tokyo = port.calendar(targetFor(owner));
    const days = calendarEventId('days');
    await tokyo.createEvent(days, {
      summary: 'Off',
      start: { date: '2026-05-04' },
      end: { date: '2026-05-05' },
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    const window = { from: '2026-05-01T00:00:00Z', to: '2026-05-10T00:00:00Z' };
    expect((await tokyo.listEvents(window)).map((e) => e.id)).toEqual([`${days}_20260504`, `${days}_20260505`, `${days}_20260506`]);
    await tokyo.deleteEvent(`${days}_20260505`);
    expect((await tokyo.listEvents(window)).map((e) => e.start)).toEqual([{ date: '2026-05-04' }, { date: '2026-05-06' }]);
  });

  it('creates one event when the same create races itself', async () => {
    const calendar = port.calendar(targetFor('t-race'));
    const eventId = calendarEventId('race');
    const input = {
      summary: 'Race',
      start: { dateTime: '2026-03-10T15:00:00Z' },
      end: { dateTime: '2026-03-10T16:00:00Z' },
      conference: { requestId: 'r-1' },
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => calendar.createEvent(eventId, input)));
    expect(new Set(results.map((r) => r.meetingLink))).toEqual(new Set([sandboxMeetLink('r-1')]));
    const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM sandbox_calendar_events WHERE owner_id = 't-race'`;
    expect(row?.n).toBe(1);
  });
});
