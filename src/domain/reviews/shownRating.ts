/**
 * The rating a tutor's card shows. Apart from review.ts (which re-exports it) so the public site's
 * first load, whose subject cards show it, does not carry the review events' zod schemas.
 */

/** Below this many reviews a tutor's card says "New" rather than an average. */
export const RATING_SHOWN_FROM = 3;

/** The average a card shows: to one decimal, none below the threshold ("New"). */
export const shownRating = (count: number, total: number): number | null =>
  count >= RATING_SHOWN_FROM ? Math.round((total / count) * 10) / 10 : null;
