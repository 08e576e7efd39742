import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import {
  evolvePromoCodeReservation,
  initialPromoCodeReservationState,
  type PromoCodeReservationEvent,
  type PromoCodeReservationState,
} from './promoCodeReservation.ts';

export const PROMO_CODE_TAKEN = 'A promo code with this code already exists';

export type PromoCodeReservationCommand =
  | Command<'ReservePromoCode', { promoCodeId: string }>
  | Command<'ReleasePromoCodeReservation', { promoCodeId: string }>;

export const decidePromoCodeReservation = decideWith<PromoCodeReservationCommand, PromoCodeReservationEvent, PromoCodeReservationState>({
  ReservePromoCode({ data, metadata: { now } }, state) {
    if (state.heldBy === data.promoCodeId) return [];
    if (state.heldBy) throw new DomainError(PROMO_CODE_TAKEN, 'conflict');
    return [{ type: 'PromoCodeReserved', data: { promoCodeId: data.promoCodeId, at: now.toISOString() } }];
  },
  ReleasePromoCodeReservation({ data, metadata: { now } }, state) {
    if (state.heldBy !== data.promoCodeId) return [];
    return [{ type: 'PromoCodeReservationReleased', data: { promoCodeId: data.promoCodeId, at: now.toISOString() } }];
  },
});

export const promoCodeReservationDecider: Decider<PromoCodeReservationCommand, PromoCodeReservationEvent, PromoCodeReservationState> = {
  initialState: initialPromoCodeReservationState,
  evolve: evolvePromoCodeReservation,
  decide: decidePromoCodeReservation,
};
