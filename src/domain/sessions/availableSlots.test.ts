import { describe, expect, it } from 'vitest';
import { availableSlots, bookingTimes, busyOfEvents, dayRange, isFreeSlot, localInstant, type SlotQuery } from './availableSlots.ts';

const NY = 'America/New_York';
const KOLKATA = 'Asia/Kolkata';
const LONDON = 'Europe/London';

/** Given the tutor's weekly hours in a zone … when asked at `now` … then these slot starts. */
const given = (timeZone: string, ...hours: [number, string, string][]) => {
  const base: Omit<SlotQuery, 'now'> = {
    timeZone,
    weeklyHours: hours.map(([dayOfWeek, startTime, endTime]) => ({ dayOfWeek, startTime, endTime })),
    busy: [],
    booked: [],
  };
  const query = (now: string, extra: Partial<SlotQuery> = {}) => ({ ...base, now, ...extra });
  return {
    whenAskedAt: (now: string, extra: Partial<SlotQuery> = {}) => {
      const slots = availableSlots(query(now, extra));
      return {
        slots,
        thenStarts: (expected: string[]) => expect(slots.map((s) => s.start)).toEqual(expected),
      };
    },
    isFree: (now: string, start: string, extra: Partial<SlotQuery> = {}) => isFreeSlot(query(now, extra), start),
  };
};

describe('available slots: weekly hours minus busy time minus booked sessions', () => {
  it('gives one-hour slots in a New York tutor’s window as UTC instants, each one hour long', () => {
    const { slots } = given(NY, [1, '09:00', '12:00']).whenAskedAt('2026-01-05T05:00:00Z', { days: 1 });
    expect(slots).toEqual([
      { start: '2026-01-05T14:00:00Z', end: '2026-01-05T15:00:00Z' },
      { start: '2026-01-05T15:00:00Z', end: '2026-01-05T16:00:00Z' },
      { start: '2026-01-05T16:00:00Z', end: '2026-01-05T17:00:00Z' },
    ]);
  });

  it('spring forward (2026-03-08, New York): a 00:00–04:00 window holds 3 real hours, 00:00, 01:00 and 03:00 local', () => {
    const sunday = given(NY, [0, '00:00', '04:00']).whenAskedAt('2026-03-07T12:00:00Z', { days: 2 });
    sunday.thenStarts(['2026-03-08T05:00:00Z', '2026-03-08T06:00:00Z', '2026-03-08T07:00:00Z']);
    expect(bookingTimes(sunday.slots, '2026-03-08', NY).map((t) => t.time)).toEqual(['00:00', '01:00', '03:00']);
  });

  it('spring forward: a weekday window keeps its local hours, one hour earlier in UTC after the change', () => {
    given(NY, [5, '09:00', '10:00'], [1, '09:00', '10:00'])
      .whenAskedAt('2026-03-06T05:00:00Z', { days: 4 })
      .thenStarts(['2026-03-06T14:00:00Z', '2026-03-09T13:00:00Z']);
  });

  it('fall back (2026-11-01, New York): a 00:00–03:00 window holds 4 real hours; the grid offers the repeated 01:00 once', () => {
    const sunday = given(NY, [0, '00:00', '03:00']).whenAskedAt('2026-10-31T12:00:00Z', { days: 2 });
    sunday.thenStarts(['2026-11-01T04:00:00Z', '2026-11-01T05:00:00Z', '2026-11-01T06:00:00Z', '2026-11-01T07:00:00Z']);
    const times = bookingTimes(sunday.slots, '2026-11-01', NY);
    expect(times).toEqual([
      { time: '00:00', start: '2026-11-01T04:00:00Z' },
      { time: '01:00', start: '2026-11-01T05:00:00Z' },
      { time: '02:00', start: '2026-11-01T07:00:00Z' },
    ]);
    // The offered 01:00 is the instant a booking of that date and time books.
    expect(localInstant('2026-11-01', '01:00', NY)?.toString()).toBe('2026-11-01T05:00:00Z');
  });

  it('a tutor in London and a student in New York see the same instants; the student’s grid shows them at New York times', () => {
    const { slots } = given(LONDON, [3, '18:00', '20:00']).whenAskedAt('2026-06-01T00:00:00Z', { days: 7 });
    expect(slots.map((s) => s.start)).toEqual(['2026-06-03T17:00:00Z', '2026-06-03T18:00:00Z']);
    expect(bookingTimes(slots, '2026-06-03', NY).map((t) => t.time)).toEqual(['13:00', '14:00']);
  });

  it('a tutor in a half-hour zone (Kolkata) gives slots at :30 UTC; a window past midnight is read on the date it starts', () => {
    given(KOLKATA, [2, '22:00', '24:00'])
      .whenAskedAt('2026-06-01T00:00:00Z', { days: 3 })
      .thenStarts(['2026-06-02T16:30:00Z', '2026-06-02T17:30:00Z']);
  });

  it('drops a slot that a busy interval or a booked session overlaps even partly', () => {
    given(NY, [1, '09:00', '13:00'])
      .whenAskedAt('2026-01-05T05:00:00Z', {
        days: 1,
        busy: [{ start: '2026-01-05T14:30:00Z', end: '2026-01-05T14:45:00Z' }],
        booked: [{ start: '2026-01-05T16:00:00Z', end: '2026-01-05T17:00:00Z' }],
      })
      .thenStarts(['2026-01-05T15:00:00Z', '2026-01-05T17:00:00Z']);
  });

  it('busy time touching a slot’s edges does not block it; overlapping busy intervals merge', () => {
    given(NY, [1, '09:00', '12:00'])
      .whenAskedAt('2026-01-05T05:00:00Z', {
        days: 1,
        busy: [
          { start: '2026-01-05T13:00:00Z', end: '2026-01-05T14:00:00Z' },
          { start: '2026-01-05T15:00:00Z', end: '2026-01-05T15:40:00Z' },
          { start: '2026-01-05T15:30:00Z', end: '2026-01-05T16:00:00Z' },
        ],
      })
      .thenStarts(['2026-01-05T14:00:00Z', '2026-01-05T16:00:00Z']);
  });

  it('never offers a past or already-started hour', () => {
    // 10:30 New York: 09:00 and 10:00 have begun.
    given(NY, [1, '09:00', '12:00']).whenAskedAt('2026-01-05T15:30:00Z', { days: 1 }).thenStarts(['2026-01-05T16:00:00Z']);
    // Exactly 11:00: the 11:00 slot starts now and is still bookable.
    given(NY, [1, '09:00', '12:00']).whenAskedAt('2026-01-05T16:00:00Z', { days: 1 }).thenStarts(['2026-01-05T16:00:00Z']);
  });

  it('the 30-day edge: a slot starting before now + 30 days (tutor’s calendar) is offered, one starting at it is not', () => {
    const everyDay = [0, 1, 2, 3, 4, 5, 6].map((d) => [d, '09:00', '11:00'] as [number, string, string]);
    const now = '2026-01-05T14:30:00Z'; // Monday 09:30 New York
    const { slots } = given(NY, ...everyDay).whenAskedAt(now);
    expect(slots[0]?.start).toBe('2026-01-05T15:00:00Z');
    // 30 days later is 2026-02-04 09:30 New York: its 09:00 slot starts before, its 10:00 after the edge.
    expect(slots.at(-1)?.start).toBe('2026-02-04T14:00:00Z');
    expect(slots).toHaveLength(1 + 29 * 2 + 1);
    expect(given(NY, ...everyDay).isFree(now, '2026-02-04T15:00:00Z')).toBe(false);
    expect(given(NY, ...everyDay).isFree(now, '2026-02-04T14:00:00Z')).toBe(true);
  });

  it('isFreeSlot: only an hour that is one of the slots (on the hour grid, inside the hours, free)', () => {
    const tutor = given(NY, [1, '09:00', '12:00']);
    const now = '2026-01-01T00:00:00Z';
    expect(tutor.isFree(now, '2026-01-05T15:00:00Z')).toBe(true);
    expect(tutor.isFree(now, '2026-01-05T15:30:00Z')).toBe(false);
    expect(tutor.isFree(now, '2026-01-05T17:00:00Z')).toBe(false);
    expect(tutor.isFree(now, '2026-01-05T15:00:00Z', { booked: [{ start: '2026-01-05T15:00:00Z', end: '2026-01-05T16:00:00Z' }] })).toBe(
      false,
    );
    expect(tutor.isFree('2026-01-05T15:00:01Z', '2026-01-05T15:00:00Z')).toBe(false);
  });

  it('one day of the grid: dayRange is the day’s instants in the viewer’s zone, across a DST change too', () => {
    expect(dayRange('2026-03-08', NY)).toEqual({ from: '2026-03-08T05:00:00Z', to: '2026-03-09T04:00:00Z' });
    const tutor = given(NY, [0, '09:00', '11:00'], [1, '09:00', '11:00']);
    tutor.whenAskedAt('2026-03-01T00:00:00Z', dayRange('2026-03-08', NY)).thenStarts(['2026-03-08T13:00:00Z', '2026-03-08T14:00:00Z']);
  });

  it('no weekly hours, no slots', () => {
    given(NY).whenAskedAt('2026-01-05T00:00:00Z').thenStarts([]);
  });
});

