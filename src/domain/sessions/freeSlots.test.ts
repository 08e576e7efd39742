import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import type { TimeInterval } from '../calendar/availability.ts';
import { type CalendarEventLike, hoursAndBusyOf } from '../calendar/calendarHours.ts';
import { occurrencesBetween } from '../calendar/recurrence.ts';
import { freeSlots, isFreeSlot, rangeNeededFor, type SlotQuery } from './freeSlots.ts';

const NY = 'America/New_York';
const LONDON = 'Europe/London';
const LORD_HOWE = 'Australia/Lord_Howe';
const KOLKATA = 'Asia/Kolkata';
const KIRITIMATI = 'Pacific/Kiritimati';

/** Instances of a series written as the calendar holds it: wall-clock start and end in its zone, RRULE/EXDATE lines. */
function series(zone: string, start: string, end: string, recurrence: string[] | null, from: string, to: string): TimeInterval[] {
  return occurrencesBetween(
    { start: Temporal.PlainDateTime.from(start), end: Temporal.PlainDateTime.from(end), timeZone: zone, recurrence },
    Temporal.Instant.from(from),
    Temporal.Instant.from(to),
  ).map((o) => ({ start: o.start.toString(), end: o.end.toString() }));
}

const local = (instant: string, zone: string) =>
  Temporal.Instant.from(instant).toZonedDateTimeISO(zone).toPlainDateTime().toString({ smallestUnit: 'minute' });

/** Given the tutor's hours (and busy time, booked hours) … when asked at `now` … then these slots. */
function given(timeZone: string, hours: TimeInterval[], rest: Partial<Pick<SlotQuery, 'busy' | 'booked'>> = {}) {
  const base = { timeZone, hours, busy: rest.busy ?? [], booked: rest.booked ?? [] };
  return {
    whenAskedAt(now: string, range: { from?: string; to?: string; days?: number } = {}) {
      const slots = freeSlots({ ...base, now, ...range });
      return {
        slots,
        thenLocalStarts: (expected: string[]) => expect(slots.map((s) => local(s.start, timeZone))).toEqual(expected),
        /** What the grid offers is exactly what a booking of that hour accepts. */
        thenEveryOneIsBookable: () => {
          for (const s of slots) expect(isFreeSlot({ ...base, now }, s.start), s.start).toBe(true);
        },
      };
    },
  };
}

