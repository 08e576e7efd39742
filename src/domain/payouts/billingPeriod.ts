import { Temporal } from 'temporal-polyfill';
import { isSupportedDay } from '../kit/supportedDates.ts';

/**
 * The tutor dashboard's time spans (spec part 2 §2, §9), in the tutor's zone: weeks run Monday to
 * Sunday, billing periods 1st–15th and 16th–end of month. Pure: the instant and the zone arrive as
 * arguments. Each span is half-open, `[start, end)`, as instants (a session counts in the span its
 * start falls in); `firstDay`/`lastDay` name the calendar days it covers.
 */
export interface Span {
  start: Date;
  end: Date;
  /** The first local day, `yyyy-MM-dd`. */
  firstDay: string;
  /** The last local day, inclusive, `yyyy-MM-dd`. */
  lastDay: string;
}

const instantOf = (day: Temporal.PlainDate, timeZone: string) => new Date(day.toZonedDateTime({ timeZone }).epochMilliseconds);

function span(first: Temporal.PlainDate, nextFirst: Temporal.PlainDate, timeZone: string): Span {
  return {
    // The start of a local day: `toZonedDateTime` picks the first instant of the day when midnight does not exist (a DST gap).
    start: instantOf(first, timeZone),
    end: instantOf(nextFirst, timeZone),
    firstDay: first.toString(),
    lastDay: nextFirst.subtract({ days: 1 }).toString(),
  };
}

const localDate = (instant: Date, timeZone: string) =>
  Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone).toPlainDate();

/** The billing period `instant` falls in: the 1st to the 15th, or the 16th to the month's last day. */
export function billingPeriodOf(instant: Date, timeZone: string): Span {
  return periodOfDay(localDate(instant, timeZone), timeZone);
}

/** Tutors are paid by periods of Topmark's office in Toronto, whatever zone the tutor lives in. */
export const PAYOUT_TIME_ZONE = 'America/Toronto';

/** A `yyyy-MM-dd` that names a real calendar day of the supported years (src/domain/kit/supportedDates.ts), or null. */
export function parseDay(day: string): Temporal.PlainDate | null {
  return isSupportedDay(day) ? Temporal.PlainDate.from(day) : null;
}

/** The billing period holding the local day `day` (`yyyy-MM-dd`); null when it is not a date. */
export function billingPeriodOfDay(day: string, timeZone: string): Span | null {
  const date = parseDay(day);
  return date && periodOfDay(date, timeZone);
}

/** Whether `day` is the first day of a billing period (the 1st or the 16th). */
export const isBillingPeriodStart = (day: string) => {
  const date = parseDay(day);
  return date !== null && (date.day === 1 || date.day === 16);
};

/** The period after `period` (its day after the last). */
export const nextBillingPeriod = (period: Span, timeZone: string): Span =>
  periodOfDay(Temporal.PlainDate.from(period.lastDay).add({ days: 1 }), timeZone);

/** The period before `period` (its day before the first). */
export const previousBillingPeriod = (period: Span, timeZone: string): Span =>
  periodOfDay(Temporal.PlainDate.from(period.firstDay).subtract({ days: 1 }), timeZone);

function periodOfDay(day: Temporal.PlainDate, timeZone: string): Span {
  const firstOfMonth = day.with({ day: 1 });
  return day.day <= 15
    ? span(firstOfMonth, firstOfMonth.with({ day: 16 }), timeZone)
    : span(firstOfMonth.with({ day: 16 }), firstOfMonth.add({ months: 1 }), timeZone);
}

/** The week `instant` falls in: Monday to Sunday. */
export function weekOf(instant: Date, timeZone: string): Span {
  const day = localDate(instant, timeZone);
  const monday = day.subtract({ days: day.dayOfWeek - 1 });
  return span(monday, monday.add({ days: 7 }), timeZone);
}
