import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/**
 * A promo code is unique (spec part 1 §3 `promo_codes.code`): it is claimed by appending to the
 * stream named after the upper-case code, so two concurrent claims race on that stream's revision
 * and one loses. The holder is the promo code that bears it; an edit to another code claims the
 * new one first, then gives the old one back. The commands layer names the stream (a hash).
 */
export const promoCodeClaim = z.object({ promoCodeId: z.string(), at: z.string() });

export const promoCodeReservationEvents = {
  PromoCodeReserved: eventType(promoCodeClaim, { describe: () => 'Promo code reserved' }),
  PromoCodeReservationReleased: eventType(promoCodeClaim, { describe: () => 'Promo code reservation released' }),
};

export type PromoCodeReservationEvent = EventsOf<typeof promoCodeReservationEvents>;

export interface PromoCodeReservationState {
  heldBy: string | null;
}

export const initialPromoCodeReservationState: PromoCodeReservationState = { heldBy: null };

export const evolvePromoCodeReservation = (
  _state: PromoCodeReservationState,
  event: PromoCodeReservationEvent,
): PromoCodeReservationState => ({
  heldBy: event.type === 'PromoCodeReserved' ? event.data.promoCodeId : null,
});
