import { Temporal } from 'temporal-polyfill';
import {
  assertTimeZone,
  BOOKING_WINDOW_DAYS,
  type InstantInput,
  SLOT_MINUTES,
  type TimeInterval,
  toInstant,
  type WeeklyHours,
} from '../calendar/availability.ts';

/**
 * The bookable hours of a tutor (spec part 2 §2 booking dialog, §9; issue 11 item 1): the tutor's
 * weekly windows, read as wall-clock times in the tutor's zone on each date, minus the busy time of
 * the tutor's calendar, minus the hours other sessions hold, cut into one-hour slots from `now`
 * (never an hour already started) to 30 days ahead. Slots are instants, so a tutor and a student in
 * different zones see the same hour at their own local times. Pure: `now` and every interval arrive
 * as arguments; Temporal does the zone arithmetic, so both daylight-saving changes come out right
 * (a 00:00–04:00 window holds 3 hours on the spring-forward night and 5 on the fall-back night).
 */

export interface SlotQuery {
  /** dayOfWeek 0 = Sunday … 6 = Saturday; "HH:mm" wall-clock in `timeZone` ("24:00" ends at midnight). */
  weeklyHours: readonly WeeklyHours[];
  /** The tutor's zone: the windows' wall clock, and the days the 30-day window counts. */
  timeZone: string;
  /** Busy time of the tutor's calendar (any event that is not transparent). */
  busy: readonly TimeInterval[];
  /** Hours other sessions hold (the tutor's schedule). */
  booked: readonly TimeInterval[];
  now: InstantInput;
  /** Only slots starting in [from, to): one day of the grid, or the one hour a booking asks for. */
  from?: InstantInput;
  to?: InstantInput;
  /** How far ahead, in the tutor's calendar days (default 30). */
  days?: number;
}

export interface SlotInterval {
  start: string;
  end: string;
}

interface Span {
  start: Temporal.Instant;
  end: Temporal.Instant;
}

const cmp = Temporal.Instant.compare;
const maxOf = (a: Temporal.Instant, b: Temporal.Instant) => (cmp(a, b) >= 0 ? a : b);
const minOf = (a: Temporal.Instant, b: Temporal.Instant) => (cmp(a, b) <= 0 ? a : b);

