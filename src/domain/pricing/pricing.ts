/**
 * Pricing policy (spec part 1 §9): monthly price = base × sessions × multiplier, rounded to whole
 * dollars; the per-session price is shown to 2 decimals; savings = undiscounted − discounted.
 */
export const gradeTiers = [
  { id: 'grade_10_under', name: 'Grade 10 & Under', basePrice: 60 },
  { id: 'grade_11_12', name: 'Grade 11-12', basePrice: 75 },
  { id: 'university', name: 'University', basePrice: 90 },
] as const;

export type GradeTierId = (typeof gradeTiers)[number]['id'];

export const packageFrequencies = [
  { id: 'weekly_1', name: '1x/week', sessionsPerMonth: 4, multiplier: 1, discountPercent: 0, recommended: false },
  { id: 'weekly_2', name: '2x/week', sessionsPerMonth: 8, multiplier: 0.95, discountPercent: 5, recommended: true },
  { id: 'weekly_3', name: '3x/week', sessionsPerMonth: 12, multiplier: 0.9, discountPercent: 10, recommended: false },
] as const;

export type PackageFrequencyId = (typeof packageFrequencies)[number]['id'];

export interface PackageQuote {
  monthlyPrice: number;
  perSessionPrice: number;
  undiscountedPrice: number;
  savings: number;
}

/** Works in cents so that 0.95 × 75 × 8 does not drift in binary floating point. */
export function quotePackage(basePrice: number, sessions: number, multiplier: number): PackageQuote {
  const undiscountedCents = Math.round(basePrice * 100) * sessions;
  const discountedCents = Math.round(undiscountedCents * multiplier);
  const monthlyPrice = Math.round(discountedCents / 100);
  const undiscountedPrice = Math.round(undiscountedCents / 100);
  return {
    monthlyPrice,
    perSessionPrice: Math.round((monthlyPrice / sessions) * 100) / 100,
    undiscountedPrice,
    savings: undiscountedPrice - monthlyPrice,
  };
}
