import { userEventCatalog } from './accounts/accountEvents.ts';
import { reservationEventCatalog } from './accounts/reservation.ts';
import { studentEventCatalog } from './accounts/studentProfile.ts';
import { tutorApplicationEventCatalog } from './accounts/tutorApplication.ts';
import { contactEventCatalog } from './contact/contactEvents.ts';
import type { EventCatalog, EventDefinition } from './eventDefinition.ts';
import { operationsEventCatalog } from './operations/operationsEvents.ts';

/** Every event type the system records, by type name. */
export const eventCatalog: EventCatalog = {
  ...contactEventCatalog,
  ...operationsEventCatalog,
  ...userEventCatalog,
  ...reservationEventCatalog,
  ...studentEventCatalog,
  ...tutorApplicationEventCatalog,
};

export function definitionOf(type: string): EventDefinition<unknown> | undefined {
  return eventCatalog[type];
}
