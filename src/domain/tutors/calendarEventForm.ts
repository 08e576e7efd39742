import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { isTopmarkHours } from '../calendar/availability.ts';
import { basicUtc, formatRule, parseRecurrence, type Until, WEEKDAYS, type Weekday, weekdayOf } from '../calendar/recurrence.ts';
import {
  type CalendarEventAnswer,
  type EventTimeBody,
  FIRST_EVENT_YEAR,
  instantOfTime,
  LAST_EVENT_YEAR,
  MAX_OCCURRENCE_COUNT,
  TITLE_REQUIRED,
  TITLE_TOO_LONG,
} from './calendarEventsApi.ts';

/**
 * The tutor's event form in the calendar week view, as its inputs hold it (strings, a day list),
 * and the request it becomes: a single event or a weekly series in the tutor's zone (wall-clock
 * `dateTime` + `timeZone`, as Google keeps recurring events), free or busy, "Topmark Hours" always
 * free (hours are bookable time, never busy). Pure; the UI validates with the schema and sends
 * `toCalendarEventBody`.
 */

export const PICK_A_DATE = 'Please choose a date';
export const PICK_A_START = 'Please enter a start time';
export const PICK_AN_END = 'Please enter an end time';
export const END_AFTER_START = 'The end time must be after the start time';
export const PICK_A_DAY = 'Choose at least one day';
export const UNTIL_AFTER_START = 'Choose an end date on or after the first day';
export const COUNT_RANGE = `Enter a number from 1 to ${MAX_OCCURRENCE_COUNT}`;

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

function dateOf(value: string): Temporal.PlainDate | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  try {
    const date = Temporal.PlainDate.from(value, { overflow: 'reject' });
    return date.year >= FIRST_EVENT_YEAR && date.year <= LAST_EVENT_YEAR ? date : null;
  } catch {
    return null;
  }
}

/** An end of "00:00" is the midnight that ends the day (a 22:00–00:00 event). */
const endsAtMidnight = (startTime: string, endTime: string) => endTime === '00:00' && HH_MM.test(startTime);

export const calendarEventFormSchema = z
  .object({
    summary: z.string(),
    description: z.string().max(8000, 'A description can be at most 8000 characters'),
    allDay: z.boolean(),
    /** The (first) day, yyyy-MM-dd in the tutor's zone. */
    date: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    /** `custom`: a series the form cannot show (daily, every other week…), kept as it is. */
    repeat: z.enum(['none', 'weekly', 'custom']),
    days: z.array(z.enum(WEEKDAYS)),
    ends: z.enum(['never', 'on', 'after']),
    until: z.string(),
    count: z.string(),
    show: z.enum(['busy', 'free']),
  })
  .superRefine((v, ctx) => {
    const problem = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    const title = v.summary.trim();
    if (!title) problem('summary', TITLE_REQUIRED);
    else if (title.length > 200) problem('summary', TITLE_TOO_LONG);
    const first = dateOf(v.date);
    if (!first) problem('date', PICK_A_DATE);
    if (!v.allDay) {
      if (!HH_MM.test(v.startTime)) problem('startTime', PICK_A_START);
      if (!HH_MM.test(v.endTime)) problem('endTime', PICK_AN_END);
      else if (HH_MM.test(v.startTime) && v.endTime <= v.startTime && !endsAtMidnight(v.startTime, v.endTime))
        problem('endTime', END_AFTER_START);
    }
    if (v.repeat !== 'weekly') return;
    if (v.days.length === 0) problem('days', PICK_A_DAY);
    if (v.ends === 'on') {
      const until = dateOf(v.until);
      if (!until || (first && Temporal.PlainDate.compare(until, first) < 0)) problem('until', UNTIL_AFTER_START);
    }
    if (v.ends === 'after' && !(/^\d{1,4}$/.test(v.count.trim()) && Number(v.count) >= 1 && Number(v.count) <= MAX_OCCURRENCE_COUNT))
      problem('count', COUNT_RANGE);
  });
export type CalendarEventFormValues = z.output<typeof calendarEventFormSchema>;

