import type { FastifyInstance } from 'fastify';
import { Temporal } from 'temporal-polyfill';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor } from '../../../../tests/support/tutors.ts';
import { calendarEventId } from '../../../adapters/calendar/calendarPort.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { EVENT_NOT_FOUND, OCCURRENCE_CANNOT_REPEAT, SESSION_EVENTS_ARE_READ_ONLY } from '../../../commands/tutors/calendarEvents.ts';
import { basicUtc } from '../../../domain/calendar/recurrence.ts';
import {
  type CalendarEventAnswer,
  calendarEventListSchema,
  calendarEventSchema,
  END_BEFORE_START,
  EVENT_TOO_LONG,
  NOTHING_TO_CHANGE,
  SERIES_NEEDS_ZONE,
} from '../../../domain/tutors/calendarEventsApi.ts';

/**
 * The tutor's own events in the sandbox calendar over HTTP, in Google's event shape: a weekly
 * "Topmark Hours" series made, changed, an occurrence cancelled (an EXDATE), one moved, deleted —
 * and after each write the booking grid (`GET /api/tutors/{id}/available-slots`) answers the new
 * hours at once. Refusals: what Google or the recurrence module refuses (nothing stored), another
 * tutor's ids (404), sessions Topmark wrote (409), a Google calendar (tutorCalendarGoogle.test.ts).
 */

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

const NY = 'America/New_York';
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, who: { cookie: string }, payload?: object, headers: Record<string, string> = {}) =>
  app.inject({ method, url, headers: { cookie: who.cookie, ...headers }, ...(payload === undefined ? {} : { payload }) });
const EVENTS = '/api/tutor/calendar/events';

/** The first Sunday at least three days ahead in New York, and the Sundays after it. */
const firstSunday = (() => {
  let d = Temporal.Now.plainDateISO(NY).add({ days: 3 });
  while (d.dayOfWeek !== 7) d = d.add({ days: 1 });
  return d;
})();
const sunday = (week: number) => firstSunday.add({ weeks: week }).toString();
const at = (day: string, time: string) => ({ dateTime: `${day}T${time}:00`, timeZone: NY });
const utc = (day: string, time: string) => basicUtc(Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime(NY).toInstant());
const midnight = (day: string) => Temporal.PlainDate.from(day).toZonedDateTime(NY).toInstant().toString();

/** The booking grid's start times on `day` (New York "HH:mm"); none while the tutor has no hours at all. */
async function slots(tutor: ApprovedTutor, day: string): Promise<string[]> {
  const res = await call('GET', `/api/tutors/${tutor.tutorId}/available-slots?date=${day}`, tutor);
  if (res.statusCode === 422) return [];
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { time: string }[]).map((s) => s.time);
}

async function created(tutor: ApprovedTutor, body: object): Promise<CalendarEventAnswer> {
  const res = await call('POST', EVENTS, tutor, body);
  expect(res.statusCode, res.body).toBe(201);
  return calendarEventSchema.parse(res.json());
}

async function listed(tutor: ApprovedTutor, from: string, to: string, singleEvents = true) {
  const res = await call(
    'GET',
    `${EVENTS}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&singleEvents=${singleEvents}`,
    tutor,
  );
  expect(res.statusCode, res.body).toBe(200);
  return calendarEventListSchema.parse(res.json());
}

const rowsOf = async (tutor: ApprovedTutor) =>
  Number(
    (await system.sql<{ n: string }[]>`SELECT count(*)::text AS n FROM sandbox_calendar_events WHERE owner_id = ${tutor.tutorId}`)[0]?.n,
  );

const weeklyHours = (time: [string, string], recurrence = 'RRULE:FREQ=WEEKLY;BYDAY=SU;COUNT=4') => ({
  summary: 'Topmark Hours',
  start: at(sunday(0), time[0]),
  end: at(sunday(0), time[1]),
  recurrence: [recurrence],
  transparency: 'transparent',
});

