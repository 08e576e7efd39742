import { describe, expect, it } from 'vitest';
import {
  availableSlots,
  EndBeforeStartError,
  type HoursEventLike,
  InvalidDayOfWeekError,
  InvalidTimeError,
  InvalidTimeZoneError,
  isTopmarkHours,
  localTimeOf,
  partitionEvents,
  recurringEventsToWeeklyHours,
  slotsOnDate,
  TOPMARK_HOURS,
  validateWeeklyHours,
  weeklyHoursToRecurringEvents,
} from './availability.ts';

const NY = 'America/New_York';
const LONDON = 'Europe/London';

/** Weekly hours as the tutor enters them, written as the recurring events and expanded back. */
const hours = (timeZone: string, startsOn: string, ...entries: [number, string, string][]) =>
  weeklyHoursToRecurringEvents(
    entries.map(([dayOfWeek, startTime, endTime]) => ({ dayOfWeek, startTime, endTime })),
    timeZone,
    { startsOn },
  );
const starts = (slots: { start: string }[]) => slots.map((s) => s.start);
const local = (slots: { start: string }[], zone: string) => slots.map((s) => localTimeOf(s.start, zone));

describe('free slots from Topmark Hours', () => {
  it('keeps a New York tutor at 09:00–12:00 local across the March change (2026-03-08)', () => {
    const slots = availableSlots({
      timeZone: NY,
      hours: hours(NY, '2026-03-02', [1, '09:00', '12:00'], [3, '09:00', '12:00']),
      busy: [],
      now: '2026-03-02T05:00:00Z', // Monday 00:00 EST
      days: 14,
    });
    expect(starts(slots)).toEqual([
      // EST (UTC-5)
      '2026-03-02T14:00:00Z',
      '2026-03-02T15:00:00Z',
      '2026-03-02T16:00:00Z',
      '2026-03-04T14:00:00Z',
      '2026-03-04T15:00:00Z',
      '2026-03-04T16:00:00Z',
      // EDT (UTC-4) from Sunday 2026-03-08
      '2026-03-09T13:00:00Z',
      '2026-03-09T14:00:00Z',
      '2026-03-09T15:00:00Z',
      '2026-03-11T13:00:00Z',
      '2026-03-11T14:00:00Z',
      '2026-03-11T15:00:00Z',
      // 14 days end at Monday 2026-03-16 00:00 New York time: nothing of that Monday.
    ]);
    expect(new Set(local(slots, NY))).toEqual(new Set(['09:00', '10:00', '11:00']));
    expect(slots[0]).toEqual({ start: '2026-03-02T14:00:00Z', end: '2026-03-02T15:00:00Z' });
  });

  it('keeps 09:00 local across the November change (2026-11-01)', () => {
    const slots = availableSlots({
      timeZone: NY,
      hours: hours(NY, '2026-10-01', [1, '09:00', '10:00']),
      busy: [],
      now: '2026-10-26T04:00:00Z',
      days: 8,
    });
    expect(starts(slots)).toEqual(['2026-10-26T13:00:00Z', '2026-11-02T14:00:00Z']);
    expect(local(slots, NY)).toEqual(['09:00', '09:00']);
  });

  it('cuts the change nights themselves into real hours: 23 hours in March, 25 in November', () => {
    const march = availableSlots({
      timeZone: NY,
      hours: hours(NY, '2026-03-01', [0, '00:00', '05:00']),
      busy: [],
      now: '2026-03-08T04:00:00Z',
      days: 1,
    });
    // 00:00–05:00 on 2026-03-08 lasts four hours: 02:00 never happens.
    expect(starts(march)).toEqual(['2026-03-08T05:00:00Z', '2026-03-08T06:00:00Z', '2026-03-08T07:00:00Z', '2026-03-08T08:00:00Z']);
    expect(local(march, NY)).toEqual(['00:00', '01:00', '03:00', '04:00']);

    const november = availableSlots({
      timeZone: NY,
      hours: hours(NY, '2026-10-25', [0, '00:00', '03:00']),
      busy: [],
      now: '2026-11-01T03:00:00Z',
      days: 1,
    });
    // 00:00–03:00 on 2026-11-01 lasts four hours: 01:00 happens twice.
    expect(starts(november)).toEqual(['2026-11-01T04:00:00Z', '2026-11-01T05:00:00Z', '2026-11-01T06:00:00Z', '2026-11-01T07:00:00Z']);
    expect(local(november, NY)).toEqual(['00:00', '01:00', '01:00', '02:00']);
  });

  it('expands a London tutor across 2026-03-29 and 2026-10-25', () => {
    const spring = availableSlots({
      timeZone: LONDON,
      hours: hours(LONDON, '2026-03-01', [1, '09:00', '10:00'], [0, '00:00', '03:00']),
      busy: [],
      now: '2026-03-22T12:00:00Z',
      days: 9,
    });
    expect(starts(spring)).toEqual([
      '2026-03-23T09:00:00Z', // Monday, GMT
      '2026-03-29T00:00:00Z', // Sunday of the change: 00:00 GMT, then 02:00 BST (01:00 is skipped)
      '2026-03-29T01:00:00Z',
      '2026-03-30T08:00:00Z', // Monday, BST
    ]);
    expect(local(spring, LONDON)).toEqual(['09:00', '00:00', '02:00', '09:00']);

    const autumn = availableSlots({
      timeZone: LONDON,
      hours: hours(LONDON, '2026-10-01', [1, '09:00', '10:00'], [0, '00:00', '03:00']),
      busy: [],
      now: '2026-10-19T00:00:00Z',
      days: 8,
    });
    expect(starts(autumn)).toEqual([
      '2026-10-19T08:00:00Z', // Monday, BST
      '2026-10-24T23:00:00Z', // Sunday 2026-10-25 00:00 BST
      '2026-10-25T00:00:00Z', // 01:00 BST
      '2026-10-25T01:00:00Z', // 01:00 GMT (again)
      '2026-10-25T02:00:00Z', // 02:00 GMT
      '2026-10-26T09:00:00Z', // Monday, GMT
    ]);
  });

  it('gives a student in another zone the same instants, on their own dates and clock', () => {
    const slots = availableSlots({
      timeZone: NY,
      hours: hours(NY, '2026-03-02', [1, '20:00', '22:00']),
      busy: [],
      now: '2026-03-02T12:00:00Z',
      days: 2,
    });
    expect(starts(slots)).toEqual(['2026-03-03T01:00:00Z', '2026-03-03T02:00:00Z']);
    // Monday evening in New York is Tuesday morning in Tokyo.
    expect(slotsOnDate(slots, '2026-03-02', NY)).toHaveLength(2);
    expect(slotsOnDate(slots, '2026-03-02', 'Asia/Tokyo')).toHaveLength(0);
    expect(slotsOnDate(slots, '2026-03-03', 'Asia/Tokyo')).toEqual(slots);
    expect(local(slots, 'Asia/Tokyo')).toEqual(['10:00', '11:00']);
    expect(local(slots, NY)).toEqual(['20:00', '21:00']);
  });

  it('removes every slot a busy event touches, even partly, and keeps slots that only meet one', () => {
    const query = {
      timeZone: NY,
      hours: hours(NY, '2026-03-02', [2, '09:00', '17:00']),
      now: '2026-03-03T05:00:00Z',
      days: 1,
    };
    const free = (busy: { start: string; end: string }[]) => local(availableSlots({ ...query, busy }), NY);
    expect(free([])).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00']);
    // 10:30–11:15 overlaps the 10:00 and the 11:00 slot.
    expect(free([{ start: '2026-03-03T10:30:00-05:00', end: '2026-03-03T11:15:00-05:00' }])).toEqual([
      '09:00',
      '12:00',
      '13:00',
      '14:00',
      '15:00',
      '16:00',
    ]);
    // Exactly 12:00–13:00 (given in UTC): only that slot; events before and after the window change nothing.
    expect(
      free([
        { start: '2026-03-03T17:00:00Z', end: '2026-03-03T18:00:00Z' },
        { start: '2026-03-03T07:00:00-05:00', end: '2026-03-03T09:00:00-05:00' },
        { start: '2026-03-03T17:00:00-05:00', end: '2026-03-03T19:00:00-05:00' },
      ]),
    ).toEqual(['09:00', '10:00', '11:00', '13:00', '14:00', '15:00', '16:00']);
    // An event over the window's start and one over its end (given in London time).
    expect(
      free([
        { start: '2026-03-03T08:00:00-05:00', end: '2026-03-03T09:01:00-05:00' },
        { start: '2026-03-03T20:59:00+00:00', end: '2026-03-03T23:00:00+00:00' },
      ]),
    ).toEqual(['10:00', '11:00', '12:00', '13:00', '14:00']);
    // A whole-day event blocks everything.
    expect(free([{ start: '2026-03-03T05:00:00Z', end: '2026-03-04T05:00:00Z' }])).toEqual([]);
  });

  it('never offers a slot that has started: the first is the next whole slot of the window', () => {
    const query = { timeZone: NY, hours: hours(NY, '2026-03-02', [2, '09:00', '13:00']), busy: [], days: 1 };
    expect(local(availableSlots({ ...query, now: '2026-03-03T10:20:00-05:00' }), NY)).toEqual(['11:00', '12:00']);
    expect(local(availableSlots({ ...query, now: '2026-03-03T10:00:00-05:00' }), NY)).toEqual(['10:00', '11:00', '12:00']);
    expect(local(availableSlots({ ...query, now: new Date('2026-03-03T17:59:59Z') }), NY)).toEqual([]);
    expect(availableSlots({ ...query, now: '2026-03-03T12:30:00-05:00', days: 7 })[0]?.start).toBe('2026-03-10T13:00:00Z');
  });

  it('merges overlapping windows, adds one-off windows, and drops the part of a window shorter than a slot', () => {
    const slots = availableSlots({
      timeZone: NY,
      hours: [...hours(NY, '2026-03-02', [2, '09:00', '11:00']), ...hours(NY, '2026-03-02', [2, '10:00', '12:30'])],
      windows: [{ start: '2026-03-04T15:00:00-05:00', end: '2026-03-04T16:00:00-05:00' }],
      busy: [],
      now: '2026-03-03T05:00:00Z',
      days: 2,
    });
    expect(local(slots, NY)).toEqual(['09:00', '10:00', '11:00', '15:00']);
  });

  it('reads a Google listing: Topmark Hours are windows, opaque events are busy, transparent and cancelled ones are not', () => {
    const { windows, busy } = partitionEvents([
      { summary: 'Topmark Hours', start: '2026-03-03T14:00:00Z', end: '2026-03-03T18:00:00Z', transparent: true },
      { summary: '  topmark   HOURS ', start: '2026-03-04T14:00:00Z', end: '2026-03-04T15:00:00Z' },
      { summary: 'Dentist', start: '2026-03-03T15:00:00Z', end: '2026-03-03T16:00:00Z' },
      { summary: 'Reminder', start: '2026-03-03T16:00:00Z', end: '2026-03-03T17:00:00Z', transparent: true },
      { summary: 'Old', start: '2026-03-03T17:00:00Z', end: '2026-03-03T18:00:00Z', cancelled: true },
    ]);
    expect(windows).toHaveLength(2);
    expect(busy).toEqual([{ start: '2026-03-03T15:00:00Z', end: '2026-03-03T16:00:00Z' }]);
    const slots = availableSlots({ timeZone: NY, windows, busy, now: '2026-03-03T00:00:00Z', days: 3 });
    expect(starts(slots)).toEqual(['2026-03-03T14:00:00Z', '2026-03-03T16:00:00Z', '2026-03-03T17:00:00Z', '2026-03-04T14:00:00Z']);
    expect(isTopmarkHours('Topmark Hours (Math)')).toBe(false);
  });

  it('expands hours stored in another zone than the tutor’s in their own zone', () => {
    const londonHours = hours(LONDON, '2026-03-23', [1, '09:00', '10:00']);
    const slots = availableSlots({ timeZone: NY, hours: londonHours, busy: [], now: '2026-03-23T00:00:00Z', days: 8 });
    expect(starts(slots)).toEqual(['2026-03-23T09:00:00Z', '2026-03-30T08:00:00Z']);
  });
});