describe('busy time from a calendar listing', () => {
  it('counts opaque events (offsets, wall clock with a zone, all-day in the tutor’s zone); skips transparent, cancelled and Topmark’s own session events', () => {
    const busy = busyOfEvents(
      [
        { start: { dateTime: '2026-01-05T10:00:00-05:00' }, end: { dateTime: '2026-01-05T11:00:00-05:00' } },
        {
          start: { dateTime: '2026-01-05T12:00:00', timeZone: 'Europe/London' },
          end: { dateTime: '2026-01-05T13:00:00', timeZone: 'Europe/London' },
        },
        { start: { date: '2026-01-07' }, end: { date: '2026-01-08' } },
        { transparency: 'transparent', start: { dateTime: '2026-01-05T09:00:00Z' }, end: { dateTime: '2026-01-05T17:00:00Z' } },
        { status: 'cancelled', start: { dateTime: '2026-01-05T09:00:00Z' }, end: { dateTime: '2026-01-05T10:00:00Z' } },
        {
          privateProperties: { topmarkSessionId: 's1' },
          start: { dateTime: '2026-01-05T14:00:00Z' },
          end: { dateTime: '2026-01-05T15:00:00Z' },
        },
      ],
      NY,
    );
    expect(busy).toEqual([
      { start: '2026-01-05T15:00:00Z', end: '2026-01-05T16:00:00Z' },
      { start: '2026-01-05T12:00:00Z', end: '2026-01-05T13:00:00Z' },
      { start: '2026-01-07T05:00:00Z', end: '2026-01-08T05:00:00Z' },
    ]);
  });
});
