import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';
import { gradeLevelSchema } from '../subjects/gradeLevels.ts';

/**
 * A session package (spec part 1 §3 "packages" and "package_types"): a grade tier bought at a
 * frequency. Its total is priced by the one pricing policy (`src/domain/pricing/pricing.ts`) from
 * the tier's base price when it is defined, and recorded in cents (CAD).
 */
export const packageDefined = z.object({
  packageId: z.string(),
  gradeTierId: gradeLevelSchema,
  gradeTierName: z.string(),
  packageTypeId: z.string(),
  name: z.string(),
  sessionCount: z.number().int().positive(),
  /** The package type's multiplier in hundredths (0.95 = 95). */
  multiplierHundredths: z.number().int().positive(),
  recommended: z.boolean(),
  totalPriceCents: z.number().int().nonnegative(),
  at: z.string(),
});

export const packageEvents = {
  PackageDefined: eventType(packageDefined, {
    describe: (d) => `Package ${d.name} defined at $${(d.totalPriceCents / 100).toFixed(2)}`,
  }),
};

export type PackageEvent = EventsOf<typeof packageEvents>;
export type PackageTerms = Omit<z.output<typeof packageDefined>, 'at'>;

export interface PackageState {
  defined: PackageTerms | null;
}

export const initialPackageState: PackageState = { defined: null };

export const evolvePackage = (_state: PackageState, event: PackageEvent): PackageState => {
  const { at: _at, ...terms } = event.data;
  return { defined: terms };
};

export const packageStreamId = (packageId: string) => `package-${packageId}`;

export const PACKAGE_NOT_FOUND = 'Package not found';
