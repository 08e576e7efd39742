import { noticeEvents } from './notices.ts';

/** Every event type of the notices feature: a person's notification settings and what they have read. */
export const noticeFeatureEvents = { ...noticeEvents };