describe('free slots: Topmark Hours instances minus busy time minus held hours', () => {
  it('cuts an instance into one-hour slots from its start, as UTC instants an hour long', () => {
    const hours = series(NY, '2026-01-05T09:00', '2026-01-05T12:00', null, '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z');
    const { slots } = given(NY, hours).whenAskedAt('2026-01-05T05:00:00Z');
    expect(slots).toEqual([
      { start: '2026-01-05T14:00:00Z', end: '2026-01-05T15:00:00Z' },
      { start: '2026-01-05T15:00:00Z', end: '2026-01-05T16:00:00Z' },
      { start: '2026-01-05T16:00:00Z', end: '2026-01-05T17:00:00Z' },
    ]);
  });

  it('22:30–01:30 across midnight, one event: 22:30, 23:30 and 00:30 are offered, and each is bookable', () => {
    const hours = series(NY, '2026-01-05T22:30', '2026-01-06T01:30', null, '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z');
    const when = given(NY, hours).whenAskedAt('2026-01-05T12:00:00Z');
    when.thenLocalStarts(['2026-01-05T22:30', '2026-01-05T23:30', '2026-01-06T00:30']);
    when.thenEveryOneIsBookable();
  });

  it('22:30–24:00 and 00:00–01:30 as two events: 23:30 runs from one into the other; 00:00 starts the second', () => {
    const hours = [
      ...series(NY, '2026-01-05T22:30', '2026-01-06T00:00', null, '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'),
      ...series(NY, '2026-01-06T00:00', '2026-01-06T01:30', null, '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'),
    ];
    const when = given(NY, hours).whenAskedAt('2026-01-05T12:00:00Z');
    when.thenLocalStarts(['2026-01-05T22:30', '2026-01-05T23:30', '2026-01-06T00:00']);
    when.thenEveryOneIsBookable();
    // Asking about 23:30 alone, with only the events that overlap that hour, gives the same answer.
    const at = '2026-01-06T04:30:00Z';
    const range = rangeNeededFor(at, at);
    const near = hours.filter((h) => h.start < range.end && h.end > range.start);
    expect(isFreeSlot({ timeZone: NY, hours: near, busy: [], booked: [], now: '2026-01-05T12:00:00Z' }, at)).toBe(true);
  });

  it('fall back in New York (2026-11-01): a 00:00–04:00 series holds 5 hours, both 01:00s among them', () => {
    const hours = series(
      NY,
      '2026-10-25T00:00',
      '2026-10-25T04:00',
      ['RRULE:FREQ=WEEKLY;BYDAY=SU'],
      '2026-10-31T00:00:00Z',
      '2026-11-03T00:00:00Z',
    );
    const when = given(NY, hours).whenAskedAt('2026-10-31T12:00:00Z', { days: 3 });
    expect(when.slots.map((s) => s.start)).toEqual([
      '2026-11-01T04:00:00Z', // 00:00 EDT
      '2026-11-01T05:00:00Z', // 01:00 EDT
      '2026-11-01T06:00:00Z', // 01:00 EST, the second
      '2026-11-01T07:00:00Z', // 02:00 EST
      '2026-11-01T08:00:00Z', // 03:00 EST
    ]);
    when.thenEveryOneIsBookable();
  });

  it('spring forward in New York (2026-03-08): the same series holds 3 hours; 02:00 does not exist', () => {
    const hours = series(
      NY,
      '2026-03-01T00:00',
      '2026-03-01T04:00',
      ['RRULE:FREQ=WEEKLY;BYDAY=SU'],
      '2026-03-07T00:00:00Z',
      '2026-03-10T00:00:00Z',
    );
    given(NY, hours)
      .whenAskedAt('2026-03-07T12:00:00Z', { days: 3 })
      .thenLocalStarts(['2026-03-08T00:00', '2026-03-08T01:00', '2026-03-08T03:00']);
  });

  it('London, both nights: 00:00–03:00 holds 4 hours when the clocks go back (2026-10-25) and 2 when they go forward (2026-03-29)', () => {
    const back = series(LONDON, '2026-10-25T00:00', '2026-10-25T03:00', null, '2026-10-24T00:00:00Z', '2026-10-27T00:00:00Z');
    expect(given(LONDON, back).whenAskedAt('2026-10-24T12:00:00Z').slots).toHaveLength(4);
    const forward = series(LONDON, '2026-03-29T00:00', '2026-03-29T03:00', null, '2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z');
    given(LONDON, forward).whenAskedAt('2026-03-28T12:00:00Z').thenLocalStarts(['2026-03-29T00:00', '2026-03-29T02:00']);
  });

  it('Lord Howe’s 30-minute change (2026-04-05, 02:00 → 01:30): a 24-hour tutor’s every offered hour is bookable', () => {
    const hours = series(
      LORD_HOWE,
      '2026-04-01T00:00',
      '2026-04-02T00:00',
      ['RRULE:FREQ=DAILY'],
      '2026-04-03T00:00:00Z',
      '2026-04-09T00:00:00Z',
    );
    const when = given(LORD_HOWE, hours).whenAskedAt('2026-04-03T00:00:00Z', { days: 5 });
    when.thenEveryOneIsBookable();
    // The change day is 24.5 hours long: its instance holds 24 whole hours from 00:00, and the next
    // day's starts at its own midnight, half an hour after the last of them ended.
    const changeDay = when.slots.filter((s) => local(s.start, LORD_HOWE).startsWith('2026-04-05'));
    expect(changeDay).toHaveLength(25);
    expect(local(changeDay[0]?.start ?? '', LORD_HOWE)).toBe('2026-04-05T00:00');
  });

  it('Kolkata (+05:30, no daylight saving): 09:00–11:00 is 03:30–05:30 UTC', () => {
    const hours = series(KOLKATA, '2026-01-05T09:00', '2026-01-05T11:00', null, '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z');
    expect(
      given(KOLKATA, hours)
        .whenAskedAt('2026-01-04T00:00:00Z')
        .slots.map((s) => s.start),
    ).toEqual(['2026-01-05T03:30:00Z', '2026-01-05T04:30:00Z']);
  });

  it('a date-line zone (Kiritimati, +14): a Monday morning there is Sunday afternoon in UTC', () => {
    const hours = series(KIRITIMATI, '2026-01-05T08:00', '2026-01-05T10:00', null, '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z');
    expect(
      given(KIRITIMATI, hours)
        .whenAskedAt('2026-01-03T00:00:00Z')
        .slots.map((s) => s.start),
    ).toEqual(['2026-01-04T18:00:00Z', '2026-01-04T19:00:00Z']);
  });

  it('a weekly series with an EXDATE (a day off) and UNTIL offers neither the day off nor anything after the end', () => {
    const hours = series(
      NY,
      '2026-01-05T09:00',
      '2026-01-05T10:00',
      ['RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260126T235959Z', 'EXDATE;TZID=America/New_York:20260112T090000'],
      '2026-01-01T00:00:00Z',
      '2026-03-01T00:00:00Z',
    );
    given(NY, hours)
      .whenAskedAt('2026-01-04T00:00:00Z', { days: 60 })
      .thenLocalStarts(['2026-01-05T09:00', '2026-01-19T09:00', '2026-01-26T09:00']);
  });

  it('reads a calendar as a tutor keeps it: a hand-made opaque "topmark  hours" is hours, a free event inside them blocks nothing, a busy one does', () => {
    const events: CalendarEventLike[] = [
      {
        summary: ' topmark  hours ',
        transparency: 'opaque',
        start: { dateTime: '2026-01-05T09:00:00-05:00' },
        end: { dateTime: '2026-01-05T13:00:00-05:00' },
      },
      {
        summary: 'Lunch (free)',
        transparency: 'transparent',
        start: { dateTime: '2026-01-05T10:00:00-05:00' },
        end: { dateTime: '2026-01-05T11:00:00-05:00' },
      },
      {
        summary: 'Dentist',
        start: { dateTime: '2026-01-05T11:15:00', timeZone: NY },
        end: { dateTime: '2026-01-05T11:45:00', timeZone: NY },
      },
      {
        summary: 'Cancelled call',
        status: 'cancelled',
        start: { dateTime: '2026-01-05T09:00:00-05:00' },
        end: { dateTime: '2026-01-05T10:00:00-05:00' },
      },
      {
        summary: 'Tutoring: Sam',
        privateProperties: { topmarkSessionId: 's1' },
        start: { dateTime: '2026-01-05T12:00:00-05:00' },
        end: { dateTime: '2026-01-05T13:00:00-05:00' },
      },
    ];
    const { hours, busy } = hoursAndBusyOf(events, NY);
    expect(hours).toEqual([{ start: '2026-01-05T14:00:00Z', end: '2026-01-05T18:00:00Z' }]);
    expect(busy).toEqual([{ start: '2026-01-05T16:15:00Z', end: '2026-01-05T16:45:00Z' }]);
    given(NY, hours, { busy })
      .whenAskedAt('2026-01-05T05:00:00Z')
      .thenLocalStarts(['2026-01-05T09:00', '2026-01-05T10:00', '2026-01-05T12:00']);
  });

  it('an all-day "Topmark Hours" is a whole day of hours in the tutor’s zone; an all-day busy event blocks the whole day', () => {
    const allDay: CalendarEventLike = { summary: 'Topmark Hours', start: { date: '2026-01-07' }, end: { date: '2026-01-08' } };
    expect(hoursAndBusyOf([allDay], NY).hours).toEqual([{ start: '2026-01-07T05:00:00Z', end: '2026-01-08T05:00:00Z' }]);
    expect(given(NY, hoursAndBusyOf([allDay], NY).hours).whenAskedAt('2026-01-06T00:00:00Z').slots).toHaveLength(24);
    const away: CalendarEventLike = { summary: 'Away', start: { date: '2026-01-07' }, end: { date: '2026-01-08' } };
    const { hours, busy } = hoursAndBusyOf([allDay, away], NY);
    expect(given(NY, hours, { busy }).whenAskedAt('2026-01-06T00:00:00Z').slots).toEqual([]);
  });

  it('never an hour already started, nothing past 30 days, nothing a session holds or a busy event touches even partly', () => {
    const hours = series(NY, '2026-01-05T09:00', '2026-01-05T13:00', ['RRULE:FREQ=DAILY'], '2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z');
    const when = given(NY, hours, {
      booked: [{ start: '2026-01-06T15:00:00Z', end: '2026-01-06T16:00:00Z' }],
      busy: [{ start: '2026-01-06T16:59:00Z', end: '2026-01-06T17:01:00Z' }],
    }).whenAskedAt('2026-01-05T14:30:00Z');
    const starts = when.slots.map((s) => local(s.start, NY));
    expect(starts.slice(0, 6)).toEqual([
      '2026-01-05T10:00',
      '2026-01-05T11:00',
      '2026-01-05T12:00',
      '2026-01-06T09:00',
      // 10:00 is held; 11:59–12:01 touches both 11:00 and 12:00
      '2026-01-07T09:00',
      '2026-01-07T10:00',
    ]);
    expect(starts.at(-1)).toBe('2026-02-04T09:00');
  });
});

