import { z } from 'zod';
import { type Decider, DomainError } from '../decider.ts';
import { defineEvent } from '../eventDefinition.ts';

/**
 * A unique value (username, e-mail) is claimed by appending to the stream named after it, so
 * two concurrent registrations of one username race on that stream's revision and one loses.
 * The stream id carries a hash of the value, never the value.
 */
export const reservationMade = z.object({ userId: z.string(), at: z.string() });
export const reservationReleased = z.object({ userId: z.string(), at: z.string() });

export type ReservationEvent =
  | { type: 'ValueReserved'; data: z.infer<typeof reservationMade> }
  | { type: 'ValueReleased'; data: z.infer<typeof reservationReleased> };

export type ReservationCommand =
  | { type: 'Reserve'; userId: string; takenMessage: string; now: Date }
  | { type: 'Release'; userId: string; now: Date };

export interface ReservationState {
  heldBy: string | null;
}

export const reservationDecider: Decider<ReservationCommand, ReservationEvent, ReservationState> = {
  initialState: { heldBy: null },
  evolve: (_state, event) => ({ heldBy: event.type === 'ValueReserved' ? event.data.userId : null }),
  decide(command, state) {
    const at = command.now.toISOString();
    if (command.type === 'Reserve') {
      if (state.heldBy === command.userId) return [];
      if (state.heldBy) throw new DomainError(command.takenMessage, 409);
      return [{ type: 'ValueReserved', data: { userId: command.userId, at } }];
    }
    if (state.heldBy !== command.userId) return [];
    return [{ type: 'ValueReleased', data: { userId: command.userId, at } }];
  },
};

export const reservationEventCatalog = {
  ValueReserved: defineEvent({ schema: reservationMade, describe: () => 'Unique value reserved' }),
  ValueReleased: defineEvent({ schema: reservationReleased, describe: () => 'Unique value released' }),
};