describe('a weekly Topmark Hours series', () => {
  let tutor: ApprovedTutor;
  let series: CalendarEventAnswer;
  beforeAll(async () => {
    tutor = await approvedTutor(system, 'events-series');
  });

  it('is offered by the booking grid as soon as it is added, and lists as its occurrences or as its master', async () => {
    expect(await slots(tutor, sunday(0))).toEqual([]);
    series = await created(tutor, weeklyHours(['07:00', '09:00']));
    expect(series).toMatchObject({
      summary: 'Topmark Hours',
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=SU;COUNT=4'],
      recurringEventId: null,
      transparency: 'transparent',
      status: 'confirmed',
      kind: 'hours',
      readOnly: false,
      fromWeeklyHours: false,
      start: { timeZone: NY },
    });
    expect(await slots(tutor, sunday(0))).toEqual(['07:00', '08:00']);
    expect(await slots(tutor, sunday(1))).toEqual(['07:00', '08:00']);
    expect(await slots(tutor, firstSunday.add({ days: 1 }).toString())).toEqual([]);

    const twoWeeks = await listed(tutor, midnight(sunday(0)), midnight(sunday(2)));
    expect(twoWeeks.timeZone).toBe(NY);
    expect(twoWeeks.items.map((e) => e.id)).toEqual([`${series.id}_${utc(sunday(0), '07:00')}`, `${series.id}_${utc(sunday(1), '07:00')}`]);
    expect(twoWeeks.items[1]).toMatchObject({ recurringEventId: series.id, recurrence: null, kind: 'hours', summary: 'Topmark Hours' });
    const masters = await listed(tutor, midnight(sunday(0)), midnight(sunday(2)), false);
    expect(masters.items.map((e) => [e.id, e.recurrence])).toEqual([[series.id, series.recurrence]]);

    const one = await call('GET', `${EVENTS}/${series.id}_${utc(sunday(1), '07:00')}`, tutor);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ recurringEventId: series.id, start: { timeZone: NY } });
    expect(one.json().start.dateTime).toMatch(new RegExp(`^${sunday(1)}T07:00:00-0[45]:00$`));
    expect((await call('GET', `${EVENTS}/${series.id}`, tutor)).json()).toMatchObject({ id: series.id, recurrence: series.recurrence });
  });

  it('moves in the grid at once when the series’ time changes', async () => {
    const moved = await call('PATCH', `${EVENTS}/${series.id}`, tutor, { start: at(sunday(0), '10:00'), end: at(sunday(0), '11:00') });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ id: series.id, summary: 'Topmark Hours', recurrence: series.recurrence });
    expect(await slots(tutor, sunday(0))).toEqual(['10:00']);
    expect(await slots(tutor, sunday(3))).toEqual(['10:00']);
  });

  it('cancels one occurrence, moves another (exceptions of the series, as at Google), and takes a day out by an EXDATE the tutor adds', async () => {
    const second = `${series.id}_${utc(sunday(1), '10:00')}`;
    const cancelled = await call('PATCH', `${EVENTS}/${second}`, tutor, { status: 'cancelled' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ id: second, status: 'cancelled', recurringEventId: series.id });
    expect(await slots(tutor, sunday(1))).toEqual([]);
    expect(await slots(tutor, sunday(0))).toEqual(['10:00']);
    expect((await call('GET', `${EVENTS}/${second}`, tutor)).statusCode).toBe(404);
    const master = calendarEventSchema.parse((await call('GET', `${EVENTS}/${series.id}`, tutor)).json());
    // As at Google: the occurrence is a cancelled exception; the series' own lines are the tutor's.
    expect(master.recurrence).toEqual(series.recurrence);

    // The first occurrence moves to noon: an exception of the series under the occurrence's id.
    const first = `${series.id}_${utc(sunday(0), '10:00')}`;
    const moved = await call('PATCH', `${EVENTS}/${first}`, tutor, { start: at(sunday(0), '12:00'), end: at(sunday(0), '13:00') });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ id: first, recurringEventId: series.id, recurrence: null, kind: 'hours' });
    expect(await slots(tutor, sunday(0))).toEqual(['12:00']);
    expect(await slots(tutor, sunday(2))).toEqual(['10:00']);

    // An EXDATE sent with the series' lines (Google's way of skipping a day); the exceptions stay as they are.
    const lines = [...master.recurrence!, `EXDATE:${utc(sunday(2), '10:00')}`];
    const skipped = await call('PATCH', `${EVENTS}/${series.id}`, tutor, { recurrence: lines });
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect(await slots(tutor, sunday(2))).toEqual([]);
    expect(await slots(tutor, sunday(3))).toEqual(['10:00']);
    const month = await listed(tutor, midnight(sunday(0)), midnight(sunday(5)));
    expect(month.items.map((e) => e.id)).toEqual([first, `${series.id}_${utc(sunday(3), '10:00')}`]);

    // Deleting one occurrence, then the series (the moved occurrence with it).
    expect((await call('DELETE', `${EVENTS}/${series.id}_${utc(sunday(3), '10:00')}`, tutor)).statusCode).toBe(204);
    expect(await slots(tutor, sunday(3))).toEqual([]);
    expect(await slots(tutor, sunday(0))).toEqual(['12:00']);
    expect((await call('DELETE', `${EVENTS}/${series.id}`, tutor)).statusCode).toBe(204);
    expect((await listed(tutor, midnight(sunday(0)), midnight(sunday(5)))).items).toEqual([]);
    expect(await slots(tutor, sunday(0))).toEqual([]);
    const again = await call('DELETE', `${EVENTS}/${series.id}`, tutor);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(EVENT_NOT_FOUND);
  });
});

