import { promoCodeEvents } from './promoCode.ts';
import { promoCodeReservationEvents } from './promoCodeReservation.ts';

/** Every event type of the promo codes feature. */
export const promoCodeFeatureEvents = { ...promoCodeEvents, ...promoCodeReservationEvents };