function merged(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((s) => cmp(s.end, s.start) > 0).sort((a, b) => cmp(a.start, b.start));
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && cmp(s.start, last.end) <= 0) last.end = maxOf(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

const timeOf = (hhmm: string) => Temporal.PlainTime.from(hhmm === '24:00' ? '00:00' : hhmm);

/** The weekly windows on each tutor-local date from `firstDay` to `lastDay`, as instants (a wall-clock time skipped by DST moves forward). */
function windowsBetween(hours: readonly WeeklyHours[], zone: string, firstDay: Temporal.PlainDate, lastDay: Temporal.PlainDate): Span[] {
  const spans: Span[] = [];
  for (let day = firstDay; Temporal.PlainDate.compare(day, lastDay) <= 0; day = day.add({ days: 1 })) {
    for (const h of hours) {
      if (h.dayOfWeek !== day.dayOfWeek % 7) continue;
      const endDay = h.endTime === '24:00' ? day.add({ days: 1 }) : day;
      const start = day.toPlainDateTime(timeOf(h.startTime)).toZonedDateTime(zone, { disambiguation: 'compatible' }).toInstant();
      const end = endDay.toPlainDateTime(timeOf(h.endTime)).toZonedDateTime(zone, { disambiguation: 'compatible' }).toInstant();
      spans.push({ start, end });
    }
  }
  return merged(spans);
}

const spanOf = (i: TimeInterval): Span => ({ start: toInstant(i.start), end: toInstant(i.end) });

/** Free one-hour slots, ascending, as UTC instants (`{ start, end }`). */
export function availableSlots(query: SlotQuery): SlotInterval[] {
  const zone = assertTimeZone(query.timeZone);
  const now = toInstant(query.now);
  const horizon = now
    .toZonedDateTimeISO(zone)
    .add({ days: query.days ?? BOOKING_WINDOW_DAYS })
    .toInstant();
  const from = query.from === undefined ? now : maxOf(now, toInstant(query.from));
  const to = query.to === undefined ? horizon : minOf(horizon, toInstant(query.to));
  if (cmp(from, to) >= 0) return [];
  // A window that began the day before `from` (or runs past midnight) may still hold slots.
  const firstDay = from.toZonedDateTimeISO(zone).toPlainDate().subtract({ days: 1 });
  const lastDay = to.toZonedDateTimeISO(zone).toPlainDate();
  const windows = windowsBetween(query.weeklyHours, zone, firstDay, lastDay);
  const blocked = merged([...query.busy, ...query.booked].map(spanOf));
  const length = Temporal.Duration.from({ minutes: SLOT_MINUTES });
  const slots: SlotInterval[] = [];
  let b = 0;
  for (const window of windows) {
    for (let start = window.start; cmp(start, to) < 0; start = start.add(length)) {
      const end = start.add(length);
      if (cmp(end, window.end) > 0) break;
      if (cmp(start, from) < 0) continue;
      while (b < blocked.length && cmp(blocked[b]!.end, start) <= 0) b += 1;
      if (b < blocked.length && cmp(blocked[b]!.start, end) < 0) continue;
      slots.push({ start: start.toString(), end: end.toString() });
    }
  }
  return slots;
}

/** Whether the hour starting at `start` is one of the free slots (what a booking checks). */
export function isFreeSlot(query: Omit<SlotQuery, 'from' | 'to'>, start: InstantInput): boolean {
  const at = toInstant(start);
  const slots = availableSlots({ ...query, from: at, to: at.add({ minutes: 1 }) });
  return slots.some((s) => cmp(toInstant(s.start), at) === 0);
}

/** The instants a local date (yyyy-MM-dd) spans in a zone: the range of one day's grid. */
export function dayRange(date: string, timeZone: string): { from: string; to: string } {
  const zone = assertTimeZone(timeZone);
  const day = Temporal.PlainDate.from(date);
  return {
    from: day.toZonedDateTime({ timeZone: zone }).toInstant().toString(),
    to: day.add({ days: 1 }).toZonedDateTime({ timeZone: zone }).toInstant().toString(),
  };
}

const hhmm = (t: Temporal.PlainTime) => t.toString({ smallestUnit: 'minute' });

/**
 * One day's slots as the booking grid's "HH:mm" times in `timeZone` (spec part 2 §3 booking slot).
 * A wall-clock time means one instant: on the fall-back night the repeated hour is offered once,
 * as the instant that date and time resolve to (the earlier one), which is what a booking of that
 * date and time books.
 */
export function bookingTimes(slots: readonly SlotInterval[], date: string, timeZone: string): { time: string; start: string }[] {
  const zone = assertTimeZone(timeZone);
  const day = Temporal.PlainDate.from(date);
  const out: { time: string; start: string }[] = [];
  const seen = new Set<string>();
  for (const s of slots) {
    const local = toInstant(s.start).toZonedDateTimeISO(zone);
    if (Temporal.PlainDate.compare(local.toPlainDate(), day) !== 0) continue;
    const time = hhmm(local.toPlainTime());
    if (seen.has(time)) continue;
    const resolved = localInstant(date, time, zone);
    if (resolved === null || cmp(resolved, local.toInstant()) !== 0) continue;
    seen.add(time);
    out.push({ time, start: s.start });
  }
  return out;
}

/** The instant of a wall-clock date and time in a zone (the earlier one when the clock repeats); null for a malformed date or time. */
export function localInstant(date: string, time: string, timeZone: string): Temporal.Instant | null {
  try {
    return Temporal.PlainDate.from(date)
      .toPlainDateTime(Temporal.PlainTime.from(time))
      .toZonedDateTime(assertTimeZone(timeZone), { disambiguation: 'compatible' })
      .toInstant();
  } catch {
    return null;
  }
}

/** The private property Topmark puts on the calendar events it writes for sessions (the calendar saga). */
export const SESSION_EVENT_PROPERTY = 'topmarkSessionId';

/** A calendar event as the busy-time reading needs it (the calendar port's `CalendarEvent` fits). */
export interface CalendarEventLike {
  status?: string;
  transparency?: string;
  start: { dateTime: string; timeZone?: string | null } | { date: string };
  end: { dateTime: string; timeZone?: string | null } | { date: string };
  privateProperties?: Record<string, string>;
}

function instantOfTime(time: CalendarEventLike['start'], zone: string): Temporal.Instant {
  if ('date' in time) return Temporal.PlainDate.from(time.date).toZonedDateTime({ timeZone: zone }).toInstant();
  // An offset (or Z) says the instant; a wall-clock time is read in its own zone, else the calendar's.
  if (/([zZ]|[+-]\d{2}:?\d{2})$/.test(time.dateTime)) return Temporal.Instant.from(time.dateTime);
  return Temporal.PlainDateTime.from(time.dateTime)
    .toZonedDateTime(assertTimeZone(time.timeZone ?? zone), { disambiguation: 'compatible' })
    .toInstant();
}

/**
 * The busy time of a calendar listing (recurring series expanded): every confirmed or tentative
 * event that is not transparent (Topmark Hours are written transparent), except the events Topmark
 * wrote for its own sessions: the tutor's schedule already holds those hours, and after a cancel or
 * a move the calendar shows the old hour until the saga catches up, which must not block it.
 * All-day events and wall-clock times without a zone are read in `zone` (the tutor's).
 */
export function busyOfEvents(events: readonly CalendarEventLike[], zone: string): TimeInterval[] {
  const tz = assertTimeZone(zone);
  return events
    .filter((e) => e.status !== 'cancelled' && e.transparency !== 'transparent' && !e.privateProperties?.[SESSION_EVENT_PROPERTY])
    .map((e) => ({ start: instantOfTime(e.start, tz).toString(), end: instantOfTime(e.end, tz).toString() }));
}
