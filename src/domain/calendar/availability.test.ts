import { describe, expect, it } from 'vitest';
import {
  EndBeforeStartError,
  type HoursEventLike,
  InvalidDayOfWeekError,
  InvalidTimeError,
  InvalidTimeZoneError,
  isTopmarkHours,
  recurringEventsToWeeklyHours,
  TOPMARK_HOURS,
  validateWeeklyHours,
  weeklyHoursToRecurringEvents,
} from './availability.ts';

const NY = 'America/New_York';
const LONDON = 'Europe/London';

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

describe('the "Topmark Hours" summary', () => {
  it('matches ignoring case and spacing, and nothing longer', () => {
    expect(isTopmarkHours('  topmark   HOURS ')).toBe(true);
    expect(isTopmarkHours('Topmark Hours (Math)')).toBe(false);
    expect(isTopmarkHours(null)).toBe(false);
  });
});
