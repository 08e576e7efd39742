import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import { packageFrequencies, packageTotalCents } from '../pricing/pricing.ts';
import type { GradeLevel } from '../subjects/gradeLevels.ts';
import { evolvePackage, initialPackageState, type PackageEvent, type PackageState, type PackageTerms } from './package.ts';

export type PackageFrequencyId = (typeof packageFrequencies)[number]['id'];

/** `basePriceCents`: the tier's base price per session, as its grade tier records it. */
export type PackageCommand = Command<
  'DefinePackage',
  { packageId: string; gradeTierId: GradeLevel; gradeTierName: string; basePriceCents: number; packageTypeId: PackageFrequencyId }
>;

export const packageName = (gradeTierName: string, sessionCount: number, frequencyName: string) =>
  `${gradeTierName} - ${sessionCount} Sessions (${frequencyName})`;

/** The package's terms from the pricing policy: sessions, multiplier and total (base × sessions × multiplier, whole dollars). */
export function packageTermsOf(data: PackageCommand['data']): PackageTerms {
  const frequency = packageFrequencies.find((f) => f.id === data.packageTypeId);
  if (!frequency) throw new DomainError('Unknown package type', 'invalid');
  if (!Number.isSafeInteger(data.basePriceCents) || data.basePriceCents <= 0) {
    throw new DomainError('The base price must be a positive whole number of cents', 'invalid');
  }
  return {
    packageId: data.packageId,
    gradeTierId: data.gradeTierId,
    gradeTierName: data.gradeTierName,
    packageTypeId: frequency.id,
    name: packageName(data.gradeTierName, frequency.sessionsPerMonth, frequency.name),
    sessionCount: frequency.sessionsPerMonth,
    multiplierHundredths: Math.round(frequency.multiplier * 100),
    recommended: frequency.recommended,
    totalPriceCents: packageTotalCents(data.basePriceCents, frequency),
  };
}

export const decidePackage = decideWith<PackageCommand, PackageEvent, PackageState>({
  DefinePackage({ data, metadata: { now } }, state) {
    const terms = packageTermsOf(data);
    if (state.defined) {
      // Defined again as it is (every start seeds): nothing; other terms are a change this command does not make.
      if (JSON.stringify(state.defined) === JSON.stringify(terms)) return [];
      throw new DomainError('This package is already defined with other terms', 'conflict');
    }
    return [{ type: 'PackageDefined', data: { ...terms, at: now.toISOString() } }];
  },
});

export const packageDecider: Decider<PackageCommand, PackageEvent, PackageState> = {
  initialState: initialPackageState,
  evolve: evolvePackage,
  decide: decidePackage,
};
