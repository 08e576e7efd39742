import { describe, expect, it } from 'vitest';
import { knownTimeZone } from './timeZones.ts';

describe('known time zones', () => {
  it('keeps IANA places, UTC and the fixed-offset Etc/GMT zones', () => {
    expect(knownTimeZone('America/Toronto')).toBe('America/Toronto');
    expect(knownTimeZone('UTC')).toBe('UTC');
    expect(knownTimeZone('Etc/GMT+5')).toBe('Etc/GMT+5');
    expect(knownTimeZone('Etc/GMT-14')).toBe('Etc/GMT-14');
  });

  it('refuses what is no zone: made-up places, offsets, out-of-range Etc zones, empty', () => {
    for (const zone of ['Mars/Olympus', 'UTC+25', '+05:00', 'GMT+5', 'Etc/GMT+13', 'Etc/GMT-15', '', 'America/Toronto\u0000']) {
      expect(knownTimeZone(zone), JSON.stringify(zone)).toBeNull();
    }
  });
});