describe('weekly hours ⇄ recurring "Topmark Hours" events', () => {
  it('writes one weekly series per time range, starting on the first matching day', () => {
    const events = weeklyHoursToRecurringEvents(
      [
        { dayOfWeek: 1, startTime: '09:00', endTime: '12:00' },
        { dayOfWeek: 3, startTime: '09:00', endTime: '12:00' },
        { dayOfWeek: 0, startTime: '18:00', endTime: '24:00' },
        { dayOfWeek: 1, startTime: '09:00', endTime: '12:00' },
      ],
      NY,
      { startsOn: '2026-03-04' }, // a Wednesday
    );
    expect(events).toEqual([
      {
        summary: TOPMARK_HOURS,
        start: { dateTime: '2026-03-04T09:00:00', timeZone: NY },
        end: { dateTime: '2026-03-04T12:00:00', timeZone: NY },
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE'],
        transparency: 'transparent',
        privateProperties: { topmark: 'hours' },
      },
      {
        summary: TOPMARK_HOURS,
        start: { dateTime: '2026-03-08T18:00:00', timeZone: NY },
        end: { dateTime: '2026-03-09T00:00:00', timeZone: NY },
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=SU'],
        transparency: 'transparent',
        privateProperties: { topmark: 'hours' },
      },
    ]);
  });

  it('reads the weekly hours back from the events, as written', () => {
    const entered = [
      { dayOfWeek: 0, startTime: '18:00', endTime: '24:00' },
      { dayOfWeek: 1, startTime: '09:00', endTime: '12:00' },
      { dayOfWeek: 3, startTime: '09:00', endTime: '12:00' },
      { dayOfWeek: 6, startTime: '07:30', endTime: '08:45' },
    ];
    const events = weeklyHoursToRecurringEvents(entered, LONDON, { startsOn: '2026-03-25' });
    expect(recurringEventsToWeeklyHours(events, { timeZone: NY })).toEqual(entered.map((h) => ({ ...h, timeZone: LONDON })));
  });

  it('reads events as Google returns them: offsets, other summaries, single events, ended and daily series, past midnight', () => {
    const events: (HoursEventLike & { summary: string })[] = [
      // Google answers with the offset of DTSTART: still 09:00 New York time.
      {
        summary: 'Topmark Hours',
        start: { dateTime: '2026-03-02T09:00:00-05:00', timeZone: NY },
        end: { dateTime: '2026-03-02T10:00:00-05:00', timeZone: NY },
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO'],
      },
      {
        summary: 'Topmark Hours',
        start: { dateTime: '2026-03-06T22:00:00-05:00', timeZone: NY },
        end: { dateTime: '2026-03-07T01:00:00-05:00', timeZone: NY },
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=FR'],
      },
      {
        summary: 'Topmark Hours',
        start: { dateTime: '2026-01-05T12:00:00-05:00', timeZone: NY },
        end: { dateTime: '2026-01-05T13:00:00-05:00', timeZone: NY },
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260201T000000Z'],
      },
      {
        summary: 'Topmark Hours',
        start: { dateTime: '2026-03-04T15:00:00Z' },
        end: { dateTime: '2026-03-04T16:00:00Z' },
        recurrence: ['RRULE:FREQ=DAILY;BYDAY=TU,TH'],
      },
      { summary: 'Topmark Hours', start: { dateTime: '2026-03-10T09:00:00-04:00' }, end: { dateTime: '2026-03-10T10:00:00-04:00' } },
      {
        summary: 'Piano',
        start: { dateTime: '2026-03-02T09:00:00-05:00', timeZone: NY },
        end: { dateTime: '2026-03-02T10:00:00-05:00', timeZone: NY },
        recurrence: ['RRULE:FREQ=WEEKLY'],
      },
    ];
    expect(recurringEventsToWeeklyHours(events, { timeZone: NY, asOf: '2026-03-01' })).toEqual([
      { dayOfWeek: 1, startTime: '09:00', endTime: '10:00', timeZone: NY },
      { dayOfWeek: 2, startTime: '10:00', endTime: '11:00', timeZone: NY },
      { dayOfWeek: 4, startTime: '10:00', endTime: '11:00', timeZone: NY },
      { dayOfWeek: 5, startTime: '22:00', endTime: '24:00', timeZone: NY },
      { dayOfWeek: 6, startTime: '00:00', endTime: '01:00', timeZone: NY },
    ]);
  });

  it('refuses a day outside 0–6, a malformed time and an end not after the start, naming the field', () => {
    const attempt = (entry: { dayOfWeek: number; startTime: string; endTime: string }) => () =>
      weeklyHoursToRecurringEvents([{ dayOfWeek: 1, startTime: '09:00', endTime: '10:00' }, entry], NY, { startsOn: '2026-03-02' });
    expect(attempt({ dayOfWeek: 7, startTime: '09:00', endTime: '10:00' })).toThrow(InvalidDayOfWeekError);
    expect(attempt({ dayOfWeek: -1, startTime: '09:00', endTime: '10:00' })).toThrow(InvalidDayOfWeekError);
    expect(attempt({ dayOfWeek: 1.5, startTime: '09:00', endTime: '10:00' })).toThrow(InvalidDayOfWeekError);
    for (const bad of ['9:00', '09:60', '24:00', '25:00', '09:00:00', 'nine', '']) {
      expect(attempt({ dayOfWeek: 1, startTime: bad, endTime: '23:00' }), bad).toThrow(InvalidTimeError);
    }
    expect(attempt({ dayOfWeek: 1, startTime: '09:00', endTime: '24:01' })).toThrow(InvalidTimeError);
    expect(attempt({ dayOfWeek: 1, startTime: '10:00', endTime: '09:00' })).toThrow(EndBeforeStartError);
    expect(attempt({ dayOfWeek: 1, startTime: '10:00', endTime: '10:00' })).toThrow(EndBeforeStartError);
    expect(attempt({ dayOfWeek: 1, startTime: '10:00', endTime: '10:00' })).toThrow('availability[1].endTime must be after startTime');
    expect(() => validateWeeklyHours([{ dayOfWeek: 9, startTime: '09:00', endTime: '10:00' }])).toThrow(
      'availability[0].dayOfWeek must be a whole number from 0 (Sunday) to 6 (Saturday)',
    );
    expect(() => weeklyHoursToRecurringEvents([], 'Mars/Olympus', { startsOn: '2026-03-02' })).toThrow(InvalidTimeZoneError);
    const error = (() => {
      try {
        validateWeeklyHours([{ dayOfWeek: 2, startTime: '08:00', endTime: '7:00' }]);
      } catch (e) {
        return e as InvalidTimeError;
      }
    })();
    expect(error).toMatchObject({ name: 'InvalidTimeError', kind: 'invalid', field: 'availability[0].endTime' });
  });
});