describe('other events', () => {
  let tutor: ApprovedTutor;
  beforeAll(async () => {
    tutor = await approvedTutor(system, 'events-busy');
    await created(tutor, weeklyHours(['07:00', '10:00'], 'RRULE:FREQ=WEEKLY;BYDAY=SU;COUNT=1'));
  });

  it('block the hours they cover while busy (tentative too), and nothing once marked free', async () => {
    const day = sunday(0);
    expect(await slots(tutor, day)).toEqual(['07:00', '08:00', '09:00']);
    // An offset time, no zone: a single event may be written either way.
    const offset = Temporal.PlainDateTime.from(`${day}T08:00`).toZonedDateTime(NY).offset;
    const dentist = await created(tutor, {
      summary: 'Dentist',
      description: 'Bring the form',
      start: { dateTime: `${day}T08:00:00${offset}` },
      end: { dateTime: `${day}T08:30:00${offset}` },
    });
    expect(dentist).toMatchObject({ kind: 'busy', transparency: 'opaque', description: 'Bring the form', recurrence: null });
    expect(await slots(tutor, day)).toEqual(['07:00', '09:00']);

    const free = await call('PATCH', `${EVENTS}/${dentist.id}`, tutor, { transparency: 'transparent' });
    expect(free.json()).toMatchObject({ kind: 'free', summary: 'Dentist' });
    expect(await slots(tutor, day)).toEqual(['07:00', '08:00', '09:00']);
    const tentative = await call('PATCH', `${EVENTS}/${dentist.id}`, tutor, { transparency: 'opaque', status: 'tentative' });
    expect(tentative.json()).toMatchObject({ kind: 'busy', status: 'tentative' });
    expect(await slots(tutor, day)).toEqual(['07:00', '09:00']);

    // An all-day busy event covers the whole day in the tutor's zone.
    const away = await created(tutor, { summary: 'Away', start: { date: day }, end: { date: firstSunday.add({ days: 1 }).toString() } });
    expect(away.start).toEqual({ date: day });
    expect(await slots(tutor, day)).toEqual([]);
    expect((await call('DELETE', `${EVENTS}/${away.id}`, tutor)).statusCode).toBe(204);
    expect((await call('DELETE', `${EVENTS}/${dentist.id}`, tutor)).statusCode).toBe(204);
    expect(await slots(tutor, day)).toEqual(['07:00', '08:00', '09:00']);
  });

  it('are made once for one Idempotency-Key', async () => {
    const body = { summary: 'Gym', start: at(sunday(1), '18:00'), end: at(sunday(1), '19:00') };
    const first = await call('POST', EVENTS, tutor, body, { 'idempotency-key': 'calendar-event-0001' });
    const again = await call('POST', EVENTS, tutor, body, { 'idempotency-key': 'calendar-event-0001' });
    expect(first.statusCode, first.body).toBe(201);
    expect(again.json().id).toBe(first.json().id);
    expect((await listed(tutor, midnight(sunday(1)), midnight(sunday(2)))).items.map((e) => e.summary)).toEqual(['Gym']);
  });

  it('show the sessions Topmark wrote, which only Topmark changes', async () => {
    const port = system.calendar.calendar({ ownerId: tutor.tutorId, calendarId: 'primary', credentials: { kind: 'none' } });
    const id = calendarEventId('session', tutor.tutorId, 'one');
    await port.createEvent(id, {
      summary: 'Calculus with Bea',
      start: at(sunday(2), '07:00'),
      end: at(sunday(2), '08:00'),
      privateProperties: { topmarkSessionId: 'session-1' },
    });
    const [session] = (await listed(tutor, midnight(sunday(2)), midnight(sunday(3)))).items;
    expect(session).toMatchObject({ id, kind: 'session', readOnly: true, summary: 'Calculus with Bea' });
    for (const [method, payload] of [
      ['PATCH', { summary: 'Moved by hand' }],
      ['PATCH', { status: 'cancelled' }],
      ['DELETE', undefined],
    ] as const) {
      const refused = await call(method, `${EVENTS}/${id}`, tutor, payload);
      expect(refused.statusCode, `${method} ${refused.body}`).toBe(409);
      expect(refused.json().message).toBe(SESSION_EVENTS_ARE_READ_ONLY);
    }
    expect(await port.getEvent(id)).toMatchObject({ summary: 'Calculus with Bea', status: 'confirmed' });
  });
});

