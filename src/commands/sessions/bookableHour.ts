import { DEFAULT_TIMEZONE } from '../../domain/accounts/accountPolicy.ts';
import { isFreeSlot, mayHoldSlots, rangeNeededFor } from '../../domain/sessions/freeSlots.ts';
import type { SessionPorts } from './ports.ts';

/**
 * Whether the hour starting at `start` is one the tutor's calendar offers now: asked of the same
 * slot engine and the same calendar snapshot as the booking grid, with the events of that hour
 * only, so an offered hour is accepted and a refused one was not offered. Held hours are not read
 * here: the tutor's schedule stream decides those, on its revision.
 */
export async function bookableHour(
  ports: Pick<SessionPorts, 'tutor' | 'calendarTime'>,
  tutorId: string,
  start: string,
  now: Date,
): Promise<{ free: boolean; tutorTimeZone: string }> {
  const tutor = await ports.tutor(tutorId);
  const tutorTimeZone = tutor.timeZone ?? DEFAULT_TIMEZONE;
  if (!tutor.exists) return { free: false, tutorTimeZone };
  // A past hour or one beyond the booking window is never offered: its calendar is not read.
  if (!mayHoldSlots(start, new Date(Date.parse(start) + 1), now)) return { free: false, tutorTimeZone };
  const range = rangeNeededFor(start, start);
  const { hours, busy } = await ports.calendarTime(tutorId, range.start, range.end);
  return { free: isFreeSlot({ hours, busy, booked: [], now, timeZone: tutorTimeZone }, start), tutorTimeZone };
}
