import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { TOPMARK_HOURS_PROPERTY } from '../calendar/availability.ts';
import { isHoursEvent, isSessionEvent } from '../calendar/calendarHours.ts';
import { parseRecurrence, UnsupportedRecurrenceError } from '../calendar/recurrence.ts';
import { DomainError } from '../kit/domainError.ts';
import { knownTimeZone } from '../kit/timeZones.ts';

/**
 * The tutor's own calendar events (sandbox calendar only; on Google the tutor keeps their calendar
 * in Google): `GET/POST /api/tutor/calendar/events`, `GET/PATCH/DELETE /api/tutor/calendar/events/{id}`.
 * Bodies take the subset of Google Calendar's event resource that availability reads — summary,
 * description, start/end (`dateTime` + `timeZone`, or an all-day `date`), recurrence (RFC 5545
 * `RRULE`/`EXDATE` lines), transparency, status — with Google's meaning, so what a test does here
 * means the same against Google. Shared by the server (validation) and the UI (answers).
 */

/** An event lasts at most two weeks (an occurrence of a series too). */
export const MAX_EVENT_DAYS = 14;
/** Event times and listing bounds lie in these years (inclusive). */
export const FIRST_EVENT_YEAR = 2000;
export const LAST_EVENT_YEAR = 2100;
/** A series repeats at most this many times when it counts (`COUNT=`): listing a counted series walks it from its start. */
export const MAX_OCCURRENCE_COUNT = 1000;
/** One listing covers at most this many days. */
export const MAX_LIST_DAYS = 62;
/** Recurrence lines of one event (every occurrence cancelled adds an `EXDATE` line). */
export const MAX_RECURRENCE_LINES = 500;

export const TITLE_REQUIRED = 'Please enter a title';
export const TITLE_TOO_LONG = 'A title can be at most 200 characters';
export const END_BEFORE_START = 'The end must be after the start';
export const EVENT_TOO_LONG = `An event can last at most ${MAX_EVENT_DAYS} days`;
export const MIXED_TIMES = 'start and end must both be date-times, or both dates (an all-day event)';
export const SERIES_NEEDS_ZONE = 'A repeating event needs a timeZone on its start and end (the zone it repeats in)';
export const NOTHING_TO_CHANGE = 'Nothing to change: send at least one field';

/** An event time as the API takes and answers it (Google's `EventDateTime`). */
export type EventTimeBody = { dateTime: string; timeZone?: string | null } | { date: string };

/** A rule an event breaks, with the field it names (`start.timeZone`, `recurrence`, `end`). */
export interface EventProblem {
  field: string;
  message: string;
}

