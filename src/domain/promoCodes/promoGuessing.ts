import { z } from 'zod';
import { type Command, type Decider, decideWith } from '../kit/decider.ts';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/**
 * An account that keeps trying codes that do not exist is guessing: after `misses` unknown codes
 * within one window of the guessing rule (docs/accounts.md, "Limits"), one fact is recorded on the
 * account's own guessing stream, and the alerts read model raises an alert from it. One fact per
 * window: the window's start is the fact's key, so a burst past the threshold, or two API
 * processes seeing it at once, records it once (the stream's revision decides).
 */
export const promoGuessingFlagged = z.object({
  userId: z.string(),
  /** Unknown codes tried in the window when it was flagged (the rule's threshold). */
  misses: z.number().int(),
  windowSeconds: z.number().int(),
  /** When the window began (from the counter's clock): one fact per window. */
  windowStart: z.string(),
  at: z.string(),
});

export const promoGuessingEvents = {
  PromoCodeGuessingFlagged: eventType(promoGuessingFlagged, {
    describe: (d) => `Tried ${d.misses} unknown promo codes within ${Math.round(d.windowSeconds / 60)} min`,
  }),
};
export type PromoGuessingEvent = EventsOf<typeof promoGuessingEvents>;

export interface PromoGuessingState {
  /** The windows already flagged (the latest few; an older one never comes back). */
  flaggedWindows: string[];
}
export const initialPromoGuessingState: PromoGuessingState = { flaggedWindows: [] };

const KEPT_WINDOWS = 10;

export const evolvePromoGuessing = (state: PromoGuessingState, event: PromoGuessingEvent): PromoGuessingState => ({
  flaggedWindows: [...state.flaggedWindows, event.data.windowStart].slice(-KEPT_WINDOWS),
});

export const promoGuessingStreamId = (userId: string) => `promoGuessing-${userId}`;

export type PromoGuessingCommand = Command<
  'FlagPromoGuessing',
  { userId: string; misses: number; windowSeconds: number; windowStart: string }
>;

export const decidePromoGuessing = decideWith<PromoGuessingCommand, PromoGuessingEvent, PromoGuessingState>({
  FlagPromoGuessing: ({ data, metadata: { now } }, state) =>
    state.flaggedWindows.includes(data.windowStart) ? [] : [{ type: 'PromoCodeGuessingFlagged', data: { ...data, at: now.toISOString() } }],
});

export const promoGuessingDecider: Decider<PromoGuessingCommand, PromoGuessingEvent, PromoGuessingState> = {
  initialState: initialPromoGuessingState,
  evolve: evolvePromoGuessing,
  decide: decidePromoGuessing,
};
