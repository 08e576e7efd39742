import { Temporal } from 'temporal-polyfill';
import { DomainError } from '../kit/domainError.ts';

/**
 * The part of RFC 5545 recurrence that tutors' calendars need (weekly "Topmark Hours", daily
 * blocks): `RRULE` with FREQ=DAILY|WEEKLY, INTERVAL, BYDAY (plain weekdays), WKST, and either
 * COUNT or UNTIL; `EXDATE` (UTC, TZID or floating date-times, or dates). Anything else is refused
 * with a named error rather than expanded wrongly.
 *
 * Expansion happens in the series' time zone: every occurrence starts at DTSTART's wall-clock
 * time on its date, so a 09:00 series stays at 09:00 across daylight-saving changes (its instant
 * moves by the offset change). A wall time the change skips or repeats resolves like RFC 5545 and
 * Google Calendar: a skipped time moves forward by the gap, a repeated time takes the first
 * (earlier) instant (Temporal's `compatible`). An occurrence's end is DTEND's wall-clock distance
 * from DTSTART (09:00–17:00 stays 09:00–17:00 on the change day). DTSTART is always the first
 * occurrence (RFC 5545 §3.8.5.3), and COUNT counts occurrences before EXDATE removes any.
 *
 * Pure: no clock; every instant arrives as an argument.
 */

export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A recurrence this module cannot expand (or a malformed one): refused, never guessed. */
export class UnsupportedRecurrenceError extends DomainError {
  constructor(message: string) {
    super(message, 'invalid');
    this.name = 'UnsupportedRecurrenceError';
  }
}

export type Until = { kind: 'date'; date: Temporal.PlainDate } | { kind: 'instant'; instant: Temporal.Instant };
type ExDate = Until;

export interface RecurrenceRule {
  freq: 'DAILY' | 'WEEKLY';
  interval: number;
  /** WEEKLY: the weekdays it falls on (null: DTSTART's weekday). DAILY: a filter. */
  byDay: Weekday[] | null;
  count: number | null;
  until: Until | null;
  weekStart: Weekday;
}

export interface Recurrence {
  rule: RecurrenceRule;
  exdates: ExDate[];
}

/** One event as a calendar stores it: DTSTART/DTEND as wall-clock times in its zone, and its recurrence lines. */
export interface SeriesDefinition {
  start: Temporal.PlainDateTime;
  end: Temporal.PlainDateTime;
  timeZone: string;
  /** Google's `recurrence` field: `RRULE:…`, `EXDATE…` lines; empty or null for a single event. */
  recurrence?: readonly string[] | null;
}

export interface Occurrence {
  start: Temporal.Instant;
  end: Temporal.Instant;
}

const isoWeekday = (day: Weekday) => WEEKDAYS.indexOf(day) + 1; // Temporal: Monday 1 … Sunday 7
export const weekdayOf = (date: Temporal.PlainDate): Weekday => WEEKDAYS[date.dayOfWeek - 1]!;

const isWeekday = (value: string): value is Weekday => (WEEKDAYS as readonly string[]).includes(value);

/** `20261231`, `20261231T235959Z` (UTC) or `20261231T235959` (wall time in the series' zone). */
function parseDateOrDateTime(value: string, timeZone: string, what: string): Until {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value.trim());
  if (!m) throw new UnsupportedRecurrenceError(`${what} "${value}" is not an RFC 5545 date or date-time`);
  const [, y, mo, d, h, mi, s, z] = m;
  try {
    const date = Temporal.PlainDate.from({ year: Number(y), month: Number(mo), day: Number(d) }, { overflow: 'reject' });
    if (h === undefined) return { kind: 'date', date };
    const local = date.toPlainDateTime({ hour: Number(h), minute: Number(mi), second: Number(s) });
    const instant = z
      ? local.toZonedDateTime('UTC').toInstant()
      : local.toZonedDateTime(timeZone, { disambiguation: 'compatible' }).toInstant();
    return { kind: 'instant', instant };
  } catch (error) {
    if (error instanceof UnsupportedRecurrenceError) throw error;
    throw new UnsupportedRecurrenceError(`${what} "${value}" is not a valid date`);
  }
}

const positiveInt = (value: string, what: string) => {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UnsupportedRecurrenceError(`${what} must be a positive whole number`);
  return Number(value);
};

