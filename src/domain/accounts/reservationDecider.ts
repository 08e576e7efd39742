import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import { evolveReservation, initialReservationState, type ReservationEvent, type ReservationState } from './reservation.ts';

export type ReservationCommand = Command<'Reserve', { holderId: string; takenMessage: string }> | Command<'Release', { holderId: string }>;

export const decideReservation = decideWith<ReservationCommand, ReservationEvent, ReservationState>({
  Reserve({ data, metadata: { now } }, state) {
    if (state.heldBy === data.holderId) return [];
    if (state.heldBy) throw new DomainError(data.takenMessage, 'conflict');
    return [{ type: 'ValueReserved', data: { holderId: data.holderId, at: now.toISOString() } }];
  },
  Release({ data, metadata: { now } }, state) {
    if (state.heldBy !== data.holderId) return [];
    return [{ type: 'ValueReleased', data: { holderId: data.holderId, at: now.toISOString() } }];
  },
});

export const reservationDecider: Decider<ReservationCommand, ReservationEvent, ReservationState> = {
  initialState: initialReservationState,
  evolve: evolveReservation,
  decide: decideReservation,
};
