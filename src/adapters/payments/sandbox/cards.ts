/**
 * The sandbox's test cards (Stripe's numbers and messages): what a card number does when it is
 * confirmed. Spaces are ignored and the number is Luhn checked; only its brand and last 4 digits
 * are ever kept or returned.
 *
 * The Luhn check stays a ten-line function here rather than an npm package (`luhn`, `fast-luhn`):
 * those are single-function packages with nothing to maintain, and a dependency would add supply
 * chain surface for no behaviour we lack.
 */

export type Outcome =
  | { kind: 'succeed' }
  | { kind: 'authenticate' }
  | { kind: 'decline'; code: string; message: string; declineCode?: string };

export const DECLINED = 'Your card was declined.';
const INCORRECT = 'Your card number is incorrect.';
export const AUTHENTICATION_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

const CARDS: Record<string, Outcome> = {
  '4242424242424242': { kind: 'succeed' },
  '4000000000000002': { kind: 'decline', code: 'card_declined', declineCode: 'generic_decline', message: DECLINED },
  '4000000000009995': {
    kind: 'decline',
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000000069': { kind: 'decline', code: 'expired_card', message: 'Your card has expired.' },
  '4000002500003155': { kind: 'authenticate' },
};

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Stripe's brand name of a card number, from its leading digits (the IIN ranges of each network). */
export function cardBrandOf(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9][1-9]|2[3-9]|[3-6]|7[01]|720))/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  if (/^3(0[0-5]|[689])/.test(digits)) return 'diners';
  if (/^35/.test(digits)) return 'jcb';
  if (/^62/.test(digits)) return 'unionpay';
  return 'unknown';
}

/** What a test card does; never logs or returns the number (its brand and last 4 digits at most). */
export function cardOutcome(cardNumber: string): { outcome: Outcome; last4: string | null; brand: string | null } {
  const digits = cardNumber.replace(/\s+/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) {
    return { outcome: { kind: 'decline', code: 'incorrect_number', message: INCORRECT }, last4: null, brand: null };
  }
  return {
    outcome: CARDS[digits] ?? { kind: 'decline', code: 'incorrect_number', message: INCORRECT },
    last4: digits.slice(-4),
    brand: cardBrandOf(digits),
  };
}