function parseRule(text: string, timeZone: string): RecurrenceRule {
  const rule: RecurrenceRule = { freq: 'WEEKLY', interval: 1, byDay: null, count: null, until: null, weekStart: 'MO' };
  let freq: string | null = null;
  for (const part of text.split(';')) {
    if (!part) continue;
    const [key = '', value = ''] = part.split('=', 2).map((s) => s.trim().toUpperCase());
    switch (key) {
      case 'FREQ':
        freq = value;
        break;
      case 'INTERVAL':
        rule.interval = positiveInt(value, 'INTERVAL');
        break;
      case 'COUNT':
        rule.count = positiveInt(value, 'COUNT');
        break;
      case 'UNTIL':
        rule.until = parseDateOrDateTime(value, timeZone, 'UNTIL');
        break;
      case 'WKST':
        if (!isWeekday(value)) throw new UnsupportedRecurrenceError(`WKST "${value}" is not a weekday`);
        rule.weekStart = value;
        break;
      case 'BYDAY': {
        const days = value.split(',').map((d) => d.trim());
        if (days.length === 0 || !days.every(isWeekday)) {
          throw new UnsupportedRecurrenceError(`BYDAY "${value}" is not supported (plain weekdays such as MO,WE only)`);
        }
        rule.byDay = [...new Set(days)];
        break;
      }
      default:
        throw new UnsupportedRecurrenceError(`The recurrence part ${key || part} is not supported`);
    }
  }
  if (freq !== 'DAILY' && freq !== 'WEEKLY') {
    throw new UnsupportedRecurrenceError(`FREQ=${freq ?? '(missing)'} is not supported (DAILY or WEEKLY only)`);
  }
  rule.freq = freq;
  if (rule.count !== null && rule.until !== null) throw new UnsupportedRecurrenceError('COUNT and UNTIL cannot both be given');
  return rule;
}

function parseExDates(line: string, timeZone: string): ExDate[] {
  const colon = line.indexOf(':');
  if (colon < 0) throw new UnsupportedRecurrenceError(`"${line}" has no value`);
  const params = line.slice(0, colon).split(';').slice(1);
  let zone = timeZone;
  for (const param of params) {
    const [key = '', value = ''] = param.split('=', 2);
    if (key.toUpperCase() === 'TZID') zone = value;
  }
  return line
    .slice(colon + 1)
    .split(',')
    .filter((v) => v.trim() !== '')
    .map((v) => parseDateOrDateTime(v, zone, 'EXDATE'));
}

/** Reads Google's `recurrence` lines; null when there is no RRULE (a single event). */
export function parseRecurrence(lines: readonly string[] | null | undefined, timeZone: string): Recurrence | null {
  let rule: RecurrenceRule | null = null;
  const exdates: ExDate[] = [];
  for (const raw of lines ?? []) {
    const line = raw.trim();
    if (!line) continue;
    const name = line.split(/[;:]/, 1)[0]!.toUpperCase();
    if (name === 'RRULE') {
      if (rule) throw new UnsupportedRecurrenceError('Only one RRULE per event is supported');
      rule = parseRule(line.slice(line.indexOf(':') + 1), timeZone);
    } else if (name === 'EXDATE') {
      exdates.push(...parseExDates(line, timeZone));
    } else {
      throw new UnsupportedRecurrenceError(`${name} is not supported (RRULE and EXDATE only)`);
    }
  }
  if (!rule) {
    if (exdates.length > 0) throw new UnsupportedRecurrenceError('EXDATE without an RRULE');
    return null;
  }
  return { rule, exdates };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `20261231T235959Z`: the UTC form UNTIL must take when DTSTART has a zone, and Google's instance-id suffix. */
export function basicUtc(instant: Temporal.Instant): string {
  const t = instant.toZonedDateTimeISO('UTC');
  return `${pad(t.year, 4)}${pad(t.month)}${pad(t.day)}T${pad(t.hour)}${pad(t.minute)}${pad(t.second)}Z`;
}

export function formatRule(rule: RecurrenceRule): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.byDay) parts.push(`BYDAY=${rule.byDay.join(',')}`);
  if (rule.weekStart !== 'MO') parts.push(`WKST=${rule.weekStart}`);
  if (rule.count !== null) parts.push(`COUNT=${rule.count}`);
  if (rule.until?.kind === 'instant') parts.push(`UNTIL=${basicUtc(rule.until.instant)}`);
  if (rule.until?.kind === 'date') {
    const d = rule.until.date;
    parts.push(`UNTIL=${pad(d.year, 4)}${pad(d.month)}${pad(d.day)}`);
  }
  return `RRULE:${parts.join(';')}`;
}

/** Dates the rule yields, ascending, from the period `firstPeriod` on (DTSTART itself not included). */
function* ruleDates(start: Temporal.PlainDate, rule: RecurrenceRule, firstPeriod: number): Generator<Temporal.PlainDate> {
  if (rule.freq === 'DAILY') {
    // Every 7th day is always the same weekday: a BYDAY that misses it yields nothing, ever.
    if (rule.byDay && rule.interval % 7 === 0 && !rule.byDay.includes(weekdayOf(start))) return;
    for (let k = firstPeriod; ; k += rule.interval) {
      const date = start.add({ days: k });
      if (rule.byDay && !rule.byDay.includes(weekdayOf(date))) continue;
      yield date;
    }
  }
  const offsetOf = (day: Weekday) => (isoWeekday(day) - isoWeekday(rule.weekStart) + 7) % 7;
  const offsets = (rule.byDay ?? [weekdayOf(start)]).map(offsetOf).sort((a, b) => a - b);
  const weekOne = start.subtract({ days: offsetOf(weekdayOf(start)) });
  for (let k = firstPeriod; ; k += rule.interval) {
    for (const offset of offsets) yield weekOne.add({ days: 7 * k + offset });
  }
}

