import { describe, expect, it } from 'vitest';
import { gradeTiers, packageFrequencies, quotePackage } from './pricing.ts';

describe('pricing policy', () => {
  it('prices a month as base × sessions × multiplier rounded to whole dollars', () => {
    expect(quotePackage(60, 4, 1)).toEqual({ monthlyPrice: 240, perSessionPrice: 60, undiscountedPrice: 240, savings: 0 });
    expect(quotePackage(75, 8, 0.95)).toEqual({ monthlyPrice: 570, perSessionPrice: 71.25, undiscountedPrice: 600, savings: 30 });
    expect(quotePackage(90, 12, 0.9)).toEqual({ monthlyPrice: 972, perSessionPrice: 81, undiscountedPrice: 1080, savings: 108 });
  });

  it('rounds half-dollar monthly prices and shows per-session prices to 2 decimals', () => {
    // 65 × 3 × 0.95 = 185.25 → 185; 185 / 3 = 61.666… → 61.67
    expect(quotePackage(65, 3, 0.95)).toMatchObject({ monthlyPrice: 185, perSessionPrice: 61.67, savings: 10 });
  });

  it('carries the constants of the specification', () => {
    expect(gradeTiers.map((t) => [t.name, t.basePrice])).toEqual([
      ['Grade 10 & Under', 60],
      ['Grade 11-12', 75],
      ['University', 90],
    ]);
    expect(packageFrequencies.map((p) => [p.sessionsPerMonth, p.multiplier])).toEqual([
      [4, 1],
      [8, 0.95],
      [12, 0.9],
    ]);
  });
});
