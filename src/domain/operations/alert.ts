import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/**
 * An alert's resolution (spec part 1 §3 `alerts.isResolved/resolvedAt/resolvedBy`). Alerts are
 * raised by the failure events the platform records (a payment failed, a projector parked an
 * event, a job gave up, a tutor's calendar refused us); an admin closes one by saying what was done.
 * Stream `alert-<id>`: two admins resolving the same alert race on its revision and one is told.
 */
export const alertResolved = z.object({
  alertId: z.string(),
  note: z.string(),
  resolvedBy: z.string(),
  at: z.string(),
});

export const alertEvents = {
  AlertResolved: eventType(alertResolved, { describe: () => 'Alert resolved' }),
};
export type AlertEvent = EventsOf<typeof alertEvents>;

export interface AlertState {
  resolved: boolean;
}
export const initialAlertState: AlertState = { resolved: false };
export const evolveAlert = (_state: AlertState, event: AlertEvent): AlertState => ({ resolved: event.type === 'AlertResolved' });

export const alertStreamId = (alertId: string) => `alert-${alertId}`;

/** A resolution note says what was done: required, and short enough to read in a table. */
export const RESOLUTION_NOTE_MAX = 2000;
