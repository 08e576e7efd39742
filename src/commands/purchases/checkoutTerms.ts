import { DomainError } from '../../domain/kit/decider.ts';
import type { PromoQuote } from '../../domain/promoCodes/promoTerms.ts';

/** What checkout and repurchase share: the browser's amounts checked against the catalogue's price, money in dollars. */

export const AMOUNT_MISMATCH = 'The amount does not match the price';

export const cents = (dollars: number) => Math.round(dollars * 100);
export const dollarsOf = (amountCents: number) => amountCents / 100;

export interface ClientAmounts {
  amount?: number | null | undefined;
  originalAmount?: number | null | undefined;
  discountAmount?: number | null | undefined;
  finalAmount?: number | null | undefined;
}

/** The browser's amounts must be the server's: anything else is refused before anything is recorded or charged. */
export function checkAmounts(body: ClientAmounts, quote: PromoQuote, promoApplied: boolean): void {
  const differs = (sent: number | null | undefined, expected: number) => sent !== null && sent !== undefined && cents(sent) !== expected;
  if (differs(body.finalAmount, quote.finalCents)) throw new DomainError(AMOUNT_MISMATCH, 'invalid');
  if (differs(body.originalAmount, quote.originalCents)) throw new DomainError(AMOUNT_MISMATCH, 'invalid');
  if (differs(body.discountAmount, quote.discountCents)) throw new DomainError(AMOUNT_MISMATCH, 'invalid');
  // `amount` is what is charged; a checkout with a code may still send the package price there.
  if (differs(body.amount, quote.finalCents) && !(promoApplied && !differs(body.amount, quote.originalCents))) {
    throw new DomainError(AMOUNT_MISMATCH, 'invalid');
  }
}
