import { describe, expect, it } from 'vitest';
import { type RateChange, rateInForce } from './hourlyRate.ts';

const change = (hourlyRateCents: number, effectiveFrom: string): RateChange => ({ hourlyRateCents, effectiveFrom });
const at = (iso: string) => new Date(iso);

describe('the rate in force at an instant', () => {
  const history = [
    change(4000, '1970-01-01T00:00:00.000Z'), // the profile's rate at creation, from the beginning
    change(5000, '2026-11-01T00:00:00.000Z'),
    change(9900, '2099-01-01T00:00:00.000Z'), // set ahead: not yet in force
    change(5500, '2026-11-01T00:00:00.000Z'), // a correction of the same start, recorded later
  ];

  it('is none before the first change', () => {
    expect(rateInForce([], at('2026-11-05T00:00:00Z'))).toBeNull();
    expect(rateInForce([change(5000, '2026-11-01T00:00:00.000Z')], at('2026-10-31T23:59:59.999Z'))).toBeNull();
  });

  it('is the latest change effective at or before the instant, the last recorded of a shared start', () => {
    expect(rateInForce(history, at('2026-10-31T23:59:59.999Z'))).toBe(4000);
    expect(rateInForce(history, at('2026-11-01T00:00:00.000Z'))).toBe(5500);
    expect(rateInForce(history, at('2098-12-31T00:00:00.000Z'))).toBe(5500);
    expect(rateInForce(history, at('2099-01-01T00:00:00.000Z'))).toBe(9900);
  });

  it('a retroactive change recorded last reprices what started after its start', () => {
    const retro = [...history, change(6000, '2026-10-15T00:00:00.000Z')];
    expect(rateInForce(retro, at('2026-10-20T00:00:00Z'))).toBe(6000);
    expect(rateInForce(retro, at('2026-11-02T00:00:00Z'))).toBe(5500);
  });
});
