import { Temporal } from 'temporal-polyfill';

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
  const day = localDate(instant, timeZone);
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
