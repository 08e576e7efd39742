import { Temporal } from 'temporal-polyfill';

/** Spec part 2 §9: the booking grid's times are New York times ("HH:mm"), shown as EST (EDT in summer). */
export const BOOKING_ZONE = 'America/New_York';
/** Spec part 2 §2, §9: dates from today to 30 days ahead. */
export const BOOKING_DAYS_AHEAD = 30;
/** Spec part 1 §1: cancelling more than this many hours before the start gives the credit back. */
export const CANCELLATION_NOTICE_HOURS = 12;

/** The booking calendar's selectable range: New York's today to 30 days ahead (yyyy-MM-dd). */
export function bookingRange(now: Temporal.Instant = Temporal.Now.instant()): { min: string; max: string } {
  const today = now.toZonedDateTimeISO(BOOKING_ZONE).toPlainDate();
  return { min: today.toString(), max: today.add({ days: BOOKING_DAYS_AHEAD }).toString() };
}

/** "EST" or "EDT": New York's abbreviation at that instant. */
export function newYorkAbbreviation(iso: string): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: BOOKING_ZONE, timeZoneName: 'short' })
    .formatToParts(new Date(iso))
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? 'ET';
}

/**
 * A grid slot's label from its instant, "1:00 AM EDT": on the fall-back night New York's two
 * 01:00s are two slots, told apart by their abbreviations (EDT, then EST).
 */
export function slotLabelAt(start: string): string {
  const local = Temporal.Instant.from(start).toZonedDateTimeISO(BOOKING_ZONE);
  const hour12 = local.hour % 12 === 0 ? 12 : local.hour % 12;
  return `${hour12}:${String(local.minute).padStart(2, '0')} ${local.hour < 12 ? 'AM' : 'PM'} ${newYorkAbbreviation(start)}`;
}

/** "Tue, Nov 24, 2026" for a yyyy-MM-dd (the date itself, no zone shift). */
export function longDate(date: string): string {
  try {
    const d = Temporal.PlainDate.from(date);
    return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' }).format(
      new Date(Date.UTC(d.year, d.month - 1, d.day, 12)),
    );
  } catch {
    return date;
  }
}

/**
 * Spec part 1 §1 (the 12-hour rule): whether cancelling at `now` gives the credit back — more than
 * 12 hours before the start; otherwise the session counts as used.
 */
export function creditComesBack(startIso: string, now: number): boolean {
  return Date.parse(startIso) - now > CANCELLATION_NOTICE_HOURS * 3_600_000;
}

/**
 * Whether the family may move the session at `now` (spec part 1 §9: "cancellation or postponement
 * needs more than 12 hours' notice"): open more than 12 hours before the start, late from then
 * (only the tutor or an admin may move it), started from the start (nobody moves it). The server
 * decides again when the move is sent.
 */
export function familyMoveWindow(startIso: string, now: number): 'open' | 'late' | 'started' {
  if (now >= Date.parse(startIso)) return 'started';
  return creditComesBack(startIso, now) ? 'open' : 'late';
}

/** The last moment a cancellation still gives the credit back (12 hours before the start). */
export function cancellationDeadline(startIso: string): string {
  return new Date(Date.parse(startIso) - CANCELLATION_NOTICE_HOURS * 3_600_000).toISOString();
}

export type BookingFailure = { title: string; description: string };

/**
 * The booking failure toast (spec part 2 §8): a calendar permission problem ("Calendar Permission
 * Error", or "writer access"), "Calendar Access Denied", else "Booking Failed" with the server's
 * message or the fallback (the first-session step's is shorter).
 */
export function bookingFailure(message: string | null, variant: 'dashboard' | 'firstSession'): BookingFailure {
  const text = message?.trim() ?? '';
  if (/Calendar Permission Error/i.test(text) || /writer access/i.test(text)) {
    return {
      title: 'Calendar Permission Issue',
      description:
        'The tutor must share their calendar with Topmark (writer access) before sessions can be booked. Please try again later.',
    };
  }
  if (/Calendar Access Denied/i.test(text)) {
    return { title: 'Calendar Access Denied', description: 'Topmark cannot reach the tutor’s calendar right now. Please try again later.' };
  }
  const fallback = variant === 'firstSession' ? 'Failed to book session' : 'Failed to book session. Please try again.';
  return { title: 'Booking Failed', description: text || fallback };
}

/** Whether a slot fetch failure says the tutor's calendar is not connected (the dashboard variant's state). */
export const isCalendarNotConnected = (message: string | null) => /Calendar Not Connected/i.test(message ?? '');

/** Whether a slot fetch failure says the tutor has no weekly hours at all (the dashboard variant's "No Availability Set"). */
export const isNoAvailabilitySet = (message: string | null) => /No Availability Set/i.test(message ?? '');
