import { describe, expect, it } from 'vitest';
import {
  billingPeriodOf,
  billingPeriodOfDay,
  isBillingPeriodStart,
  nextBillingPeriod,
  previousBillingPeriod,
  weekOf,
} from './billingPeriod.ts';

const NY = 'America/New_York';

describe('billing periods: 1st–15th and 16th–end of month, in the tutor zone', () => {
  it('the 15th is in the first half, the 16th in the second', () => {
    expect(billingPeriodOf(new Date('2026-11-15T23:00:00-05:00'), NY)).toEqual({
      start: new Date('2026-11-01T00:00:00-04:00'), // still daylight time on Nov 1st at midnight
      end: new Date('2026-11-16T00:00:00-05:00'),
      firstDay: '2026-11-01',
      lastDay: '2026-11-15',
    });
    expect(billingPeriodOf(new Date('2026-11-16T00:00:00-05:00'), NY)).toMatchObject({ firstDay: '2026-11-16', lastDay: '2026-11-30' });
  });

  it('the second half ends on the month last day: 28, 29, 30 or 31', () => {
    expect(billingPeriodOf(new Date('2026-02-20T12:00:00Z'), NY)).toMatchObject({ firstDay: '2026-02-16', lastDay: '2026-02-28' });
    expect(billingPeriodOf(new Date('2028-02-29T12:00:00Z'), NY)).toMatchObject({ firstDay: '2028-02-16', lastDay: '2028-02-29' });
    expect(billingPeriodOf(new Date('2026-04-30T12:00:00Z'), NY)).toMatchObject({ lastDay: '2026-04-30' });
    const december = billingPeriodOf(new Date('2026-12-31T12:00:00Z'), NY);
    expect(december).toMatchObject({ firstDay: '2026-12-16', lastDay: '2026-12-31' });
    expect(december.end).toEqual(new Date('2027-01-01T05:00:00Z'));
  });

  it('the same instant belongs to the period of the tutor local date', () => {
    const instant = new Date('2026-11-16T03:00:00Z'); // 15th, 22:00 in New York; 16th in Paris
    expect(billingPeriodOf(instant, NY).lastDay).toBe('2026-11-15');
    expect(billingPeriodOf(instant, 'Europe/Paris').firstDay).toBe('2026-11-16');
  });

  it('a period across a DST change is bounded by local midnights (an hour shorter in March)', () => {
    const p = billingPeriodOf(new Date('2026-03-10T12:00:00Z'), NY); // DST starts on March 8th
    expect(p.start).toEqual(new Date('2026-03-01T05:00:00Z'));
    expect(p.end).toEqual(new Date('2026-03-16T04:00:00Z'));
    expect((p.end.getTime() - p.start.getTime()) / 3_600_000).toBe(15 * 24 - 1);
  });
});

describe('weeks: Monday to Sunday', () => {
  it('a Sunday belongs to the week that started on the Monday before', () => {
    expect(weekOf(new Date('2026-11-29T20:00:00-05:00'), NY)).toEqual({
      start: new Date('2026-11-23T00:00:00-05:00'),
      end: new Date('2026-11-30T00:00:00-05:00'),
      firstDay: '2026-11-23',
      lastDay: '2026-11-29',
    });
  });

  it('a Monday starts its own week, and weeks cross month and year ends', () => {
    expect(weekOf(new Date('2026-11-30T00:00:00-05:00'), NY).firstDay).toBe('2026-11-30');
    expect(weekOf(new Date('2027-01-01T12:00:00Z'), NY)).toMatchObject({ firstDay: '2026-12-28', lastDay: '2027-01-03' });
  });

  it('the week of the autumn DST change lasts 169 hours', () => {
    const w = weekOf(new Date('2026-11-01T12:00:00Z'), NY); // Sunday, the day clocks go back
    expect(w.firstDay).toBe('2026-10-26');
    expect((w.end.getTime() - w.start.getTime()) / 3_600_000).toBe(7 * 24 + 1);
  });
});

describe('payout periods in Toronto', () => {
  const TO = 'America/Toronto';
  it('the 15th at 23:30 is in the first half, the 16th at 00:30 in the second', () => {
    expect(billingPeriodOf(new Date('2026-11-15T23:30:00-05:00'), TO)).toMatchObject({ firstDay: '2026-11-01', lastDay: '2026-11-15' });
    expect(billingPeriodOf(new Date('2026-11-16T00:30:00-05:00'), TO)).toMatchObject({ firstDay: '2026-11-16', lastDay: '2026-11-30' });
  });

  it('names periods by a day inside them, steps back and forth across month and year ends, and February', () => {
    expect(billingPeriodOfDay('2027-02-20', TO)).toMatchObject({ firstDay: '2027-02-16', lastDay: '2027-02-28' });
    expect(billingPeriodOfDay('2028-02-29', TO)).toMatchObject({ firstDay: '2028-02-16', lastDay: '2028-02-29' });
    expect(billingPeriodOfDay('2027-02-29', TO)).toBeNull();
    expect(billingPeriodOfDay('2027-2-1', TO)).toBeNull();
    const dec = billingPeriodOfDay('2026-12-31', TO);
    if (!dec) throw new Error('no period');
    expect(nextBillingPeriod(dec, TO)).toMatchObject({ firstDay: '2027-01-01', lastDay: '2027-01-15' });
    expect(previousBillingPeriod(dec, TO)).toMatchObject({ firstDay: '2026-12-01', lastDay: '2026-12-15' });
    expect(isBillingPeriodStart('2026-12-16')).toBe(true);
    expect(isBillingPeriodStart('2026-12-15')).toBe(false);
  });
});
