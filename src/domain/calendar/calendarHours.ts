import { Temporal } from 'temporal-polyfill';
import { assertTimeZone, isTopmarkHours, type TimeInterval, TOPMARK_HOURS_PROPERTY } from './availability.ts';

/**
 * What a tutor's calendar says about their time (spec part 2 §2, §9: "Availability is defined by
 * recurring calendar events named 'Topmark Hours'; students see one-hour slots, and other events
 * block time"). Read from a listing with recurring series expanded into their instances (Google's
 * `singleEvents`, the sandbox's `expand`), so EXDATE, UNTIL, COUNT, moved and cancelled instances
 * are already what the calendar shows:
 * - an instance of "Topmark Hours" (by its title, as a tutor types it, or the property Topmark puts
 *   on the series it writes) is bookable time, and never busy, whatever its transparency;
 * - every other event that is neither cancelled nor marked free (transparent) is busy;
 * - the events Topmark writes for sessions are neither: the tutor's schedule stream holds those
 *   hours, and after a cancel or a move the calendar shows the old hour until the saga catches up.
 * All-day events cover their dates from midnight to midnight in the tutor's zone (an all-day
 * "Topmark Hours" is a whole day of hours); a multi-day event covers every hour it spans.
 */

/** The private property Topmark puts on the calendar events it writes for sessions (the calendar saga). */
export const SESSION_EVENT_PROPERTY = 'topmarkSessionId';

export type EventTimeLike = { dateTime: string; timeZone?: string | null } | { date: string };

/** A calendar event as this reading needs it (the calendar port's `CalendarEvent` fits). */
export interface CalendarEventLike {
  status?: string;
  summary?: string | null;
  transparency?: string;
  start: EventTimeLike;
  end: EventTimeLike;
  privateProperties?: Record<string, string>;
}

export interface HoursAndBusy {
  /** Instances of "Topmark Hours": when the tutor may be booked. */
  hours: TimeInterval[];
  /** Everything else that blocks time. */
  busy: TimeInterval[];
}

export const isHoursEvent = (event: Pick<CalendarEventLike, 'summary' | 'privateProperties'>) =>
  isTopmarkHours(event.summary) || event.privateProperties?.[TOPMARK_HOURS_PROPERTY.key] === TOPMARK_HOURS_PROPERTY.value;

export const isSessionEvent = (event: Pick<CalendarEventLike, 'privateProperties'>) =>
  Boolean(event.privateProperties?.[SESSION_EVENT_PROPERTY]);

/** The instant an event time stands for: an offset says it; a wall-clock time is read in its own zone, else the tutor's. */
export function instantOfEventTime(time: EventTimeLike, zone: string): Temporal.Instant {
  if ('date' in time) return Temporal.PlainDate.from(time.date).toZonedDateTime({ timeZone: zone }).toInstant();
  if (/([zZ]|[+-]\d{2}:?\d{2})$/.test(time.dateTime)) return Temporal.Instant.from(time.dateTime);
  return Temporal.PlainDateTime.from(time.dateTime)
    .toZonedDateTime(assertTimeZone(time.timeZone ?? zone), { disambiguation: 'compatible' })
    .toInstant();
}

const intervalOf = (event: CalendarEventLike, zone: string): TimeInterval | null => {
  const start = instantOfEventTime(event.start, zone);
  const end = instantOfEventTime(event.end, zone);
  if (Temporal.Instant.compare(end, start) <= 0) return null;
  return { start: start.toString(), end: end.toString() };
};

/** The hours and the busy time of a calendar listing (series expanded), in the tutor's zone. */
export function hoursAndBusyOf(events: readonly CalendarEventLike[], zone: string): HoursAndBusy {
  const tz = assertTimeZone(zone);
  const hours: TimeInterval[] = [];
  const busy: TimeInterval[] = [];
  for (const event of events) {
    if (event.status === 'cancelled' || isSessionEvent(event)) continue;
    const hoursEvent = isHoursEvent(event);
    if (!hoursEvent && event.transparency === 'transparent') continue;
    const interval = intervalOf(event, tz);
    if (interval) (hoursEvent ? hours : busy).push(interval);
  }
  return { hours, busy };
}
