import { type CalendarEventAnswer, instantOfTime } from '@shared/tutors/calendarEventsApi.ts';
import { Temporal } from 'temporal-polyfill';

/**
 * Where the events of one week go in the week view: days Monday to Sunday in the tutor's zone,
 * each timed event cut into one piece per day it covers (placed by wall-clock minutes, so a DST
 * day still reads 00:00–24:00), overlapping pieces side by side in lanes; all-day events in a row
 * of their own. Pure.
 */

export const MINUTES_PER_DAY = 1440;

/** The Monday of the week that holds `date` (weeks run Monday to Sunday, as the dashboard's figures). */
export const mondayOf = (date: Temporal.PlainDate) => date.subtract({ days: date.dayOfWeek - 1 });

export const weekDays = (monday: Temporal.PlainDate) => Array.from({ length: 7 }, (_, i) => monday.add({ days: i }));

/** The week's bounds as instants (what the events listing is asked for). */
export function weekWindow(monday: Temporal.PlainDate, zone: string): { from: string; to: string } {
  const at = (d: Temporal.PlainDate) => d.toZonedDateTime(zone).toInstant().toString();
  return { from: at(monday), to: at(monday.add({ days: 7 })) };
}

export interface Piece {
  event: CalendarEventAnswer;
  /** Minutes from the day's midnight (wall clock), 0–1440. */
  startMinute: number;
  endMinute: number;
  /** The event began on an earlier day, or goes on to a later one. */
  fromBefore: boolean;
  goesOn: boolean;
  lane: number;
  /** Lanes of the overlapping group this piece is in. */
  lanes: number;
}

export interface WeekLayout {
  days: Temporal.PlainDate[];
  /** Per day: all-day events covering it. */
  allDay: CalendarEventAnswer[][];
  /** Per day: timed pieces in start order, with their lanes. */
  timed: Piece[][];
}

const minuteOf = (t: Temporal.ZonedDateTime) => t.hour * 60 + t.minute;

function piecesOf(event: CalendarEventAnswer, days: Temporal.PlainDate[], zone: string): [number, Piece][] {
  const start = instantOfTime(event.start, zone).toZonedDateTimeISO(zone);
  const end = instantOfTime(event.end, zone).toZonedDateTimeISO(zone);
  const out: [number, Piece][] = [];
  days.forEach((day, index) => {
    const dayStart = day.toZonedDateTime(zone);
    const dayEnd = day.add({ days: 1 }).toZonedDateTime(zone);
    if (Temporal.ZonedDateTime.compare(start, dayEnd) >= 0 || Temporal.ZonedDateTime.compare(end, dayStart) <= 0) return;
    const fromBefore = Temporal.ZonedDateTime.compare(start, dayStart) < 0;
    const goesOn = Temporal.ZonedDateTime.compare(end, dayEnd) > 0;
    const startMinute = fromBefore ? 0 : minuteOf(start);
    const endMinute = goesOn || Temporal.ZonedDateTime.compare(end, dayEnd) === 0 ? MINUTES_PER_DAY : minuteOf(end);
    out.push([index, { event, startMinute, endMinute: Math.max(endMinute, startMinute), fromBefore, goesOn, lane: 0, lanes: 1 }]);
  });
  return out;
}

/** Side by side: each piece takes the first lane free at its start; a group of overlapping pieces shares its lane count. */
function assignLanes(pieces: Piece[]): Piece[] {
  const sorted = [...pieces].sort((a, b) => a.startMinute - b.startMinute || b.endMinute - a.endMinute);
  let group: Piece[] = [];
  let laneEnds: number[] = [];
  let groupEnd = -1;
  const close = () => {
    for (const p of group) p.lanes = laneEnds.length;
    group = [];
    laneEnds = [];
  };
  for (const piece of sorted) {
    // A piece shorter than the view can show still takes 15 minutes of room.
    const shownEnd = Math.max(piece.endMinute, piece.startMinute + 15);
    if (piece.startMinute >= groupEnd) close();
    let lane = laneEnds.findIndex((end) => end <= piece.startMinute);
    if (lane < 0) lane = laneEnds.push(shownEnd) - 1;
    else laneEnds[lane] = shownEnd;
    piece.lane = lane;
    group.push(piece);
    groupEnd = Math.max(groupEnd, shownEnd);
  }
  close();
  return sorted;
}

export function layoutWeek(events: readonly CalendarEventAnswer[], monday: Temporal.PlainDate, zone: string): WeekLayout {
  const days = weekDays(monday);
  const allDay: CalendarEventAnswer[][] = days.map(() => []);
  const timed: Piece[][] = days.map(() => []);
  for (const event of events) {
    if (event.status === 'cancelled') continue;
    if ('date' in event.start && 'date' in event.end) {
      const first = Temporal.PlainDate.from(event.start.date);
      const end = Temporal.PlainDate.from(event.end.date);
      days.forEach((day, i) => {
        if (Temporal.PlainDate.compare(day, first) >= 0 && Temporal.PlainDate.compare(day, end) < 0) allDay[i]?.push(event);
      });
      continue;
    }
    for (const [index, piece] of piecesOf(event, days, zone)) timed[index]?.push(piece);
  }
  return { days, allDay, timed: timed.map(assignLanes) };
}
