import { z } from 'zod';
import { InvalidFieldError } from './domainError.ts';

/**
 * The dates a person may give Topmark: calendar days and instants in the years 1900 to 2200,
 * written with four digits. One rule for every route, body and filter that takes a date.
 *
 * Why a bound at all: what the log accepts, every read model must store and every calendar
 * computation must survive. PostgreSQL's `timestamptz` and `date` have no year 0 and end in
 * 294276 AD (`timestamptz`); JavaScript's `Date` and Temporal end at ±275760-09-13, where a zone
 * offset or a day's step throws; an ISO year beyond 9999 needs six digits and a sign that no store
 * reads back alike. Unbounded, an admin saved a promo code valid until +275760-09-13 (200, appended,
 * then parked by `promo_codes`), and the years 0000, 0001 and 9999 answered 500 on booking,
 * rescheduling and the availability routes.
 *
 * Why these years: nothing Topmark records is older than 1900 (a console filter from 1900 reaches
 * every row) and nothing it plans reaches 2200 (bookings run 30 days ahead; promo codes, rates and
 * payout periods are planned in years), while any value inside, moved by any zone offset or by a
 * billing period, stays far inside every store's range. Pure: no clock, so it says nothing about
 * "too late to book" — the product's own rules (the 30-day window, a past hour) answer that.
 */
export const FIRST_SUPPORTED_YEAR = 1900;
export const LAST_SUPPORTED_YEAR = 2200;

const FIRST_MS = Date.UTC(FIRST_SUPPORTED_YEAR, 0, 1);
const END_MS = Date.UTC(LAST_SUPPORTED_YEAR + 1, 0, 1);

/** The refusal of a well-formed date outside the supported years, naming what was given. */
export const outsideSupportedDates = (label: string) =>
  `${label} must be between ${FIRST_SUPPORTED_YEAR}-01-01 and ${LAST_SUPPORTED_YEAR}-12-31`;

/** `yyyy-MM-dd` naming a day that exists (leap years included). */
const ISO_DAY = z.iso.date();
/** An ISO 8601 date-time with seconds and `Z` or an offset (`2026-05-01T14:00:00-04:00`). */
const ISO_INSTANT = z.iso.datetime({ offset: true });
/** A wall-clock `yyyy-MM-ddTHH:mm` (no offset: the zone is given apart). */
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d$/;

const inSupportedYears = (year: number) => year >= FIRST_SUPPORTED_YEAR && year <= LAST_SUPPORTED_YEAR;

/** Whether an instant (milliseconds since the epoch, UTC) lies in the supported years. */
export const isSupportedEpochMs = (ms: number) => Number.isFinite(ms) && ms >= FIRST_MS && ms < END_MS;

export const isIsoDay = (value: string) => ISO_DAY.safeParse(value).success;
export const isIsoInstant = (value: string) => ISO_INSTANT.safeParse(value).success;

/** A real day `yyyy-MM-dd` in the supported years. */
export const isSupportedDay = (value: string) => isIsoDay(value) && inSupportedYears(Number(value.slice(0, 4)));

/** An ISO instant with its offset whose UTC time lies in the supported years. */
export const isSupportedInstant = (value: string) => isIsoInstant(value) && isSupportedEpochMs(Date.parse(value));

/** Whether a wall-clock `yyyy-MM-ddTHH:mm` is well-formed (a real day, a time of day), in any year. */
export const isLocalDateTime = (value: string) => {
  const day = LOCAL_DATE_TIME.exec(value)?.[1];
  return day !== undefined && isIsoDay(day);
};

/** A wall-clock `yyyy-MM-ddTHH:mm` on a real day of the supported years. */
export const isSupportedLocalDateTime = (value: string) => isLocalDateTime(value) && isSupportedDay(value.slice(0, 10));

/**
 * `value` when it is a real day of the supported years; else an `InvalidFieldError` naming
 * `field` (the format's message, or the range's for a real day out of range). For days read by
 * hand, past any schema: nothing unsupported reaches Temporal, SQL or the log.
 */
export function supportedDayOf(value: string, field: string, format: string): string {
  if (isSupportedDay(value)) return value;
  throw new InvalidFieldError(field, isIsoDay(value) ? outsideSupportedDates(field) : format);
}

export interface DateMessages {
  /** Said when the value is not written as the field takes it. */
  format: string;
  /** Said when it is, but lies outside the supported years (default: "{label} must be between …"). */
  range?: string;
  /** How the range message names the value (default "The date"). */
  label?: string;
}

const rangeMessage = (m: DateMessages) => m.range ?? outsideSupportedDates(m.label ?? 'The date');

/**
 * A calendar day `yyyy-MM-dd` that exists and lies in the supported years: the format's message
 * for anything else written, the range's for a real day out of range. The OpenAPI document says
 * `format: date`.
 */
export const supportedDay = (messages: DateMessages) =>
  z.iso.date({ error: messages.format, abort: true }).refine(isSupportedDay, { error: rangeMessage(messages) });

/** An ISO instant with seconds and `Z` or an offset, in the supported years (`format: date-time`). */
export const supportedInstant = (messages: DateMessages) =>
  z.iso.datetime({ offset: true, error: messages.format, abort: true }).refine(isSupportedInstant, { error: rangeMessage(messages) });

/** A wall-clock `yyyy-MM-ddTHH:mm` (its zone given apart) on a real day of the supported years. */
export const supportedLocalDateTime = (messages: DateMessages) =>
  z
    .string({ error: messages.format })
    .refine(isLocalDateTime, { error: messages.format, abort: true })
    .refine(isSupportedLocalDateTime, { error: rangeMessage(messages) });
