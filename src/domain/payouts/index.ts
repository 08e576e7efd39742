import { payoutPeriodEvents } from './payoutPeriod.ts';

/** Every event type of the payouts feature. */
export const payoutFeatureEvents = { ...payoutPeriodEvents };
