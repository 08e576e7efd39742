import { accountSagas } from './accounts/index.ts';
import { contactSagas } from './contact/index.ts';
import { courseSagas } from './courses/index.ts';
import type { SagaFeature } from './kit/sagaFeature.ts';
import { maintenanceSagas } from './maintenance/index.ts';
import { purchaseSagas } from './purchases/index.ts';
import { sessionSagas } from './sessions/index.ts';
import { tutorSagas } from './tutors/index.ts';

/** Every feature's sagas: a new feature adds one line. */
export const sagaFeatures: readonly SagaFeature[] = [
  contactSagas,
  accountSagas,
  tutorSagas,
  maintenanceSagas,
  purchaseSagas,
  courseSagas,
  sessionSagas,
];

export const queues = sagaFeatures.flatMap((f) => f.queues);
export const reactors = sagaFeatures.flatMap((f) => f.reactors ?? []);

// A request waits for these workflows when their steps make what its answer shows (the course a
// purchase creates, an account's erasure, a tutor's approval), and a test for a reactor's mail:
// read-your-writes may name them.
declare module '../projections/runner/readYourWrites.ts' {
  interface KnownProjections {
    sagas: 'account_deletion' | 'purchase_fulfilment' | 'tutor_review' | 'tutor_mail_saga';
  }
}
