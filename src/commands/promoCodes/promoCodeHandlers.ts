import { createHash } from 'node:crypto';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { normalizePromoCode, promoCodeStreamId } from '../../domain/promoCodes/promoCode.ts';
import { promoCodeDecider } from '../../domain/promoCodes/promoCodeDecider.ts';
import { promoCodeReservationDecider } from '../../domain/promoCodes/promoCodeReservationDecider.ts';
import { promoGuessingDecider, promoGuessingStreamId } from '../../domain/promoCodes/promoGuessing.ts';
import { commandHandler } from '../kit/handleCommand.ts';

/** The command handlers of the promo codes feature, one per aggregate. */
export function promoCodeHandlers(store: EventStore) {
  return {
    promoCodes: commandHandler(store, promoCodeDecider, promoCodeStreamId),
    reservations: commandHandler(store, promoCodeReservationDecider, (id) => id),
    guessing: commandHandler(store, promoGuessingDecider, promoGuessingStreamId),
  };
}
export type PromoCodeHandlers = ReturnType<typeof promoCodeHandlers>;

/** The reservation stream of a code, named by a hash of the upper-case code. */
export const promoCodeReservationStreamId = (code: string) =>
  `promoCodeReservation-${createHash('sha256').update(normalizePromoCode(code)).digest('hex').slice(0, 40)}`;

/**
 * Attempts on a hot stream: a code's stream takes every checkout's claim and a reservation every
 * concurrent create of the same code; each lost race re-reads and decides again.
 */
export const HOT_STREAM_ATTEMPTS = 40;
