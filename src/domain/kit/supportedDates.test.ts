import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { InvalidFieldError } from './domainError.ts';
import {
  isSupportedDay,
  isSupportedEpochMs,
  isSupportedInstant,
  isSupportedLocalDateTime,
  outsideSupportedDates,
  supportedDay,
  supportedDayOf,
  supportedInstant,
  supportedLocalDateTime,
} from './supportedDates.ts';

const messages = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues.map((i) => i.message) ?? [];

describe('supported dates: years 1900 to 2200, four-digit years, real days', () => {
  it('takes real days of the supported years only', () => {
    for (const day of ['1900-01-01', '2026-05-01', '2028-02-29', '2200-12-31']) expect(isSupportedDay(day), day).toBe(true);
    for (const day of ['1899-12-31', '2201-01-01', '0000-01-01', '0001-01-01', '9999-12-31', '2026-02-29', '2026-02-30', '2026-13-01'])
      expect(isSupportedDay(day), day).toBe(false);
    for (const day of ['+275760-09-13', '-000001-01-01', '2026-5-1', '2026-05-01T00:00:00Z', '', 'x'.repeat(100_000), '2026-05-01\u0000'])
      expect(isSupportedDay(day), day).toBe(false);
  });

  it('takes ISO instants with an offset whose UTC time lies in the supported years', () => {
    for (const at of ['1900-01-01T00:00:00Z', '2026-05-01T14:00:00-04:00', '2200-12-31T23:59:59.999Z', '1970-01-01T00:00:00Z'])
      expect(isSupportedInstant(at), at).toBe(true);
    const refused = [
      '1899-12-31T23:59:59Z',
      '2201-01-01T00:00:00Z',
      // 2201-01-01T04:00Z in UTC.
      '2200-12-31T23:00:00-05:00',
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59.999Z',
      '+275760-09-13T00:00:00.000Z',
      '-000001-01-01T00:00:00Z',
      '2026-02-30T10:00:00Z',
      '2026-05-01T10:00:00',
      '2026-05-01',
    ];
    for (const at of refused) expect(isSupportedInstant(at), at).toBe(false);
    expect(isSupportedEpochMs(Date.parse('2200-12-31T23:59:59.999Z'))).toBe(true);
    expect(isSupportedEpochMs(Number.NaN)).toBe(false);
    expect(isSupportedEpochMs(8.64e15)).toBe(false);
  });

  it('takes wall-clock yyyy-MM-ddTHH:mm on real days of the supported years', () => {
    expect(isSupportedLocalDateTime('2026-05-01T09:30')).toBe(true);
    for (const local of [
      '0001-01-01T10:00',
      '9999-12-31T10:00',
      '2026-02-30T10:00',
      '2026-05-01T24:00',
      '2026-05-01T10:00:00',
      '2026-05-01',
    ])
      expect(isSupportedLocalDateTime(local), local).toBe(false);
  });

  it('schemas say the format for anything else written, the range for a real date out of range (one message each)', () => {
    const day = supportedDay({ format: 'Use a date as yyyy-MM-dd', label: 'date' });
    expect(messages(day, '2026-05-01')).toEqual([]);
    expect(messages(day, '2026-02-30')).toEqual(['Use a date as yyyy-MM-dd']);
    expect(messages(day, 'x'.repeat(100_000))).toEqual(['Use a date as yyyy-MM-dd']);
    expect(messages(day, '0001-01-01')).toEqual([outsideSupportedDates('date')]);
    expect(outsideSupportedDates('date')).toBe('date must be between 1900-01-01 and 2200-12-31');

    const instant = supportedInstant({ format: 'Use an ISO date and time', label: 'from' });
    expect(messages(instant, '2026-05-01T00:00:00Z')).toEqual([]);
    expect(messages(instant, '+275760-09-13T00:00:00.000Z')).toEqual(['Use an ISO date and time']);
    expect(messages(instant, '9999-12-31T23:59:59.999Z')).toEqual([outsideSupportedDates('from')]);

    const local = supportedLocalDateTime({ format: 'Use yyyy-MM-ddTHH:mm', label: 'newDate' });
    expect(messages(local, '2026-05-01T10:00')).toEqual([]);
    expect(messages(local, '2026-13-01T10:00')).toEqual(['Use yyyy-MM-ddTHH:mm']);
    expect(messages(local, '0000-01-01T10:00')).toEqual([outsideSupportedDates('newDate')]);
  });

  it('a day read by hand is refused as an InvalidFieldError naming its field', () => {
    expect(supportedDayOf('2026-05-01', 'date', 'Use a date')).toBe('2026-05-01');
    expect(() => supportedDayOf('9999-12-31', 'date', 'Use a date')).toThrow(new InvalidFieldError('date', outsideSupportedDates('date')));
    const refusal = (() => {
      try {
        supportedDayOf('2026-02-30', 'date', 'Use a date');
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(InvalidFieldError);
    expect(refusal).toMatchObject({ field: 'date', kind: 'invalid', message: 'Use a date' });
  });
});