/** The request a form becomes (a create body; as a patch it replaces these fields). */
export interface CalendarEventRequest {
  summary: string;
  description: string | null;
  start: EventTimeBody;
  end: EventTimeBody;
  /** Absent when changing one occurrence (it cannot repeat on its own). */
  recurrence?: string[];
  transparency: 'opaque' | 'transparent';
}

export interface ToBodyOptions {
  /** Changing one occurrence of a series: no recurrence is sent. */
  occurrence?: boolean;
  /** The series' lines as they are: a custom rule is kept, and its cancelled occurrences (EXDATE) stay cancelled. */
  previousRecurrence?: readonly string[] | null;
}

const byWeekday = (a: Weekday, b: Weekday) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b);
const compact = (date: Temporal.PlainDate) => date.toString().replaceAll('-', '');

/** The first date on or after `from` that falls on one of `days`. */
function firstOn(from: Temporal.PlainDate, days: readonly Weekday[]): Temporal.PlainDate {
  for (let i = 0; i < 7; i++) {
    const date = from.add({ days: i });
    if (days.includes(weekdayOf(date))) return date;
  }
  return from;
}

function exdatesOf(lines: readonly string[] | null | undefined, zone: string): Until[] {
  const exdates = (lines ?? []).filter((l) => /^EXDATE/i.test(l.trim()));
  if (exdates.length === 0) return [];
  try {
    return parseRecurrence(['RRULE:FREQ=DAILY', ...exdates], zone)?.exdates ?? [];
  } catch {
    return [];
  }
}

/**
 * The series' cancelled occurrences, on the same dates at the series' new time (a change of its
 * time would otherwise bring them back): one `EXDATE` line of UTC date-times, or of dates for an
 * all-day series.
 */
function carriedExdates(previous: readonly string[] | null | undefined, zone: string, values: CalendarEventFormValues): string[] {
  const dates = [
    ...new Set(
      exdatesOf(previous, zone).map((x) => (x.kind === 'date' ? x.date : x.instant.toZonedDateTimeISO(zone).toPlainDate()).toString()),
    ),
  ].sort();
  if (dates.length === 0) return [];
  if (values.allDay) return [`EXDATE;VALUE=DATE:${dates.map((d) => compact(Temporal.PlainDate.from(d))).join(',')}`];
  const at = (d: string) => basicUtc(Temporal.PlainDateTime.from(`${d}T${values.startTime}`).toZonedDateTime(zone).toInstant());
  return [`EXDATE:${dates.map(at).join(',')}`];
}

function ruleOf(values: CalendarEventFormValues, zone: string): string {
  const days = [...values.days].sort(byWeekday);
  let until: Until | null = null;
  if (values.ends === 'on') {
    const last = Temporal.PlainDate.from(values.until);
    // Timed series: UNTIL in UTC (RFC 5545 with a zoned start), the last second of that day in the zone.
    until = values.allDay
      ? { kind: 'date', date: last }
      : { kind: 'instant', instant: last.add({ days: 1 }).toZonedDateTime(zone).toInstant().subtract({ seconds: 1 }) };
  }
  return formatRule({
    freq: 'WEEKLY',
    interval: 1,
    byDay: days,
    count: values.ends === 'after' ? Number(values.count) : null,
    until,
    weekStart: 'MO',
  });
}

/** The request a valid form becomes, in the tutor's zone. */
export function toCalendarEventBody(values: CalendarEventFormValues, zone: string, options: ToBodyOptions = {}): CalendarEventRequest {
  const picked = Temporal.PlainDate.from(values.date);
  const weekly = values.repeat === 'weekly' && !options.occurrence;
  // A series starts on its first chosen weekday (DTSTART is always an occurrence).
  const first = weekly ? firstOn(picked, values.days) : picked;
  const summary = values.summary.trim();
  let start: EventTimeBody;
  let end: EventTimeBody;
  if (values.allDay) {
    start = { date: first.toString() };
    end = { date: first.add({ days: 1 }).toString() };
  } else {
    const endDate = endsAtMidnight(values.startTime, values.endTime) ? first.add({ days: 1 }) : first;
    start = { dateTime: `${first}T${values.startTime}:00`, timeZone: zone };
    end = { dateTime: `${endDate}T${values.endTime}:00`, timeZone: zone };
  }
  const body: CalendarEventRequest = {
    summary,
    description: values.description.trim() || null,
    start,
    end,
    transparency: isTopmarkHours(summary) || values.show === 'free' ? 'transparent' : 'opaque',
  };
  if (options.occurrence) return body;
  if (values.repeat === 'none') body.recurrence = [];
  else if (values.repeat === 'custom') body.recurrence = [...(options.previousRecurrence ?? [])];
  else body.recurrence = [ruleOf(values, zone), ...carriedExdates(options.previousRecurrence, zone, values)];
  return body;
}

