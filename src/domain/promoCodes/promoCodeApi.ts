import { z } from 'zod';
import { isSupportedEpochMs } from '../kit/supportedDates.ts';
import { discountTypes } from './promoCode.ts';
import {
  CODE_CHARACTERS,
  CODE_REQUIRED,
  CODE_TOO_LONG,
  DATE_INVALID,
  DATE_OUT_OF_RANGE,
  DISCOUNT_NOT_POSITIVE,
  DISCOUNT_TYPE_INVALID,
  isPromoCodeText,
  isPromoDate,
  MAX_USES_INVALID,
  MAX_USES_PER_PERSON_INVALID,
  PROMO_CODE_MAX_LENGTH,
} from './promoTerms.ts';

/**
 * The promo codes API (spec part 2 §3, §5, §7), shared by the server and the UI
 * (`@shared/promoCodes/promoCodeApi.ts`). The server checks the terms again in the domain
 * (`promoTermsOf`), with the same messages.
 */

export const DESCRIPTION_TOO_LONG = 'Description must be at most 500 characters';
export const ENTER_PROMO_CODE = 'Please enter a promo code';

/** A date written as `reads` takes it, in the supported years (src/domain/kit/supportedDates.ts); `blank` is no date. */
const promoDate = (reads: (s: string) => boolean, blank: (s: string) => boolean) =>
  z
    .string({ error: DATE_INVALID })
    .max(64, { error: DATE_INVALID, abort: true })
    .refine((s) => blank(s) || reads(s), { error: DATE_INVALID, abort: true })
    .refine((s) => blank(s) || isSupportedEpochMs(Date.parse(s)), { error: DATE_OUT_OF_RANGE });

/** An ISO date-time with its offset or a calendar day (`isPromoDate`); empty is no date. */
const dateTime = promoDate(isPromoDate, (s) => s === '').nullish();

/** POST /api/admin/promo-codes and PATCH /api/admin/promo-codes/{id}: the discount as a decimal string, empty limits and dates as null. */
export const promoCodeBodySchema = z
  .object({
    code: z
      .string({ error: CODE_REQUIRED })
      .trim()
      .min(1, CODE_REQUIRED)
      .max(PROMO_CODE_MAX_LENGTH, CODE_TOO_LONG)
      .refine((v) => v === '' || isPromoCodeText(v), CODE_CHARACTERS),
    description: z.string({ error: DESCRIPTION_TOO_LONG }).trim().max(500, DESCRIPTION_TOO_LONG).nullish(),
    discountType: z.enum(discountTypes, { error: DISCOUNT_TYPE_INVALID }),
    discountValue: z
      .union([z.string().max(20, DISCOUNT_NOT_POSITIVE), z.number()], { error: DISCOUNT_NOT_POSITIVE })
      .refine((v) => String(v).trim() !== '' && Number.isFinite(Number(v)) && Number(v) >= 0.01, DISCOUNT_NOT_POSITIVE),
    maxUses: z
      .number({ error: MAX_USES_INVALID })
      .int(MAX_USES_INVALID)
      .min(1, MAX_USES_INVALID)
      .max(1_000_000_000, MAX_USES_INVALID)
      .nullish(),
    /** How many times one account may use the code; absent or null: no limit per person. */
    maxUsesPerPerson: z
      .number({ error: MAX_USES_PER_PERSON_INVALID })
      .int(MAX_USES_PER_PERSON_INVALID)
      .min(1, MAX_USES_PER_PERSON_INVALID)
      .max(1_000_000_000, MAX_USES_PER_PERSON_INVALID)
      .nullish(),
    validFrom: dateTime,
    validUntil: dateTime,
    isActive: z.boolean({ error: 'isActive must be true or false' }).optional(),
  })
  .strict();
export type PromoCodeBody = z.output<typeof promoCodeBodySchema>;

/** A promo code as the admin sees it (spec part 2 §3 "Promo code"). */
export const promoCodeSchema = z.object({
  id: z.string(),
  code: z.string(),
  description: z.string().nullable(),
  discountType: z.enum(discountTypes),
  /** A decimal string: "10.00" (percent) or "25.00" (dollars). */
  discountValue: z.string(),
  maxUses: z.number().int().nullable(),
  maxUsesPerPerson: z.number().int().nullable(),
  currentUses: z.number().int(),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
});
export type PromoCode = z.output<typeof promoCodeSchema>;

