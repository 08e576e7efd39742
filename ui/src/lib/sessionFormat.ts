import type { TutorSession } from '@shared/sessions/sessionApi.ts';
import type { SyncStatus } from '@shared/sessions/sessionCalendarApi.ts';
import { Temporal } from 'temporal-polyfill';

/** Spec part 2 §9: the bookable window, and so the reschedule calendar's last day. */
export const RESCHEDULE_DAYS_AHEAD = 30;
/** Spec part 2 §9: twelve placeholders while the reschedule slots load. */
export const SLOT_PLACEHOLDERS = 12;
/** Spec part 2 §9: the sync status polls every 30 seconds. */
export const SYNC_POLL_MS = 30_000;

/** Spec part 2 §4: pending, approved and scheduled are upcoming (oldest first); completed is done (newest first). */
const UPCOMING = new Set<string>(['pending', 'approved', 'scheduled']);

export function splitSessions(sessions: readonly TutorSession[]): { upcoming: TutorSession[]; completed: TutorSession[] } {
  const at = (s: TutorSession) => Date.parse(s.date);
  return {
    upcoming: sessions.filter((s) => UPCOMING.has(s.status)).sort((a, b) => at(a) - at(b)),
    completed: sessions.filter((s) => s.status === 'completed').sort((a, b) => at(b) - at(a)),
  };
}

/** Completion and "In Progress" start at the scheduled start (spec part 2 §4). */
export function hasStarted(session: Pick<TutorSession, 'date'>, now: number): boolean {
  return now >= Date.parse(session.date);
}

/** "Mon, Nov 24, 2026, 4:00 PM" in `zone`. */
export function sessionDateTime(iso: string, zone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** A slot's start as "h:mm a" in `zone` (spec part 2 §9). */
export function slotTime(iso: string, zone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit', hour12: true }).format(new Date(iso));
}

/** The reschedule body's `newDate`: the instant as local yyyy-MM-ddTHH:mm in `zone`. */
export function localDateTime(iso: string, zone: string): string {
  const local = Temporal.Instant.from(iso).toZonedDateTimeISO(zone).toPlainDateTime();
  return local.toString({ smallestUnit: 'minute' });
}

/** The reschedule calendar's selectable range in `zone`: today to 30 days ahead (yyyy-MM-dd). */
export function rescheduleRange(zone: string, now: Temporal.Instant = Temporal.Now.instant()): { min: string; max: string } {
  const today = now.toZonedDateTimeISO(zone).toPlainDate();
  return { min: today.toString(), max: today.add({ days: RESCHEDULE_DAYS_AHEAD }).toString() };
}

/** Whether `value` is a real yyyy-MM-dd within [min, max]. */
export function dateInRange(value: string, range: { min: string; max: string }): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  try {
    Temporal.PlainDate.from(value, { overflow: 'reject' });
  } catch {
    return false;
  }
  return value >= range.min && value <= range.max;
}

/**
 * The last sync time as spec part 2 §9 shows it: under a minute "Just now", under an hour in
 * minutes, under a day in hours, else a date; "Never" without one.
 */
export function lastSyncText(lastSyncTime: string | null, now: number, zone: string): string {
  if (!lastSyncTime) return 'Never';
  const at = Date.parse(lastSyncTime);
  if (Number.isNaN(at)) return 'Never';
  const minutes = Math.floor(Math.max(0, now - at) / 60_000);
  if (minutes < 1) return 'Just now';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(at));
}

export type SyncState = 'none' | 'failed' | 'pending' | 'synced';

/** Upcoming sessions neither in the calendar nor on their way there (failed, or in any other state). */
export function unsyncedCount(status: SyncStatus): number {
  return Math.max(status.failedSessions, status.totalSessions - status.syncedSessions - status.pendingSessions);
}

/** The sync card's four states (spec part 2 §2), failures first. */
export function syncState(status: SyncStatus): SyncState {
  if (status.totalSessions === 0) return 'none';
  if (unsyncedCount(status) > 0) return 'failed';
  if (status.pendingSessions > 0) return 'pending';
  return 'synced';
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
