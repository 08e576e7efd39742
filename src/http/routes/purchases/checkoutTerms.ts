import type { AccountHandlers } from '../../../commands/accounts/accountDeps.ts';
import type { PromoCodeHandlers } from '../../../commands/promoCodes/promoCodeHandlers.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { refusalOf } from '../../../domain/promoCodes/promoCodeDecider.ts';
import type { PromoQuote } from '../../../domain/promoCodes/promoTerms.ts';
import type { CatalogueFacts } from '../../../domain/purchases/checkoutCatalogue.ts';
import { studentAccess } from '../../kit/studentAccess.ts';

/** What checkout and repurchase share: who may buy, the code's terms from its stream, the browser's amounts checked against the catalogue's price. */

export const AMOUNT_MISMATCH = 'The amount does not match the price';

export const cents = (dollars: number) => Math.round(dollars * 100);
export const dollarsOf = (amountCents: number) => amountCents / 100;

/** The account-holder rule over the student's stream (an erased profile is unknown): `act` to buy, `read` for a purchase's status. */
export function holderCheck(students: Pick<AccountHandlers, 'students'>['students']) {
  return studentAccess(async (studentId) => {
    const student = await students.load(studentId);
    return student.exists && !student.erased && student.userId ? { userId: student.userId, parentId: student.parentId } : null;
  });
}

/** The code as its own stream says it applies now (refused codes are refused): its terms price the purchase. */
export async function promoFor(
  promos: PromoCodeHandlers,
  promoCodeId: string | null | undefined,
  now: Date,
): Promise<CatalogueFacts['promo']> {
  if (!promoCodeId) return null;
  const state = await promos.promoCodes.load(promoCodeId);
  const refusal = refusalOf(state, now);
  if (refusal || !state.terms) throw new DomainError(refusal ?? 'Invalid promo code', state.terms ? 'conflict' : 'not_found');
  return { promoCodeId, terms: state.terms };
}

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
