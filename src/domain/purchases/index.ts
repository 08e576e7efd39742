import { purchaseEvents } from './purchase.ts';

/** Every event type of the purchases feature. */
export const purchaseFeatureEvents = { ...purchaseEvents };
