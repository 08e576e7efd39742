import type { Clock } from '../../adapters/clock/clock.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { catalogGradeTiers, catalogSubjects } from '../../domain/subjects/catalog.ts';
import { subjectNameKey } from '../../domain/subjects/subjectName.ts';
import { commandContext, deterministicUuid } from '../kit/commandContext.ts';
import { addSubject } from './manageSubjects.ts';
import { subjectHandlers } from './subjectHandlers.ts';

const seedContext = (clock: Clock, key: string) =>
  commandContext({ commandId: deterministicUuid(`subject-catalog-seed/${key}`), actorRole: 'system', now: clock.now() });

/**
 * Seeds the grade tiers and the subject catalogue through their commands, at every start. Ids
 * and command ids are fixed, so a second run appends nothing, and two processes starting
 * together append each event once. What an admin changed since stays changed. A seed subject
 * whose name an admin gave another subject at that level is skipped (reported through `warn`).
 * Each command decides at the system's clock.
 */
export async function seedSubjectCatalog(
  { store, clock }: { store: EventStore; clock: Clock },
  warn: (message: string) => void = () => {},
): Promise<void> {
  const handlers = subjectHandlers(store);
  const refusedAsConflict = (what: string) => (error: unknown) => {
    if (!(error instanceof DomainError) || error.kind !== 'conflict') throw error;
    warn(`Catalogue seed: ${what} skipped: ${error.message}`);
  };
  for (const tier of catalogGradeTiers) {
    await handlers.gradeTiers
      .handle(tier.tierId, { type: 'DefineGradeTier', data: tier }, seedContext(clock, `gradeTier/${tier.tierId}`))
      .catch(refusedAsConflict(`grade tier ${tier.name}`));
  }
  for (const subject of catalogSubjects) {
    await addSubject(handlers, subject, seedContext(clock, `subject/${subjectNameKey(subject.gradeLevel, subject.name)}`)).catch(
      refusedAsConflict(`subject ${subject.name}`),
    );
  }
}