/** An event refused for a rule of its own (a 400 naming the field). */
export class InvalidCalendarEventError extends DomainError {
  constructor(readonly problem: EventProblem) {
    super(problem.message, 'invalid');
    this.name = 'InvalidCalendarEventError';
  }
  get field(): string {
    return this.problem.field;
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?$/i;
const HAS_OFFSET = /(?:Z|[+-]\d{2}:\d{2})$/i;

const inYears = (year: number) => year >= FIRST_EVENT_YEAR && year <= LAST_EVENT_YEAR;
const YEARS = `in the years ${FIRST_EVENT_YEAR}–${LAST_EVENT_YEAR}`;

/** The IANA zone, or null when there is no such zone. */
export const knownZone = knownTimeZone;

function plainDateOf(value: string): Temporal.PlainDate | null {
  const m = DATE.exec(value);
  if (!m) return null;
  try {
    return Temporal.PlainDate.from({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) }, { overflow: 'reject' });
  } catch {
    return null;
  }
}

/** An instant with an offset (`2026-03-09T14:00:00Z`, `…-04:00`) in the allowed years, or null. */
export function listBound(value: string): Temporal.Instant | null {
  if (!DATE_TIME.test(value) || !HAS_OFFSET.test(value)) return null;
  try {
    const instant = Temporal.Instant.from(value);
    return inYears(instant.toZonedDateTimeISO('UTC').year) ? instant : null;
  } catch {
    return null;
  }
}

/** What is wrong with one event time on its own (the field is relative: `dateTime`, `timeZone`, `date`), or null. */
function timeProblem(t: { dateTime?: string | undefined; timeZone?: string | null | undefined; date?: string | undefined } | undefined) {
  if (!t || typeof t !== 'object') return { field: '', message: 'Expected a time' };
  if (t.date !== undefined) {
    if (t.dateTime !== undefined || t.timeZone) return { field: 'date', message: 'Give either date (all day) or dateTime, not both' };
    const date = plainDateOf(t.date);
    if (!date) return { field: 'date', message: 'date must be a calendar date (yyyy-MM-dd)' };
    return inYears(date.year) ? null : { field: 'date', message: `date must be ${YEARS}` };
  }
  if (t.dateTime === undefined) return { field: 'dateTime', message: 'dateTime is required (or date, for an all-day event)' };
  const m = DATE_TIME.exec(t.dateTime);
  if (t.timeZone && !knownZone(t.timeZone)) return { field: 'timeZone', message: `Unknown time zone: ${t.timeZone}` };
  const format = 'dateTime must be an RFC 3339 date-time such as 2026-03-09T14:00:00 (with timeZone) or 2026-03-09T14:00:00-04:00';
  if (!m) return { field: 'dateTime', message: format };
  try {
    if (m[7]) Temporal.Instant.from(t.dateTime);
    Temporal.PlainDateTime.from(t.dateTime.replace(HAS_OFFSET, ''), { overflow: 'reject' });
  } catch {
    return { field: 'dateTime', message: format };
  }
  if (!m[7] && !t.timeZone) return { field: 'timeZone', message: 'A dateTime without an offset needs a timeZone' };
  return inYears(Number(m[1])) ? null : { field: 'dateTime', message: `dateTime must be ${YEARS}` };
}

/** The instant an (already checked) event time stands for; an all-day date is its midnight in `zone`. */
export function instantOfTime(t: EventTimeBody, zone: string): Temporal.Instant {
  if ('date' in t) return Temporal.PlainDate.from(t.date).toZonedDateTime(zone).toInstant();
  if (HAS_OFFSET.test(t.dateTime)) return Temporal.Instant.from(t.dateTime);
  return Temporal.PlainDateTime.from(t.dateTime)
    .toZonedDateTime(t.timeZone ?? zone, { disambiguation: 'compatible' })
    .toInstant();
}

/**
 * The rules on a whole event (times already well-formed), or its first problem: the same kind
 * of time at both ends, a non-empty span of at most 14 days, and recurrence the recurrence module
 * can expand (its own message), with a zone on both ends of a timed series and COUNT at most 1000.
 */
export function eventProblem(event: {
  start: EventTimeBody;
  end: EventTimeBody;
  recurrence?: readonly string[] | null;
}): EventProblem | null {
  const { start, end } = event;
  if ('date' in start !== 'date' in end) return { field: 'end', message: MIXED_TIMES };
  const zone = ('dateTime' in start && start.timeZone) || 'UTC';
  const from = instantOfTime(start, zone);
  const to = instantOfTime(end, zone);
  if (Temporal.Instant.compare(to, from) <= 0) return { field: 'end', message: END_BEFORE_START };
  if (from.until(to).total('hours') > MAX_EVENT_DAYS * 24) return { field: 'end', message: EVENT_TOO_LONG };
  const lines = event.recurrence ?? [];
  if (lines.length === 0) return null;
  if ('dateTime' in start && !start.timeZone) return { field: 'start.timeZone', message: SERIES_NEEDS_ZONE };
  if ('dateTime' in end && !end.timeZone) return { field: 'end.timeZone', message: SERIES_NEEDS_ZONE };
  try {
    const recurrence = parseRecurrence(lines, zone);
    if (!recurrence) return { field: 'recurrence', message: 'A recurrence needs an RRULE line' };
    if ((recurrence.rule.count ?? 0) > MAX_OCCURRENCE_COUNT)
      return { field: 'recurrence', message: `COUNT can be at most ${MAX_OCCURRENCE_COUNT}` };
  } catch (error) {
    if (error instanceof UnsupportedRecurrenceError) return { field: 'recurrence', message: error.message };
    throw error;
  }
  return null;
}

const eventTimeInput = z
  .object({
    dateTime: z.string().max(40).optional(),
    timeZone: z.string().max(100).nullable().optional(),
    date: z.string().max(10).optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    const problem = timeProblem(t);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  })
  .transform(
    (t): EventTimeBody => (t.date !== undefined ? { date: t.date } : { dateTime: t.dateTime ?? '', timeZone: t.timeZone ?? null }),
  );

const recurrenceLines = z
  .array(z.string().trim().min(1, 'A recurrence line cannot be empty').max(1000, 'A recurrence line can be at most 1000 characters'))
  .max(MAX_RECURRENCE_LINES, `At most ${MAX_RECURRENCE_LINES} recurrence lines`);

const summary = z.string().trim().min(1, TITLE_REQUIRED).max(200, TITLE_TOO_LONG);
const description = z.string().max(8000, 'A description can be at most 8000 characters').nullable();
const transparency = z.enum(['opaque', 'transparent']);

const addProblem = (ctx: z.RefinementCtx, problem: EventProblem | null) => {
  if (problem) ctx.addIssue({ code: 'custom', path: problem.field.split('.'), message: problem.message });
};

/** POST /api/tutor/calendar/events: a new event or series (Google's `events.insert` subset). */
export const calendarEventBody = z
  .object({
    summary,
    description: description.optional(),
    start: eventTimeInput,
    end: eventTimeInput,
    recurrence: recurrenceLines.optional(),
    transparency: transparency.optional(),
    status: z.enum(['confirmed', 'tentative']).optional(),
  })
  .strict()
  // Only on well-formed times: a time's own problem is reported at its field already.
  .superRefine((event, ctx) => {
    if (!timeProblem(event.start) && !timeProblem(event.end)) addProblem(ctx, eventProblem(event));
  });
export type CalendarEventBody = z.output<typeof calendarEventBody>;

/**
 * PATCH /api/tutor/calendar/events/{id} (Google's `events.patch`): the fields given replace the
 * event's; on a series id the series changes, on an instance id (`<series>_<UTC start>`) that one
 * occurrence. `status: "cancelled"` deletes what the id names. The event as changed must still
 * keep the rules of a new one.
 */
export const calendarEventPatchBody = z
  .object({
    summary: summary.optional(),
    description: description.optional(),
    start: eventTimeInput.optional(),
    end: eventTimeInput.optional(),
    /** Replaces every line (add an `EXDATE` by sending the lines with it); `[]` or null: no longer repeats. */
    recurrence: recurrenceLines.nullable().optional(),
    transparency: transparency.optional(),
    status: z.enum(['confirmed', 'tentative', 'cancelled']).optional(),
  })
  .strict()
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), NOTHING_TO_CHANGE);
export type CalendarEventPatch = z.output<typeof calendarEventPatchBody>;

