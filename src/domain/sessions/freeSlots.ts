import { Temporal } from 'temporal-polyfill';
import {
  assertTimeZone,
  BOOKING_WINDOW_DAYS,
  type InstantInput,
  SLOT_MINUTES,
  type TimeInterval,
  toInstant,
} from '../calendar/availability.ts';

/**
 * The one slot engine (issue 21): the instances of the tutor's "Topmark Hours", minus the busy time
 * of their calendar, minus the hours other sessions hold, cut into one-hour slots. The booking
 * grid, the booking and reschedule checks and the tutor's preview all ask it, so what is offered is
 * exactly what can be booked.
 *
 * A slot starts at an hours instance's start or a whole number of hours after it, while that start
 * lies inside the instance; it is offered when the whole hour lies inside the tutor's hours (the
 * union of the instances, so an hour may run from one instance into the next, e.g. across midnight)
 * and overlaps no busy or held time, starts at or after `now`, and before the horizon (30 days in
 * the tutor's calendar). Every rule reads only instances that overlap the hour itself, so asking
 * about one hour (a booking) and about a whole day (the grid) with the events of that range gives
 * the same answer for that hour. Instants are absolute, so daylight-saving changes need no special
 * case: the hours of a fall-back night are all offered, a spring-forward gap holds none.
 *
 * Pure: `now` and every interval arrive as arguments.
 */

export interface SlotQuery {
  /** Instances of "Topmark Hours" (any order, may overlap or touch). */
  hours: readonly TimeInterval[];
  /** Busy time of the tutor's calendar. */
  busy: readonly TimeInterval[];
  /** Hours other sessions hold (the tutor's schedule). */
  booked: readonly TimeInterval[];
  now: InstantInput;
  /** The tutor's zone: the 30-day horizon counts its calendar days. */
  timeZone: string;
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
  start: number;
  end: number;
}

const HOUR_MS = SLOT_MINUTES * 60_000;
const ms = (value: InstantInput) => toInstant(value).epochMilliseconds;
const iso = (epochMs: number) => Temporal.Instant.fromEpochMilliseconds(epochMs).toString();

function spansOf(intervals: readonly TimeInterval[]): Span[] {
  return intervals.map((i) => ({ start: ms(i.start), end: ms(i.end) })).filter((s) => s.end > s.start);
}

/** Overlapping and touching spans joined, ascending. */
function merged(spans: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** The first span of `sorted` (merged) that ends after `at`, by binary search. */
function firstEndingAfter(sorted: readonly Span[], at: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as Span).end <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const covers = (coverage: readonly Span[], start: number, end: number) => {
  const span = coverage[firstEndingAfter(coverage, start)];
  return span !== undefined && span.start <= start && span.end >= end;
};

const overlapsAny = (blocked: readonly Span[], start: number, end: number) => {
  const span = blocked[firstEndingAfter(blocked, start)];
  return span !== undefined && span.start < end;
};

/** Free one-hour slots, ascending, as UTC instants. */
export function freeSlots(query: SlotQuery): SlotInterval[] {
  const zone = assertTimeZone(query.timeZone);
  const now = toInstant(query.now);
  const horizon = now
    .toZonedDateTimeISO(zone)
    .add({ days: query.days ?? BOOKING_WINDOW_DAYS })
    .toInstant().epochMilliseconds;
  const from = Math.max(now.epochMilliseconds, query.from === undefined ? Number.NEGATIVE_INFINITY : ms(query.from));
  const to = Math.min(horizon, query.to === undefined ? Number.POSITIVE_INFINITY : ms(query.to));
  if (from >= to) return [];
  const instances = spansOf(query.hours);
  const coverage = merged(instances);
  const blocked = merged([...spansOf(query.busy), ...spansOf(query.booked)]);
  const starts = new Set<number>();
  for (const instance of instances) {
    // The first whole hour after the instance's start that is not before `from`.
    const first = instance.start + Math.max(0, Math.ceil((from - instance.start) / HOUR_MS)) * HOUR_MS;
    for (let start = first; start < instance.end && start < to; start += HOUR_MS) starts.add(start);
  }
  return [...starts]
    .sort((a, b) => a - b)
    .filter((start) => covers(coverage, start, start + HOUR_MS) && !overlapsAny(blocked, start, start + HOUR_MS))
    .map((start) => ({ start: iso(start), end: iso(start + HOUR_MS) }));
}

/** Whether the hour starting at `start` is one of the free slots (what a booking and a reschedule check). */
export function isFreeSlot(query: Omit<SlotQuery, 'from' | 'to'>, start: InstantInput): boolean {
  const at = ms(start);
  return freeSlots({ ...query, from: iso(at), to: iso(at + 1) }).some((s) => ms(s.start) === at);
}

const DAY_MS = 86_400_000;

/**
 * Whether slots starting in [from, to) could be offered at `now` at all: the range ends after now
 * and starts before the horizon (`days` ahead, plus a day for the tutor's zone, which `freeSlots`
 * counts exactly). Asked before a calendar is read: a past or far-off date (a year 2199 expands
 * every weekly series up to it) costs no listing.
 */
export function mayHoldSlots(from: InstantInput, to: InstantInput, now: InstantInput, days = BOOKING_WINDOW_DAYS): boolean {
  const at = ms(now);
  return ms(to) > at && ms(from) < at + (days + 1) * DAY_MS;
}

/** The range of calendar data a question about slots starting in [from, to) needs: the hours those slots may run into too. */
export function rangeNeededFor(from: InstantInput, to: InstantInput): TimeInterval {
  return { start: iso(ms(from)), end: iso(ms(to) + HOUR_MS) };
}