describe('free slots, property: what is offered is exactly what can be booked', () => {
  const zones = [NY, LONDON, LORD_HOWE, KOLKATA, KIRITIMATI, 'Pacific/Chatham', 'America/St_Johns', 'UTC'];
  const BASE = Date.parse('2026-10-30T00:00:00Z'); // spans New York's and London's fall-back nights
  const QUARTER = 15 * 60_000;
  const interval = (maxStartQuarters: number, maxLengthQuarters: number) =>
    fc
      .tuple(fc.integer({ min: 0, max: maxStartQuarters }), fc.integer({ min: 1, max: maxLengthQuarters }))
      .map(([s, l]) => ({ start: new Date(BASE + s * QUARTER).toISOString(), end: new Date(BASE + (s + l) * QUARTER).toISOString() }));
  const DAYS = 5;
  const quarters = DAYS * 96;
  const overlapping = (intervals: readonly TimeInterval[], range: TimeInterval) =>
    intervals.filter((i) => Date.parse(i.start) < Date.parse(range.end) && Date.parse(i.end) > Date.parse(range.start));

  it('every slot a day grid offers is accepted by a booking that sees only its own hour’s events, and every hour a booking accepts is in its day’s grid', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.array(interval(quarters, 48), { maxLength: 8 }),
        fc.array(interval(quarters, 12), { maxLength: 6 }),
        fc.array(interval(quarters, 4), { maxLength: 4 }),
        fc.integer({ min: 0, max: quarters / 2 }),
        (zone, hours, busy, booked, nowQuarter) => {
          const now = new Date(BASE + nowQuarter * QUARTER).toISOString();
          const base = { timeZone: zone, now };
          const subset = (range: TimeInterval) => ({
            hours: overlapping(hours, range),
            busy: overlapping(busy, range),
            booked: overlapping(booked, range),
          });
          const bookable = (start: string) => isFreeSlot({ ...base, ...subset(rangeNeededFor(start, start)) }, start);
          const firstDay = Temporal.Instant.fromEpochMilliseconds(BASE).toZonedDateTimeISO(zone).toPlainDate().subtract({ days: 1 });
          const offered = new Set<string>();
          for (let d = 0; d <= DAYS + 1; d++) {
            const day = firstDay.add({ days: d });
            const from = day.toZonedDateTime({ timeZone: zone }).toInstant().toString();
            const to = day.add({ days: 1 }).toZonedDateTime({ timeZone: zone }).toInstant().toString();
            for (const slot of freeSlots({ ...base, ...subset(rangeNeededFor(from, to)), from, to })) {
              expect(bookable(slot.start), `${zone} ${slot.start}`).toBe(true);
              offered.add(Date.parse(slot.start).toString());
            }
          }
          // Every candidate start (each instance's start and each quarter hour) that a booking accepts was offered.
          const candidates = [
            ...hours.map((h) => h.start),
            ...Array.from({ length: quarters }, (_, q) => new Date(BASE + q * QUARTER).toISOString()),
          ];
          for (const start of candidates)
            if (bookable(start)) expect(offered.has(Date.parse(start).toString()), `${zone} ${start}`).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });
});
