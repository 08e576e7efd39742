import { timezoneLabel } from '../../lib/timezones.ts';
import type { User } from './types.ts';

/** "Toronto (America/Toronto)" for a selectable zone; the IANA id alone for any other. */
export function timezoneFact(user: User): string {
  const label = timezoneLabel(user.timezone);
  return label === user.timezone ? user.timezone : `${label} (${user.timezone})`;
}

/** "November 2026": the account's creation month in the user's zone, US English (spec part 1 §9). */
export function memberSince(user: User): string {
  const date = new Date(user.createdAt);
  if (Number.isNaN(date.getTime())) return '—';
  try {
    return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: user.timezone }).format(date);
  } catch {
    return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' }).format(date);
  }
}
