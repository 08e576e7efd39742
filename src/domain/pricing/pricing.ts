/**
 * Pricing policy (spec part 1 §9): monthly price = base × sessions × multiplier, rounded to whole
 * dollars; the per-session price is shown to 2 decimals; savings = undiscounted − discounted.
 */
import { catalogGradeTiers } from '../subjects/catalog.ts';
import type { GradeLevel } from '../subjects/gradeLevelNames.ts';

/**
 * The grade tiers with their base price per session in dollars, derived from the one source the
 * catalogue seeds (`catalogGradeTiers`, cents): the Pricing page, packages and checkout agree.
 */
export interface GradeTierPrice {
  id: GradeLevel;
  name: string;
  basePrice: number;
}

const tierPrice = (index: 0 | 1 | 2): GradeTierPrice => {
  const tier = catalogGradeTiers[index];
  if (!tier) throw new Error(`The catalogue has no grade tier ${index}`);
  return { id: tier.tierId, name: tier.name, basePrice: tier.basePriceCents / 100 };
};

export const gradeTiers: readonly [GradeTierPrice, GradeTierPrice, GradeTierPrice] = [tierPrice(0), tierPrice(1), tierPrice(2)];

export type GradeTierId = GradeLevel;

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

export type PackageFrequency = (typeof packageFrequencies)[number];

/** A package's total in cents: the monthly price of `quotePackage` (whole dollars) for a base price in cents. */
export const packageTotalCents = (basePriceCents: number, frequency: Pick<PackageFrequency, 'sessionsPerMonth' | 'multiplier'>): number =>
  quotePackage(basePriceCents / 100, frequency.sessionsPerMonth, frequency.multiplier).monthlyPrice * 100;
