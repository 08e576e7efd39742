import { promoCodeEvents } from './promoCode.ts';
import { promoCodeReservationEvents } from './promoCodeReservation.ts';
import { promoGuessingEvents } from './promoGuessing.ts';

/** Every event type of the promo codes feature. */
export const promoCodeFeatureEvents = { ...promoCodeEvents, ...promoCodeReservationEvents, ...promoGuessingEvents };