/** GET /api/admin/promo-redemptions entries (spec part 2 §3 "Promo redemption"): the discount in dollars. */
export const promoRedemptionSchema = z.object({
  id: z.string(),
  promoCodeId: z.string(),
  userId: z.string(),
  purchaseId: z.string(),
  discountAmount: z.number(),
  redeemedAt: z.string(),
});
export type PromoRedemption = z.output<typeof promoRedemptionSchema>;

/** POST /api/promo-codes/validate: the price comes from the package on the server, never from the browser. */
export const promoValidateBodySchema = z
  .object({
    code: z.string({ error: ENTER_PROMO_CODE }).trim().min(1, ENTER_PROMO_CODE).max(200, 'Invalid promo code'),
    packageId: z.string({ error: 'Please select a package' }).min(1, 'Please select a package').max(100, 'Package not found'),
    userId: z.string({ error: 'userId is required' }).min(1, 'userId is required').max(100, 'userId is too long'),
  })
  .strict();

/** The promo validation result (spec part 2 §3), in dollars; the final price is never below zero. */
export const promoValidationSchema = z.object({
  promoCode: z.object({ id: z.string(), code: z.string(), description: z.string().nullable() }),
  originalPrice: z.number(),
  discountAmount: z.number(),
  finalPrice: z.number(),
});
export type PromoValidation = z.output<typeof promoValidationSchema>;

/** A datetime-local input's value ("2026-05-01T10:00", the browser's local time), as `toPromoCodeBody` reads it. */
const readsAsLocalDate = (s: string) => !Number.isNaN(Date.parse(s));

/**
 * The admin's form (spec part 2 §5) as the inputs hold it: strings for numbers and dates.
 * `toPromoCodeBody` turns it into the request: the discount as a string, empty max uses and dates
 * as null, dates as ISO.
 */
export const promoCodeFormSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, CODE_REQUIRED)
    .max(PROMO_CODE_MAX_LENGTH, CODE_TOO_LONG)
    .refine((v) => v === '' || isPromoCodeText(v), CODE_CHARACTERS),
  description: z.string().max(500, DESCRIPTION_TOO_LONG),
  discountType: z.enum(discountTypes),
  discountValue: z.string().refine((v) => v.trim() !== '' && Number.isFinite(Number(v)) && Number(v) >= 0.01, DISCOUNT_NOT_POSITIVE),
  maxUses: z.string().refine((v) => v.trim() === '' || (/^\d+$/.test(v.trim()) && Number(v) >= 1), MAX_USES_INVALID),
  /** Empty: no limit per person. */
  maxUsesPerPerson: z
    .string()
    .refine(
      (v) => v.trim() === '' || (/^\d{1,10}$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 1_000_000_000),
      MAX_USES_PER_PERSON_INVALID,
    ),
  /** The datetime-local inputs' values; empty is no date. */
  validFrom: promoDate(readsAsLocalDate, (s) => s.trim() === ''),
  validUntil: promoDate(readsAsLocalDate, (s) => s.trim() === ''),
  isActive: z.boolean(),
});
export type PromoCodeFormValues = z.output<typeof promoCodeFormSchema>;

const isoOrNull = (local: string) => (local.trim() === '' ? null : new Date(local).toISOString());

export function toPromoCodeBody(values: PromoCodeFormValues): PromoCodeBody {
  return {
    code: values.code.trim().toUpperCase(),
    description: values.description.trim() === '' ? null : values.description.trim(),
    discountType: values.discountType,
    discountValue: String(values.discountValue).trim(),
    maxUses: values.maxUses.trim() === '' ? null : Number(values.maxUses),
    maxUsesPerPerson: values.maxUsesPerPerson.trim() === '' ? null : Number(values.maxUsesPerPerson),
    validFrom: isoOrNull(values.validFrom),
    validUntil: isoOrNull(values.validUntil),
    isActive: values.isActive,
  };
}
