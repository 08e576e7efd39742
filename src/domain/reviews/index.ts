import { reviewEvents } from './review.ts';

/** Every event type of the reviews feature: a family's review of a completed session and its moderation. */
export const reviewFeatureEvents = { ...reviewEvents };