/**
 * The first period worth generating for a window starting at `fromDate` (the series' wall-clock
 * date, already moved back by the longest an occurrence lasts). Only without COUNT: COUNT needs
 * every occurrence from DTSTART on.
 */
function firstPeriodFor(start: Temporal.PlainDate, rule: RecurrenceRule, fromDate: Temporal.PlainDate): number {
  if (rule.count !== null || Temporal.PlainDate.compare(fromDate, start) <= 0) return 0;
  const days = start.until(fromDate, { largestUnit: 'days' }).days;
  const periodDays = rule.freq === 'DAILY' ? rule.interval : 7 * rule.interval;
  // One period of margin: the week that holds DTSTART starts before it.
  return Math.max(0, Math.floor(days / periodDays) - 1) * rule.interval;
}

const resolve = (local: Temporal.PlainDateTime, timeZone: string) =>
  local.toZonedDateTime(timeZone, { disambiguation: 'compatible' }).toInstant();

function excluded(exdates: ExDate[], local: Temporal.PlainDateTime, instant: Temporal.Instant): boolean {
  return exdates.some((x) =>
    x.kind === 'instant'
      ? Temporal.Instant.compare(x.instant, instant) === 0
      : Temporal.PlainDate.compare(x.date, local.toPlainDate()) === 0,
  );
}

function beyondUntil(until: Until | null, local: Temporal.PlainDateTime, instant: Temporal.Instant): boolean {
  if (!until) return false;
  return until.kind === 'date'
    ? Temporal.PlainDate.compare(local.toPlainDate(), until.date) > 0
    : Temporal.Instant.compare(instant, until.instant) > 0;
}

const overlaps = (o: Occurrence, from: Temporal.Instant, to: Temporal.Instant) =>
  Temporal.Instant.compare(o.start, to) < 0 &&
  (Temporal.Instant.compare(o.end, from) > 0 ||
    (Temporal.Instant.compare(o.start, o.end) === 0 && Temporal.Instant.compare(o.start, from) >= 0));

/**
 * The occurrences of a series that overlap [from, to), in order: an occurrence is kept when it
 * ends after `from` and starts before `to` (Google's timeMin/timeMax semantics).
 */
export function occurrencesBetween(series: SeriesDefinition, from: Temporal.Instant, to: Temporal.Instant): Occurrence[] {
  const recurrence = parseRecurrence(series.recurrence, series.timeZone);
  const length = series.start.until(series.end, { largestUnit: 'days' });
  const occurrence = (local: Temporal.PlainDateTime): Occurrence => {
    const start = resolve(local, series.timeZone);
    const end = resolve(local.add(length), series.timeZone);
    return { start, end: Temporal.Instant.compare(end, start) < 0 ? start : end };
  };
  const first = occurrence(series.start);
  if (!recurrence) return overlaps(first, from, to) ? [first] : [];

  const { rule, exdates } = recurrence;
  const out: Occurrence[] = [];
  const startDate = series.start.toPlainDate();
  const time = series.start.toPlainTime();
  const keep = (local: Temporal.PlainDateTime, o: Occurrence) => {
    if (!excluded(exdates, local, o.start) && overlaps(o, from, to)) out.push(o);
  };
  let produced = 1;
  keep(series.start, first);
  const fromDate = from
    .toZonedDateTimeISO(series.timeZone)
    .toPlainDate()
    .subtract({ days: Math.abs(length.days) + 2 });
  for (const date of ruleDates(startDate, rule, firstPeriodFor(startDate, rule, fromDate))) {
    if (Temporal.PlainDate.compare(date, startDate) <= 0) continue;
    if (rule.count !== null && produced >= rule.count) break;
    const local = date.toPlainDateTime(time);
    const o = occurrence(local);
    if (beyondUntil(rule.until, local, o.start) || Temporal.Instant.compare(o.start, to) >= 0) break;
    produced += 1;
    keep(local, o);
  }
  return out;
}

/** Reads an RFC 3339 date-time as a wall-clock time in `timeZone`: an offset or Z converts; none is already local. */
export function wallClockIn(value: string, timeZone: string): Temporal.PlainDateTime {
  return /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(value.trim())
    ? Temporal.Instant.from(value.trim()).toZonedDateTimeISO(timeZone).toPlainDateTime()
    : Temporal.PlainDateTime.from(value.trim());
}
