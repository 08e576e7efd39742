import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/**
 * A unique value (a username of an account or of a secondary login, an e-mail) is claimed by
 * appending to the stream named after it, so two concurrent claims race on that stream's
 * revision and one loses. The stream id carries a hash of the value, never the value.
 * The holder is `user-<id>` for an account, `secondaryLogin-<studentId>` for a view-only login.
 */
const holderOf = z.preprocess(
  // Events recorded before secondary logins shared the namespace named the holding user only.
  (data) => {
    const d = data as { userId?: string; holderId?: string } | null;
    return d && d.holderId === undefined && typeof d.userId === 'string'
      ? { holderId: `user-${d.userId}`, at: (d as { at?: string }).at }
      : d;
  },
  z.object({ holderId: z.string(), at: z.string() }),
);

/** The request details of a claim are the holding account's; a secondary login's, whoever set it. */
const personal = { fields: [], subject: (d: { holderId: string }) => (d.holderId.startsWith('user-') ? d.holderId : null) };

export const reservationEvents = {
  ValueReserved: eventType(holderOf, { personal, describe: () => 'Unique value reserved' }),
  ValueReleased: eventType(holderOf, { personal, describe: () => 'Unique value released' }),
};

export type ReservationEvent = EventsOf<typeof reservationEvents>;

export interface ReservationState {
  heldBy: string | null;
}

export const initialReservationState: ReservationState = { heldBy: null };

export const evolveReservation = (_state: ReservationState, event: ReservationEvent): ReservationState => ({
  heldBy: event.type === 'ValueReserved' ? event.data.holderId : null,
});

export const accountHolder = (userId: string) => `user-${userId}`;
export const secondaryLoginHolder = (studentId: string) => `secondaryLogin-${studentId}`;