describe('refusals', () => {
  let tutor: ApprovedTutor;
  let other: ApprovedTutor;
  let series: CalendarEventAnswer;
  beforeAll(async () => {
    tutor = await approvedTutor(system, 'events-refusals');
    other = await approvedTutor(system, 'events-intruder');
    series = await created(tutor, weeklyHours(['07:00', '09:00']));
  });

  const refusal = async (method: Method, url: string, payload: object | undefined, field: string, message?: string | RegExp) => {
    const before = await rowsOf(tutor);
    const res = await call(method, url, tutor, payload);
    expect(res.statusCode, `${JSON.stringify(payload)} → ${res.body}`).toBe(400);
    const body = res.json() as { message: string; field?: string; errors?: { field: string }[] };
    expect([body.field, ...(body.errors ?? []).map((e) => e.field)], res.body).toContain(field);
    if (message) expect(body.message).toMatch(message);
    expect(await rowsOf(tutor)).toBe(before);
    return body;
  };

  it('refuses recurrence the recurrence module cannot expand, with its message, and stores nothing', async () => {
    const base = weeklyHours(['07:00', '08:00']);
    await refusal('POST', EVENTS, { ...base, recurrence: ['RRULE:FREQ=MONTHLY'] }, 'recurrence', /FREQ=MONTHLY is not supported/);
    await refusal('POST', EVENTS, { ...base, recurrence: ['RRULE:FREQ=WEEKLY;BYMONTHDAY=1'] }, 'recurrence', /BYMONTHDAY is not supported/);
    await refusal('POST', EVENTS, { ...base, recurrence: ['RRULE:FREQ=WEEKLY;BYSETPOS=1'] }, 'recurrence', /BYSETPOS is not supported/);
    await refusal('POST', EVENTS, { ...base, recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=1MO'] }, 'recurrence', /BYDAY "1MO"/);
    await refusal('POST', EVENTS, { ...base, recurrence: ['RDATE:20260301T100000Z'] }, 'recurrence', /RDATE is not supported/);
    await refusal('POST', EVENTS, { ...base, recurrence: ['EXDATE:20260301T100000Z'] }, 'recurrence', /EXDATE without an RRULE/);
    await refusal('POST', EVENTS, { ...base, recurrence: ['RRULE:FREQ=DAILY;COUNT=5000'] }, 'recurrence', /COUNT can be at most 1000/);
    await refusal('POST', EVENTS, { ...base, recurrence: ['RRULE:FREQ=DAILY;COUNT=2;UNTIL=20270101'] }, 'recurrence', /COUNT and UNTIL/);
    await refusal('PATCH', `${EVENTS}/${series.id}`, { recurrence: ['RRULE:FREQ=YEARLY'] }, 'recurrence', /FREQ=YEARLY/);
    const { offset } = Temporal.PlainDateTime.from(`${sunday(0)}T07:00`).toZonedDateTime(NY);
    const noZone = { ...base, start: { dateTime: `${sunday(0)}T07:00:00${offset}` }, end: { dateTime: `${sunday(0)}T08:00:00${offset}` } };
    await refusal('POST', EVENTS, noZone, 'start.timeZone', SERIES_NEEDS_ZONE);
    await refusal(
      'PATCH',
      `${EVENTS}/${series.id}_${utc(sunday(1), '07:00')}`,
      { recurrence: ['RRULE:FREQ=DAILY'] },
      'recurrence',
      OCCURRENCE_CANNOT_REPEAT,
    );
  });

  it('refuses times Google would refuse, years out of range, events over 14 days, and unknown fields', async () => {
    const day = sunday(1);
    const event = { summary: 'Busy', start: at(day, '09:00'), end: at(day, '10:00') };
    await refusal('POST', EVENTS, { ...event, end: at(day, '08:00') }, 'end', END_BEFORE_START);
    await refusal('POST', EVENTS, { ...event, end: at(day, '09:00') }, 'end', END_BEFORE_START);
    await refusal(
      'POST',
      EVENTS,
      { ...event, end: at(Temporal.PlainDate.from(day).add({ days: 15 }).toString(), '09:00') },
      'end',
      EVENT_TOO_LONG,
    );
    await refusal('POST', EVENTS, { ...event, start: { date: day } }, 'end');
    await refusal('POST', EVENTS, { ...event, start: { dateTime: '1999-12-31T10:00:00Z' } }, 'start.dateTime', /2000–2100/);
    await refusal('POST', EVENTS, { ...event, start: { date: '2101-01-01' }, end: { date: '2101-01-02' } }, 'start.date');
    await refusal('POST', EVENTS, { ...event, start: { dateTime: `${day}T09:00:00` } }, 'start.timeZone');
    await refusal(
      'POST',
      EVENTS,
      { ...event, start: { ...at(day, '09:00'), timeZone: 'Mars/Olympus' } },
      'start.timeZone',
      /Unknown time zone/,
    );
    await refusal('POST', EVENTS, { ...event, start: { dateTime: '2026-02-30T10:00:00Z' } }, 'start.dateTime');
    await refusal('POST', EVENTS, { ...event, start: { dateTime: '2026-03-01T24:00:00Z' } }, 'start.dateTime');
    await refusal('POST', EVENTS, { ...event, start: { dateTime: `${day}T09:00:00Z`, date: day } }, 'start.date');
    await refusal('POST', EVENTS, { ...event, start: '2026-03-01T10:00:00Z' }, 'start');
    await refusal('POST', EVENTS, { ...event, summary: '  ' }, 'summary');
    await refusal('POST', EVENTS, { ...event, summary: 'Lunch\u0000' }, 'summary');
    await refusal('POST', EVENTS, { ...event, summary: '\ud800' }, 'summary');
    await refusal('POST', EVENTS, { ...event, attendees: [{ email: 'x@example.com' }] }, 'attendees');
    await refusal('POST', EVENTS, { ...event, status: 'cancelled' }, 'status');
    await refusal('PATCH', `${EVENTS}/${series.id}`, {}, '', NOTHING_TO_CHANGE);
    await refusal('PATCH', `${EVENTS}/${series.id}`, { end: at(sunday(0), '06:00') }, 'end', END_BEFORE_START);
    await refusal('GET', `${EVENTS}?from=2026-03-10T00:00:00Z&to=2026-03-09T00:00:00Z`, undefined, 'to');
    await refusal('GET', `${EVENTS}?from=2026-03-01T00:00:00Z&to=2026-06-01T00:00:00Z`, undefined, 'to', /at most 62 days/);
    await refusal('GET', `${EVENTS}?from=1999-03-01T00:00:00Z`, undefined, 'from');
    await refusal('GET', `${EVENTS}?to=2026-03-01T00:00:00`, undefined, 'to');
  });

  it('keeps every tutor to their own calendar: another’s ids are not found, and staff cannot reach it', async () => {
    const instance = `${series.id}_${utc(sunday(0), '07:00')}`;
    for (const id of [series.id, instance]) {
      expect((await call('GET', `${EVENTS}/${id}`, other)).statusCode).toBe(404);
      expect((await call('PATCH', `${EVENTS}/${id}`, other, { summary: 'Mine now' })).statusCode).toBe(404);
      expect((await call('PATCH', `${EVENTS}/${id}`, other, { status: 'cancelled' })).statusCode).toBe(404);
      expect((await call('DELETE', `${EVENTS}/${id}`, other)).statusCode).toBe(404);
    }
    expect((await listed(other, midnight(sunday(0)), midnight(sunday(2)))).items).toEqual([]);
    expect((await listed(tutor, midnight(sunday(0)), midnight(sunday(1)))).items.map((e) => e.id)).toEqual([instance]);
    expect((await call('GET', `${EVENTS}/not-an-id`, tutor)).statusCode).toBe(404);

    const { userId } = await createStaffAccount(system.accounts, system.clock, {
      username: 'events-admin',
      email: 'events-admin@example.com',
      firstName: 'Ada',
      lastName: 'Admin',
      password: 'secret123',
      role: 'admin',
    });
    const admin = { cookie: `tm_session=${(await system.signIns.create(userId, 'admin')).token}` };
    expect((await call('GET', EVENTS, admin)).statusCode).toBe(403);
    expect((await call('DELETE', `${EVENTS}/${series.id}`, admin)).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: EVENTS })).statusCode).toBe(401);
  });
});
