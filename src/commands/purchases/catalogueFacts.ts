import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { packageStreamId } from '../../domain/packages/package.ts';
import { packageDecider } from '../../domain/packages/packageDecider.ts';
import type { CatalogueFacts } from '../../domain/purchases/checkoutCatalogue.ts';
import { subjectStreamId } from '../../domain/subjects/subject.ts';
import { subjectDecider } from '../../domain/subjects/subjectDecider.ts';
import { commandHandler } from '../kit/handleCommand.ts';

/**
 * Reads what a checkout is priced from on the write model: the subject's and the package's own
 * streams (a read model may lag an admin's deactivation or not know an id at all). The purchase
 * decider prices from these facts and refuses terms that do not follow them.
 */
export function catalogueReader(store: EventStore) {
  const subjects = commandHandler(store, subjectDecider, subjectStreamId);
  const packages = commandHandler(store, packageDecider, packageStreamId);
  return async (subjectId: string, packageId: string, promo: CatalogueFacts['promo']): Promise<CatalogueFacts> => {
    const [subject, pkg] = await Promise.all([subjects.load(subjectId), packages.load(packageId)]);
    return { subjectId, subject, package: pkg.defined, promo };
  };
}
export type CatalogueReader = ReturnType<typeof catalogueReader>;
