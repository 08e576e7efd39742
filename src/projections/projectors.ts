import { accountProjections } from './accounts/index.ts';
import { contactProjections } from './contact/index.ts';
import { courseProjections } from './courses/index.ts';
import { noticeProjections } from './notices/index.ts';
import { operationsProjections } from './operations/index.ts';
import { packageProjections } from './packages/index.ts';
import { payoutProjections } from './payouts/index.ts';
import { promoCodeProjections } from './promoCodes/index.ts';
import { purchaseProjections } from './purchases/index.ts';
import { reviewProjections } from './reviews/index.ts';
import type { Projector } from './runner/projector.ts';
import { sessionProjections } from './sessions/index.ts';
import { subjectProjections } from './subjects/index.ts';
import { tutorProjections } from './tutors/index.ts';

/** Every read model, feature by feature: a new feature adds one line. */
export const projectors = [
  ...operationsProjections,
  ...contactProjections,
  ...accountProjections,
  ...subjectProjections,
  ...tutorProjections,
  ...packageProjections,
  ...promoCodeProjections,
  ...courseProjections,
  ...purchaseProjections,
  ...sessionProjections,
  ...reviewProjections,
  ...payoutProjections,
  ...noticeProjections,
] as const satisfies readonly Projector[];

/** A read model's name: an unknown one does not compile. */
export type ProjectionName = (typeof projectors)[number]['name'];

// Read-your-writes waits name projections by these names (the runner cannot import this list).
declare module './runner/readYourWrites.ts' {
  interface KnownProjections {
    readModels: ProjectionName;
  }
}
