import { promoCodeEvents } from './promoCode.ts';

/** Every event type of the promo codes feature. */
export const promoCodeFeatureEvents = { ...promoCodeEvents };
