import { reservationEvents } from './accounts/reservation.ts';
import { studentEvents } from './accounts/student.ts';
import { tutorApplicationEvents } from './accounts/tutorApplication.ts';
import { userEvents } from './accounts/user.ts';
import { userActivityEvents } from './accounts/userActivity.ts';
import { contactEvents } from './contact/contact.ts';
import type { EventCatalog, EventDefinition } from './kit/eventDefinition.ts';
import { operationsEvents } from './operations/operationsEvents.ts';

/** Every event type the system records, by type name: one line per aggregate. */
export const eventCatalog = {
  ...contactEvents,
  ...operationsEvents,
  ...userEvents,
  ...userActivityEvents,
  ...reservationEvents,
  ...studentEvents,
  ...tutorApplicationEvents,
} satisfies EventCatalog;

export type EventType = keyof typeof eventCatalog;

export function definitionOf(type: string): EventDefinition<unknown> | undefined {
  return (eventCatalog as EventCatalog)[type];
}
