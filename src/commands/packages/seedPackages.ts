import type { Clock } from '../../adapters/clock/clock.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { packageStreamId } from '../../domain/packages/package.ts';
import { packageDecider } from '../../domain/packages/packageDecider.ts';
import { packageFrequencies } from '../../domain/pricing/pricing.ts';
import { catalogGradeTiers } from '../../domain/subjects/catalog.ts';
import { gradeTierStreamId } from '../../domain/subjects/gradeTier.ts';
import { gradeTierDecider } from '../../domain/subjects/gradeTierDecider.ts';
import { commandContext, deterministicUuid } from '../kit/commandContext.ts';
import { commandHandler } from '../kit/handleCommand.ts';

/** A package's id: fixed per (tier, frequency), so every start lands on the same stream. */
export const packageIdOf = (gradeTierId: string, packageTypeId: string) => deterministicUuid(`package/${gradeTierId}/${packageTypeId}`);

const seedContext = (clock: Clock, key: string) =>
  commandContext({ commandId: deterministicUuid(`package-seed/${key}`), actorRole: 'system', now: clock.now() });

/**
 * Seeds a package per grade tier and frequency (1x/2x/3x per week) through their commands, at
 * every start, after the catalogue (`seedSubjectCatalog`). The price comes from the tier's base
 * price as its stream records it, through the one pricing policy. Ids and command ids are
 * fixed, so a second run appends nothing; a tier not defined yet is skipped (reported). Each
 * command decides at the system's clock.
 */
export async function seedPackages(
  { store, clock }: { store: EventStore; clock: Clock },
  warn: (message: string) => void = () => {},
): Promise<void> {
  const packages = commandHandler(store, packageDecider, packageStreamId);
  const tiers = commandHandler(store, gradeTierDecider, gradeTierStreamId);
  for (const { tierId } of catalogGradeTiers) {
    const tier = (await tiers.load(tierId)).defined;
    if (!tier) {
      warn(`Package seed: grade tier ${tierId} is not defined; its packages skipped`);
      continue;
    }
    for (const frequency of packageFrequencies) {
      const packageId = packageIdOf(tierId, frequency.id);
      await packages
        .handle(
          packageId,
          {
            type: 'DefinePackage',
            data: {
              packageId,
              gradeTierId: tierId,
              gradeTierName: tier.name,
              basePriceCents: tier.basePriceCents,
              packageTypeId: frequency.id,
            },
          },
          seedContext(clock, `${tierId}/${frequency.id}`),
        )
        .catch((error: unknown) => {
          if (!(error instanceof DomainError) || error.kind !== 'conflict') throw error;
          warn(`Package seed: ${tierId} ${frequency.name} skipped: ${error.message}`);
        });
    }
  }
}
