import { z } from 'zod';

/** `GET /api/calendar-feed`: whether a link exists (its URL is shown only when made: only its hash is kept). */
export const calendarFeedStatusSchema = z.object({ active: z.boolean(), issuedAt: z.string().nullable() });
/** `POST /api/calendar-feed`: a new link (the first, or a reset); the old one stops working at once. */
export const calendarFeedLinkSchema = z.object({ url: z.string(), issuedAt: z.string() });
