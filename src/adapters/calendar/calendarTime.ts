import { Temporal } from 'temporal-polyfill';
import { CalendarError, type EventTime } from './calendarPort.ts';

/** Reading and writing the port's RFC 3339 times (shared by the sandbox and the tests' fake Google). */

const HAS_OFFSET = /(?:[zZ]|[+-]\d{2}:?\d{2})$/;

export const isAllDay = (t: EventTime): t is { date: string } => 'date' in t;

/** The zone a time is read in: its own, else the calendar's (always the calendar's for a date). */
export function zoneOf(t: EventTime, calendarZone: string): string {
  return (!isAllDay(t) && t.timeZone) || calendarZone;
}

/** The instant a time denotes; a wall-clock time is read in its own zone, else the calendar's; a date is its midnight there. */
export function instantOf(t: EventTime, calendarZone: string): Temporal.Instant {
  try {
    if (isAllDay(t)) return Temporal.PlainDate.from(t.date).toZonedDateTime(calendarZone).toInstant();
    if (HAS_OFFSET.test(t.dateTime)) return Temporal.Instant.from(t.dateTime);
    return Temporal.PlainDateTime.from(t.dateTime).toZonedDateTime(zoneOf(t, calendarZone), { disambiguation: 'compatible' }).toInstant();
  } catch (error) {
    throw new CalendarError('invalid', `Invalid event time ${JSON.stringify(t)}`, { cause: error });
  }
}

/** The wall-clock time in the event's zone (what recurrence expands). */
export function wallClockOf(t: EventTime, calendarZone: string): Temporal.PlainDateTime {
  if (isAllDay(t)) return Temporal.PlainDate.from(t.date).toPlainDateTime();
  return instantOf(t, calendarZone).toZonedDateTimeISO(zoneOf(t, calendarZone)).toPlainDateTime();
}

/** As Google answers: a date-time with the offset of its zone (and the zone when the event named one), or the date. */
export function presentTime(t: EventTime, calendarZone: string): EventTime {
  if (isAllDay(t)) return { date: t.date };
  const zone = zoneOf(t, calendarZone);
  return { dateTime: withOffset(instantOf(t, calendarZone), zone), timeZone: t.timeZone ?? null };
}

export const withOffset = (instant: Temporal.Instant, zone: string) =>
  instant.toZonedDateTimeISO(zone).toString({ timeZoneName: 'never', smallestUnit: 'second' });

export function isValidZone(zone: string): boolean {
  try {
    Temporal.PlainDate.from('2026-01-01').toZonedDateTime(zone);
    return true;
  } catch {
    return false;
  }
}

/** The checks Google makes on an event's times: same kind at both ends, a non-empty range, a zone for a series. */
export function checkTimes(start: EventTime, end: EventTime, recurring: boolean, calendarZone: string): void {
  if (isAllDay(start) !== isAllDay(end)) throw new CalendarError('invalid', 'Start and end must both be dates or both date-times');
  for (const t of [start, end]) {
    if (!isAllDay(t) && t.timeZone && !isValidZone(t.timeZone)) throw new CalendarError('invalid', `Invalid time zone: ${t.timeZone}`);
    if (recurring && !isAllDay(t) && !t.timeZone) throw new CalendarError('invalid', 'Missing time zone definition for start time.');
  }
  if (Temporal.Instant.compare(instantOf(end, calendarZone), instantOf(start, calendarZone)) <= 0) {
    throw new CalendarError('invalid', 'The specified time range is empty.');
  }
}
