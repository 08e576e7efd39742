import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { DomainError } from '../kit/domainError.ts';
import { parseRecurrence, WEEKDAYS, type Weekday, wallClockIn } from './recurrence.ts';

/**
 * Tutor availability (spec part 2 §1, §2, §9): a tutor's bookable time is the recurring calendar
 * events named "Topmark Hours"; every other (busy) event blocks it; students see one-hour slots
 * as instants, shown in their own zone. Pure: `now` and every event arrive as arguments.
 */

export const TOPMARK_HOURS = 'Topmark Hours';
/** Private extended property Topmark puts on the hours it writes (`privateExtendedProperty=topmark=hours`). */
export const TOPMARK_HOURS_PROPERTY = { key: 'topmark', value: 'hours' } as const;
export const SLOT_MINUTES = 60;
/** Spec part 2 §9: bookable about 30 days (one month) ahead. */
export const BOOKING_WINDOW_DAYS = 30;

export const isTopmarkHours = (summary: string | null | undefined) =>
  (summary ?? '').trim().replace(/\s+/g, ' ').toLowerCase() === TOPMARK_HOURS.toLowerCase();

// ---------------------------------------------------------------------------------------------
// Weekly hours (POST/GET /api/tutor/availability) ⇄ recurring "Topmark Hours" events

/** One weekly window: dayOfWeek 0 = Sunday … 6 = Saturday, times "HH:mm" in the tutor's zone ("24:00" ends at midnight). */
export interface WeeklyHours {
  dayOfWeek: number;
  startTime: string;
  endTime: string;
}

export class InvalidDayOfWeekError extends DomainError {
  constructor(readonly field: string) {
    super(`${field} must be a whole number from 0 (Sunday) to 6 (Saturday)`, 'invalid');
    this.name = 'InvalidDayOfWeekError';
  }
}
export class InvalidTimeError extends DomainError {
  constructor(readonly field: string) {
    super(`${field} must be a time as HH:mm (00:00 to 23:59${field.endsWith('endTime') ? ', or 24:00' : ''})`, 'invalid');
    this.name = 'InvalidTimeError';
  }
}
export class EndBeforeStartError extends DomainError {
  constructor(readonly field: string) {
    super(`${field} must be after startTime`, 'invalid');
    this.name = 'EndBeforeStartError';
  }
}
export class InvalidTimeZoneError extends DomainError {
  constructor(readonly timeZone: string) {
    super(`"${timeZone}" is not a known time zone`, 'invalid');
    this.name = 'InvalidTimeZoneError';
  }
}

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The shape HTTP bodies carry (`{ availability: [...] }`); the rules are checked by `validateWeeklyHours`. */
export const weeklyHoursSchema = z.object({
  dayOfWeek: z.number(),
  startTime: z.string(),
  endTime: z.string(),
});

export function assertTimeZone(timeZone: string): string {
  try {
    return Temporal.PlainDate.from('2026-01-01').toZonedDateTime(timeZone).timeZoneId;
  } catch {
    throw new InvalidTimeZoneError(timeZone);
  }
}

/** Checks every entry; the first broken rule is thrown as a named error whose field reads `availability[i].…`. */
export function validateWeeklyHours(hours: readonly WeeklyHours[], field = 'availability'): WeeklyHours[] {
  return hours.map((h, i) => {
    const at = `${field}[${i}]`;
    if (!Number.isInteger(h.dayOfWeek) || h.dayOfWeek < 0 || h.dayOfWeek > 6) throw new InvalidDayOfWeekError(`${at}.dayOfWeek`);
    if (typeof h.startTime !== 'string' || !HH_MM.test(h.startTime)) throw new InvalidTimeError(`${at}.startTime`);
    if (typeof h.endTime !== 'string' || !(HH_MM.test(h.endTime) || h.endTime === '24:00')) throw new InvalidTimeError(`${at}.endTime`);
    if (minutesOf(h.endTime) <= minutesOf(h.startTime)) throw new EndBeforeStartError(`${at}.endTime`);
    return { dayOfWeek: h.dayOfWeek, startTime: h.startTime, endTime: h.endTime };
  });
}

/** What the calendar port's create takes for one recurring "Topmark Hours" event. */
export interface RecurringHoursEvent {
  summary: typeof TOPMARK_HOURS;
  /** Wall-clock date-times in `timeZone` (RFC 3339 without offset; Google reads them with `timeZone`). */
  start: { dateTime: string; timeZone: string };
  end: { dateTime: string; timeZone: string };
  recurrence: string[];
  /** Hours are not busy time: a free/busy look-up must not see them. */
  transparency: 'transparent';
  privateProperties: Record<string, string>;
}

// dayOfWeek 0 = Sunday … 6 = Saturday ⇄ RFC 5545 weekday codes and Temporal's 1 = Monday … 7 = Sunday.
const codeOfDay = (dayOfWeek: number): Weekday => WEEKDAYS[(dayOfWeek + 6) % 7]!;
const dayOfCode = (code: Weekday) => (WEEKDAYS.indexOf(code) + 1) % 7;

const plainTime = (time: string) => (time === '24:00' ? Temporal.PlainTime.from('00:00') : Temporal.PlainTime.from(time));
const localIso = (dt: Temporal.PlainDateTime) => dt.toString({ smallestUnit: 'second' });

/**
 * Weekly hours as recurring "Topmark Hours" events in `timeZone`: one weekly series per distinct
 * time range (`BYDAY` lists its days), starting on the first matching day on or after `startsOn`
 * (the tutor's local date; the domain has no clock). Duplicates collapse.
 */
