import { Temporal } from 'temporal-polyfill';
import { assertTimeZone, toInstant } from '../calendar/availability.ts';
import type { SlotInterval } from './freeSlots.ts';

/**
 * The booking grid (spec part 2 §3, §9): one date's free slots as "HH:mm" wall-clock times in a
 * zone (New York for the grid), and back from a date and time to the instant it means. The slots
 * themselves come from the one slot engine (`freeSlots.ts`).
 */

const cmp = Temporal.Instant.compare;

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

/** The zone's short name at an instant ("EDT", "EST"), as US English writes it. */
function zoneAbbreviation(instant: Temporal.Instant, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short', hour: 'numeric' }).formatToParts(
    new Date(instant.epochMilliseconds),
  );
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? zone;
}

export interface GridTime {
  /** "HH:mm" in the grid's zone. */
  time: string;
  /** The instant: what a booking of this slot sends. */
  start: string;
  /** What to show: the time, with the zone's abbreviation where the clock repeats it ("01:00 EDT", "01:00 EST"). */
  label: string;
}

/**
 * One day's slots as the booking grid's times in `timeZone` (spec part 2 §3 booking slot). On the
 * fall-back night the repeated hour is offered twice, each labelled with its zone abbreviation and
 * booked by its instant; `localInstant` of that date and time resolves to the earlier one.
 */
export function bookingTimes(slots: readonly SlotInterval[], date: string, timeZone: string): GridTime[] {
  const zone = assertTimeZone(timeZone);
  const day = Temporal.PlainDate.from(date);
  const onDay = slots
    .map((s) => ({ s, local: toInstant(s.start).toZonedDateTimeISO(zone) }))
    .filter(({ local }) => Temporal.PlainDate.compare(local.toPlainDate(), day) === 0);
  return onDay.map(({ s, local }) => {
    const time = hhmm(local.toPlainTime());
    return { time, start: s.start, label: repeatsOnDay(local) ? `${time} ${zoneAbbreviation(local.toInstant(), zone)}` : time };
  });
}

/** Whether this wall-clock time occurs twice on its date (the fall-back hour), offered or not. */
function repeatsOnDay(local: Temporal.ZonedDateTime): boolean {
  const earlier = local.toPlainDateTime().toZonedDateTime(local.timeZoneId, { disambiguation: 'earlier' });
  const later = local.toPlainDateTime().toZonedDateTime(local.timeZoneId, { disambiguation: 'later' });
  return cmp(earlier.toInstant(), later.toInstant()) !== 0;
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
