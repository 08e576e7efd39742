import { type CalendarEventAnswer, type EventKind, instantOfTime } from '@shared/tutors/calendarEventsApi.ts';
import { Temporal } from 'temporal-polyfill';

/** Words for the week view (US English, in the tutor's zone). */

/** What an event is to Topmark, as a screen reader hears it after the title. */
export const KIND_LABELS: Record<EventKind, string> = {
  hours: 'bookable',
  busy: 'busy',
  free: 'free',
  session: 'booked session',
};

const dayFormat = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });
const monthDay = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });
const asUtcDate = (date: Temporal.PlainDate) => new Date(Date.UTC(date.year, date.month - 1, date.day));

/** "Monday, March 2". */
export const dayLabel = (date: Temporal.PlainDate) => dayFormat.format(asUtcDate(date));

/** "March 2 – 8, 2026", "March 30 – April 5, 2026", "December 28, 2026 – January 3, 2027". */
export function weekLabel(monday: Temporal.PlainDate): string {
  const sunday = monday.add({ days: 6 });
  if (monday.year !== sunday.year)
    return `${monthDay.format(asUtcDate(monday))}, ${monday.year} – ${monthDay.format(asUtcDate(sunday))}, ${sunday.year}`;
  const end = monday.month === sunday.month ? String(sunday.day) : monthDay.format(asUtcDate(sunday));
  return `${monthDay.format(asUtcDate(monday))} – ${end}, ${sunday.year}`;
}

/** "7:00 AM". */
export function clockText(t: Temporal.ZonedDateTime): string {
  const hour = t.hour % 12 === 0 ? 12 : t.hour % 12;
  return `${hour}:${String(t.minute).padStart(2, '0')} ${t.hour < 12 ? 'AM' : 'PM'}`;
}

/** "7:00 AM" from minutes after midnight (1440: the midnight that ends the day, "12:00 AM"). */
export function minuteText(minutes: number): string {
  const hour = Math.floor(minutes / 60) % 24;
  return `${hour % 12 === 0 ? 12 : hour % 12}:${String(minutes % 60).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** The hour labels of the grid: "7 AM". */
export const hourText = (hour: number) => `${hour % 12 === 0 ? 12 : hour % 12} ${hour < 12 || hour === 24 ? 'AM' : 'PM'}`;

/** When an event happens, in words: "Sunday, March 8, 7:00 AM – 9:00 AM", "Sunday, March 8, all day". */
export function eventTimeText(event: Pick<CalendarEventAnswer, 'start' | 'end'>, zone: string): string {
  if ('date' in event.start && 'date' in event.end) {
    const first = Temporal.PlainDate.from(event.start.date);
    const last = Temporal.PlainDate.from(event.end.date).subtract({ days: 1 });
    return first.equals(last) ? `${dayLabel(first)}, all day` : `${dayLabel(first)} – ${dayLabel(last)}, all day`;
  }
  const start = instantOfTime(event.start, zone).toZonedDateTimeISO(zone);
  const end = instantOfTime(event.end, zone).toZonedDateTimeISO(zone);
  const sameDay =
    start.toPlainDate().equals(end.toPlainDate()) ||
    (end.hour === 0 && end.minute === 0 && end.toPlainDate().equals(start.toPlainDate().add({ days: 1 })));
  const endText = sameDay ? clockText(end) : `${dayLabel(end.toPlainDate())}, ${clockText(end)}`;
  return `${dayLabel(start.toPlainDate())}, ${clockText(start)} – ${endText}`;
}

/** What a screen reader hears for an event of the grid. */
export function eventLabel(event: CalendarEventAnswer, zone: string): string {
  const parts = [event.summary || '(No title)', KIND_LABELS[event.kind], eventTimeText(event, zone)];
  if (event.status === 'tentative') parts.push('tentative');
  if (event.recurringEventId) parts.push('repeats');
  if (event.readOnly) parts.push('read-only');
  return parts.join(', ');
}