export function weeklyHoursToRecurringEvents(
  hours: readonly WeeklyHours[],
  timeZone: string,
  options: { startsOn: string },
): RecurringHoursEvent[] {
  const zone = assertTimeZone(timeZone);
  const valid = validateWeeklyHours(hours);
  const startsOn = Temporal.PlainDate.from(options.startsOn);
  const ranges = new Map<string, Set<number>>();
  for (const h of valid) {
    const key = `${h.startTime}-${h.endTime}`;
    ranges.set(key, (ranges.get(key) ?? new Set()).add(h.dayOfWeek));
  }
  return [...ranges.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([range, daySet]) => {
      const [startTime = '', endTime = ''] = range.split('-');
      // Monday-first order, as RFC 5545 writes BYDAY.
      const days = [...daySet].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7));
      let first = startsOn;
      while (!daySet.has(first.dayOfWeek % 7)) first = first.add({ days: 1 });
      const start = first.toPlainDateTime(plainTime(startTime));
      const end = (endTime === '24:00' ? first.add({ days: 1 }) : first).toPlainDateTime(plainTime(endTime));
      return {
        summary: TOPMARK_HOURS,
        start: { dateTime: localIso(start), timeZone: zone },
        end: { dateTime: localIso(end), timeZone: zone },
        recurrence: [`RRULE:FREQ=WEEKLY;BYDAY=${days.map(codeOfDay).join(',')}`],
        transparency: 'transparent' as const,
        privateProperties: { [TOPMARK_HOURS_PROPERTY.key]: TOPMARK_HOURS_PROPERTY.value },
      };
    });
}

/** A calendar event as these functions read it: RFC 3339 date-times (with an offset, or wall-clock with `timeZone`). */
export interface HoursEventLike {
  summary?: string | null;
  start: { dateTime: string; timeZone?: string | null };
  end: { dateTime: string; timeZone?: string | null };
  recurrence?: readonly string[] | null;
}

export type ZonedWeeklyHours = WeeklyHours & { timeZone: string };

const hhmm = (t: Temporal.PlainTime) => t.toString({ smallestUnit: 'minute' });

function weeklyEntriesOf(start: Temporal.PlainDateTime, end: Temporal.PlainDateTime, days: number[], timeZone: string): ZonedWeeklyHours[] {
  const spanDays = start.toPlainDate().until(end.toPlainDate(), { largestUnit: 'days' }).days;
  const entries: ZonedWeeklyHours[] = [];
  for (const day of days) {
    // A window past midnight reads back as one entry per day it touches.
    for (let d = 0; d <= spanDays; d += 1) {
      const from = d === 0 ? hhmm(start.toPlainTime()) : '00:00';
      const to = d < spanDays ? '24:00' : hhmm(end.toPlainTime());
      if (from < to || to === '24:00') entries.push({ dayOfWeek: (day + d) % 7, startTime: from, endTime: to, timeZone });
    }
  }
  return entries;
}

/**
 * The weekly hours the recurring "Topmark Hours" events describe (what GET /api/tutor/availability
 * shows), each in its event's zone, sorted by day and time. Single events, other summaries and
 * series that ended before `asOf` (a local date) are left out; DAILY series count for every day.
 */
export function recurringEventsToWeeklyHours(
  events: readonly HoursEventLike[],
  options: { timeZone: string; asOf?: string },
): ZonedWeeklyHours[] {
  const fallbackZone = assertTimeZone(options.timeZone);
  const asOf = options.asOf ? Temporal.PlainDate.from(options.asOf) : null;
  const out: ZonedWeeklyHours[] = [];
  for (const event of events) {
    if (!isTopmarkHours(event.summary)) continue;
    const zone = assertTimeZone(event.start.timeZone ?? fallbackZone);
    const recurrence = parseRecurrence(event.recurrence, zone);
    if (!recurrence) continue;
    const { rule } = recurrence;
    if (asOf && rule.until) {
      const untilDate = rule.until.kind === 'date' ? rule.until.date : rule.until.instant.toZonedDateTimeISO(zone).toPlainDate();
      if (Temporal.PlainDate.compare(untilDate, asOf) < 0) continue;
    }
    const start = wallClockIn(event.start.dateTime, zone);
    const end = wallClockIn(event.end.dateTime, event.end.timeZone ?? zone);
    const codes = rule.freq === 'DAILY' ? (rule.byDay ?? [...WEEKDAYS]) : (rule.byDay ?? [WEEKDAYS[start.dayOfWeek - 1]!]);
    out.push(...weeklyEntriesOf(start, end, codes.map(dayOfCode), zone));
  }
  const key = (h: ZonedWeeklyHours) => `${h.dayOfWeek}|${h.startTime}|${h.endTime}|${h.timeZone}`;
  return [...new Map(out.map((h) => [key(h), h])).values()].sort(
    (a, b) => a.dayOfWeek - b.dayOfWeek || a.startTime.localeCompare(b.startTime) || a.endTime.localeCompare(b.endTime),
  );
}

// ---------------------------------------------------------------------------------------------
// Instants and intervals (the one slot engine is src/domain/sessions/freeSlots.ts)

/** An interval between two instants, as RFC 3339 strings (any offset; slots come back in UTC). */
export interface TimeInterval {
  start: string;
  end: string;
}
export type InstantInput = Temporal.Instant | Date | string;

export const toInstant = (value: InstantInput): Temporal.Instant =>
  value instanceof Temporal.Instant
    ? value
    : value instanceof Date
      ? Temporal.Instant.fromEpochMilliseconds(value.getTime())
      : Temporal.Instant.from(value);