const bound = (name: 'from' | 'to') =>
  z
    .string()
    .max(40)
    .refine(
      (v) => v === '' || listBound(v) !== null,
      `${name} must be an RFC 3339 date-time with an offset (2026-03-09T00:00:00Z) ${YEARS}`,
    )
    .optional();

/**
 * GET /api/tutor/calendar/events: events that end after `from` and start before `to` (Google's
 * timeMin/timeMax; default from now, 30 days; at most 62 days). `singleEvents` (default true)
 * lists a series as its occurrences; false lists it once, as its master with its recurrence.
 */
export const calendarEventsQuery = z.object({
  from: bound('from'),
  to: bound('to'),
  singleEvents: z.enum(['true', 'false']).optional(),
});

const eventTimeAnswer = z.union([
  z.object({ dateTime: z.string(), timeZone: z.string().nullable().optional() }),
  z.object({ date: z.string() }),
]);

/** What Topmark reads an event as: bookable hours, busy time, free time (blocks nothing), or a booked session. */
export const eventKinds = ['hours', 'busy', 'free', 'session'] as const;
export type EventKind = (typeof eventKinds)[number];

/** An event, a series (master) or one occurrence, as Google answers it, with what Topmark reads it as. */
export const calendarEventSchema = z.object({
  id: z.string(),
  status: z.enum(['confirmed', 'tentative', 'cancelled']),
  summary: z.string(),
  description: z.string().nullable(),
  start: eventTimeAnswer,
  end: eventTimeAnswer,
  /** A series (master): its RRULE and EXDATE lines. */
  recurrence: z.array(z.string()).nullable(),
  /** An occurrence: its series' id (its own id is `<series>_<UTC start>`). */
  recurringEventId: z.string().nullable(),
  transparency: transparency,
  kind: z.enum(eventKinds),
  /** A session Topmark wrote: only Topmark moves it (reschedule or cancel the session). */
  readOnly: z.boolean(),
  /** Written by the weekly-hours editor (saving weekly hours again replaces it). */
  fromWeeklyHours: z.boolean(),
});
export type CalendarEventAnswer = z.output<typeof calendarEventSchema>;

/** GET /api/tutor/calendar/events: the zone all-day events are read in, and the events sorted by start. */
export const calendarEventListSchema = z.object({ timeZone: z.string(), items: z.array(calendarEventSchema) });
export type CalendarEventList = z.output<typeof calendarEventListSchema>;

/** The fields of a calendar event this API reads (the calendar port's `CalendarEvent` fits). */
export interface CalendarEventFields {
  id: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
  summary: string;
  description: string | null;
  start: EventTimeBody;
  end: EventTimeBody;
  recurrence: string[] | null;
  recurringEventId: string | null;
  transparency: 'opaque' | 'transparent';
  privateProperties: Record<string, string>;
}

export function eventKindOf(event: Pick<CalendarEventFields, 'summary' | 'privateProperties' | 'transparency'>): EventKind {
  if (isSessionEvent(event)) return 'session';
  if (isHoursEvent(event)) return 'hours';
  return event.transparency === 'transparent' ? 'free' : 'busy';
}

export function calendarEventAnswer(event: CalendarEventFields): CalendarEventAnswer {
  const kind = eventKindOf(event);
  return {
    id: event.id,
    status: event.status,
    summary: event.summary,
    description: event.description,
    start: event.start,
    end: event.end,
    recurrence: event.recurrence,
    recurringEventId: event.recurringEventId,
    transparency: event.transparency,
    kind,
    readOnly: kind === 'session',
    fromWeeklyHours: event.privateProperties[TOPMARK_HOURS_PROPERTY.key] === TOPMARK_HOURS_PROPERTY.value,
  };
}
