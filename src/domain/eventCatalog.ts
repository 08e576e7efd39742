import { accountEvents } from './accounts/index.ts';
import { contactEvents } from './contact/contact.ts';
import { courseFeatureEvents } from './courses/index.ts';
import type { EventCatalog, EventDefinition } from './kit/eventDefinition.ts';
import { noticeFeatureEvents } from './notices/index.ts';
import { alertEvents } from './operations/alert.ts';
import { operationsEvents } from './operations/operationsEvents.ts';
import { packageFeatureEvents } from './packages/index.ts';
import { payoutFeatureEvents } from './payouts/index.ts';
import { promoCodeFeatureEvents } from './promoCodes/index.ts';
import { purchaseFeatureEvents } from './purchases/index.ts';
import { reviewFeatureEvents } from './reviews/index.ts';
import { sessionFeatureEvents } from './sessions/index.ts';
import { subjectEvents } from './subjects/index.ts';
import { tutorFeatureEvents } from './tutors/index.ts';

/** Every event type the system records, by type name: one line per feature. */
export const eventCatalog = {
  ...operationsEvents,
  ...alertEvents,
  ...contactEvents,
  ...accountEvents,
  ...subjectEvents,
  ...tutorFeatureEvents,
  ...promoCodeFeatureEvents,
  ...packageFeatureEvents,
  ...courseFeatureEvents,
  ...purchaseFeatureEvents,
  ...sessionFeatureEvents,
  ...reviewFeatureEvents,
  ...payoutFeatureEvents,
  ...noticeFeatureEvents,
} satisfies EventCatalog;

export type EventType = keyof typeof eventCatalog;

export function definitionOf(type: string): EventDefinition<unknown> | undefined {
  return (eventCatalog as EventCatalog)[type];
}