const hhmm = (t: Temporal.ZonedDateTime) => `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;

/** Where an event lies in the tutor's zone. */
function spanIn(event: Pick<CalendarEventAnswer, 'start' | 'end'>, zone: string) {
  return { start: instantOfTime(event.start, zone).toZonedDateTimeISO(zone), end: instantOfTime(event.end, zone).toZonedDateTimeISO(zone) };
}

/**
 * Whether the form can show the event's times: a timed event within one day (or ending at the
 * next midnight), or a one-day all-day event. Longer events are kept as they are (delete only).
 */
export function formCanShow(event: Pick<CalendarEventAnswer, 'start' | 'end'>, zone: string): boolean {
  if ('date' in event.start && 'date' in event.end) {
    return Temporal.PlainDate.from(event.start.date).add({ days: 1 }).equals(Temporal.PlainDate.from(event.end.date));
  }
  const { start, end } = spanIn(event, zone);
  const sameDay = start.toPlainDate().equals(end.toPlainDate());
  const toMidnight = end.toPlainDate().equals(start.toPlainDate().add({ days: 1 })) && end.hour === 0 && end.minute === 0;
  return sameDay || toMidnight;
}

/** An empty form for a new event on `date` (yyyy-MM-dd) from `startTime` for an hour. */
export function newEventFormValues(date: string, startTime = '09:00'): CalendarEventFormValues {
  const [h = 9, m = 0] = startTime.split(':').map(Number);
  const endHour = Math.min(h + 1, 24) % 24;
  return {
    summary: '',
    description: '',
    allDay: false,
    date,
    startTime,
    endTime: `${String(endHour).padStart(2, '0')}:${String(m).padStart(2, '0')}`,
    repeat: 'none',
    days: [weekdayOf(Temporal.PlainDate.from(date))],
    ends: 'never',
    until: '',
    count: '10',
    show: 'busy',
  };
}

/** The form of an existing event, an occurrence, or a series (its master: the recurrence comes from it). */
export function eventFormValues(event: CalendarEventAnswer, zone: string): CalendarEventFormValues {
  const allDay = 'date' in event.start;
  const { start, end } = spanIn(event, zone);
  const date = allDay && 'date' in event.start ? event.start.date : start.toPlainDate().toString();
  const values: CalendarEventFormValues = {
    ...newEventFormValues(date),
    summary: event.summary,
    description: event.description ?? '',
    allDay,
    startTime: allDay ? '09:00' : hhmm(start),
    endTime: allDay ? '10:00' : hhmm(end),
    show: event.transparency === 'transparent' ? 'free' : 'busy',
  };
  if (!event.recurrence?.length) return values;
  const seriesZone = ('dateTime' in event.start && event.start.timeZone) || zone;
  let recurrence: ReturnType<typeof parseRecurrence>;
  try {
    recurrence = parseRecurrence(event.recurrence, seriesZone);
  } catch {
    return { ...values, repeat: 'custom' };
  }
  const rule = recurrence?.rule;
  if (!rule) return values;
  if (rule.freq !== 'WEEKLY' || rule.interval !== 1) return { ...values, repeat: 'custom' };
  const until = rule.until;
  return {
    ...values,
    repeat: 'weekly',
    days: [...(rule.byDay ?? [weekdayOf(Temporal.PlainDate.from(date))])].sort(byWeekday),
    ends: rule.count !== null ? 'after' : until ? 'on' : 'never',
    count: rule.count !== null ? String(rule.count) : values.count,
    until: until ? (until.kind === 'date' ? until.date : until.instant.toZonedDateTimeISO(zone).toPlainDate()).toString() : '',
  };
}
