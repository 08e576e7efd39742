import { packageEvents } from './package.ts';

/** Every event type of the packages feature. */
export const packageFeatureEvents = { ...packageEvents };
