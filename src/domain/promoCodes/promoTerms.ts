import { DomainError } from '../kit/decider.ts';
import { InvalidFieldError } from '../kit/domainError.ts';
import { isIsoDay, isIsoInstant, isSupportedEpochMs, outsideSupportedDates } from '../kit/supportedDates.ts';
import { type DiscountType, discountTypes, normalizePromoCode, type PromoTerms } from './promoCode.ts';

/** Spec part 2 §5 and §9. */
export const PROMO_CODE_MAX_LENGTH = 50;
export const CODE_REQUIRED = 'Code is required';
export const CODE_TOO_LONG = `Code must be at most ${PROMO_CODE_MAX_LENGTH} characters`;
export const CODE_CHARACTERS = 'Code may contain only letters, digits, dashes and underscores';
export const DISCOUNT_NOT_POSITIVE = 'Discount value must be positive';
export const PERCENTAGE_OVER_100 = 'A percentage discount cannot exceed 100%';
export const DISCOUNT_TYPE_INVALID = 'Discount type must be percentage or fixed_amount';
export const MAX_USES_INVALID = 'Max uses must be at least 1, or empty for unlimited';
export const MAX_USES_PER_PERSON_INVALID = 'Uses per person must be at least 1, or empty for no limit';
export const VALIDITY_INVALID = 'Valid until must be after valid from';
export const DATE_INVALID = 'Dates must be valid date-times';
/** What the promo code's read model and every check of it can store and compare (src/domain/kit/supportedDates.ts). */
export const DATE_OUT_OF_RANGE = outsideSupportedDates('Dates');

/** What the admin forms send (spec part 2 §5: the discount as a decimal string, empty limits and dates as null). */
export interface PromoTermsInput {
  code: string;
  description?: string | null;
  discountType: string;
  discountValue: string | number;
  maxUses?: number | null;
  maxUsesPerPerson?: number | null;
  validFrom?: string | null;
  validUntil?: string | null;
  isActive?: boolean;
}

/**
 * A promo date as admins send it: an ISO date-time with its offset (the form sends
 * `toISOString()`) or a calendar day (its UTC midnight). Nothing `Date.parse` would guess at or
 * roll over (`2026-02-30` is no date, not the 2nd of March).
 */
export const isPromoDate = (value: string) => isIsoInstant(value) || isIsoDay(value);

const DECIMAL = /^\d{1,9}(\.\d{1,2})?$/;
const CODE = /^[A-Z0-9_-]+$/;

/** Whether a code as typed is made of the characters a code may hold (once upper-cased): nothing hidden, nothing that reorders. */
export const isPromoCodeText = (code: string) => CODE.test(normalizePromoCode(code));

const isLimit = (n: number | null) => n === null || (Number.isInteger(n) && n >= 1 && n <= 1_000_000_000);

function instant(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (!isPromoDate(value)) throw new DomainError(DATE_INVALID, 'invalid');
  const ms = Date.parse(value);
  if (!isSupportedEpochMs(ms)) throw new DomainError(DATE_OUT_OF_RANGE, 'invalid');
  return new Date(ms).toISOString();
}

/** Checks an admin's input and turns it into the stored terms: the code upper-case, money in cents, percentages in hundredths. */
export function promoTermsOf(input: PromoTermsInput): PromoTerms {
  const code = normalizePromoCode(input.code ?? '');
  if (code.length === 0) throw new DomainError(CODE_REQUIRED, 'invalid');
  if (code.length > PROMO_CODE_MAX_LENGTH) throw new DomainError(CODE_TOO_LONG, 'invalid');
  if (!CODE.test(code)) throw new DomainError(CODE_CHARACTERS, 'invalid');
  if (!(discountTypes as readonly string[]).includes(input.discountType)) throw new DomainError(DISCOUNT_TYPE_INVALID, 'invalid');
  const discountType = input.discountType as DiscountType;
  const raw = String(input.discountValue).trim();
  if (!DECIMAL.test(raw)) throw new DomainError(DISCOUNT_NOT_POSITIVE, 'invalid');
  const [whole = '0', fraction = ''] = raw.split('.');
  const hundredths = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (hundredths < 1) throw new DomainError(DISCOUNT_NOT_POSITIVE, 'invalid');
  if (discountType === 'percentage' && hundredths > 10_000) throw new DomainError(PERCENTAGE_OVER_100, 'invalid');
  const maxUses = input.maxUses ?? null;
  if (!isLimit(maxUses)) throw new InvalidFieldError('maxUses', MAX_USES_INVALID);
  const maxUsesPerPerson = input.maxUsesPerPerson ?? null;
  if (!isLimit(maxUsesPerPerson)) throw new InvalidFieldError('maxUsesPerPerson', MAX_USES_PER_PERSON_INVALID);
  const validFrom = instant(input.validFrom);
  const validUntil = instant(input.validUntil);
  if (validFrom && validUntil && Date.parse(validUntil) <= Date.parse(validFrom)) throw new DomainError(VALIDITY_INVALID, 'invalid');
  const description = input.description?.trim() || null;
  return {
    code,
    description,
    discountType,
    discountValue: hundredths,
    maxUses,
    maxUsesPerPerson,
    validFrom,
    validUntil,
    isActive: input.isActive ?? true,
  };
}

/** The discount as the API shows it: a percentage number (10.5) or dollars (12.5). */
export const discountValueOf = (terms: Pick<PromoTerms, 'discountValue'>) => terms.discountValue / 100;

export interface PromoQuote {
  originalCents: number;
  discountCents: number;
  /** Never below zero (spec part 2 §7: a final price of 0 is a free purchase). */
  finalCents: number;
}

/** The price with the code applied: a percentage rounds to the cent; a fixed amount takes at most the price. */
export function quoteWithPromo(terms: Pick<PromoTerms, 'discountType' | 'discountValue'>, priceCents: number): PromoQuote {
  const raw = terms.discountType === 'percentage' ? Math.round((priceCents * terms.discountValue) / 10_000) : terms.discountValue;
  const discountCents = Math.min(priceCents, Math.max(0, raw));
  return { originalCents: priceCents, discountCents, finalCents: priceCents - discountCents };
}
