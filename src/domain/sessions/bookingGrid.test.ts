import { describe, expect, it } from 'vitest';
import { bookingTimes, dayRange, localInstant } from './bookingGrid.ts';

const NY = 'America/New_York';
const hour = (start: string) => ({ start, end: new Date(Date.parse(start) + 3_600_000).toISOString() });

describe('the booking grid: one date’s slots as wall-clock times', () => {
  it('fall back (2026-11-01, New York): both 01:00s are offered, each labelled with its zone and booked by its instant', () => {
    const slots = ['2026-11-01T04:00:00Z', '2026-11-01T05:00:00Z', '2026-11-01T06:00:00Z', '2026-11-01T07:00:00Z'].map(hour);
    expect(bookingTimes(slots, '2026-11-01', NY)).toEqual([
      { time: '00:00', start: '2026-11-01T04:00:00Z', label: '00:00' },
      { time: '01:00', start: '2026-11-01T05:00:00Z', label: '01:00 EDT' },
      { time: '01:00', start: '2026-11-01T06:00:00Z', label: '01:00 EST' },
      { time: '02:00', start: '2026-11-01T07:00:00Z', label: '02:00' },
    ]);
    // A date and time alone means the earlier 01:00.
    expect(localInstant('2026-11-01', '01:00', NY)?.toString()).toBe('2026-11-01T05:00:00Z');
  });

  it('a London tutor’s slots show at New York times in the grid, and only those starting on the asked New York date', () => {
    const slots = ['2026-06-03T17:00:00Z', '2026-06-03T18:00:00Z', '2026-06-04T04:30:00Z'].map(hour);
    expect(bookingTimes(slots, '2026-06-03', NY).map((t) => t.label)).toEqual(['13:00', '14:00']);
    expect(bookingTimes(slots, '2026-06-04', NY).map((t) => t.label)).toEqual(['00:30']);
  });

  it('dayRange is the day’s instants in the viewer’s zone, across a DST change too', () => {
    expect(dayRange('2026-03-08', NY)).toEqual({ from: '2026-03-08T05:00:00Z', to: '2026-03-09T04:00:00Z' });
    expect(dayRange('2026-11-01', NY)).toEqual({ from: '2026-11-01T04:00:00Z', to: '2026-11-02T05:00:00Z' });
  });

  it('localInstant: a skipped time moves forward, a malformed one is null', () => {
    expect(localInstant('2026-03-08', '02:30', NY)?.toString()).toBe('2026-03-08T07:30:00Z');
    expect(localInstant('2026-02-30', '10:00', NY)).toBeNull();
    expect(localInstant('2026-01-05', '25:00', NY)).toBeNull();
  });
});
