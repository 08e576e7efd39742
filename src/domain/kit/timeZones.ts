import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { InvalidFieldError } from './domainError.ts';

/**
 * The time zones a person may give Topmark: the runtime's IANA list (`Intl.supportedValuesOf`),
 * plus `UTC` and IANA's fixed-offset `Etc/GMT±N` zones. One check for every route and command that takes a zone (a reschedule, the slot
 * routes, weekly hours, calendar events, the account's zone), refused when unknown, never
 * replaced: a reschedule sent `Mars/Olympus` once moved the session to New York time.
 *
 * Why the runtime's list rather than "whatever Temporal parses": Temporal also takes offsets
 * (`+05:00`) and other spellings that no calendar, mail or read model treats as a place, and a
 * zone the runtime lacks cannot be formatted for the person either. A link name the runtime
 * resolves to a listed zone (`Asia/Kolkata` → `Asia/Calcutta` in older ICU data, `Etc/UTC` → `UTC`)
 * is the same place and is kept as given (its case corrected).
 */
const LISTED: ReadonlySet<string> = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', ...fixedOffsetZones()]);

/**
 * IANA's fixed-offset zones (`Etc/GMT-14` … `Etc/GMT+12`, the sign inverted as POSIX has it): real
 * tz database entries the runtime formats, though `supportedValuesOf` lists places only.
 */
function fixedOffsetZones(): string[] {
  const zones: string[] = [];
  for (let hours = -14; hours <= 12; hours++) if (hours !== 0) zones.push(`Etc/GMT${hours > 0 ? '+' : '-'}${Math.abs(hours)}`);
  return zones;
}

export const UNKNOWN_TIME_ZONE = 'Unknown time zone: use an IANA time zone such as America/New_York';
const ZONE_MAX = 64;

/** The zone as Topmark keeps it (Temporal's spelling of the id) when it is a known IANA zone, else null. */
export function knownTimeZone(zone: string): string | null {
  if (zone.length === 0 || zone.length > ZONE_MAX || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return null;
  try {
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    if (!LISTED.has(canonical)) return null;
    return Temporal.PlainDate.from('2026-01-01').toZonedDateTime(zone).timeZoneId;
  } catch {
    return null;
  }
}

export const isKnownTimeZone = (zone: string) => knownTimeZone(zone) !== null;

/** `zone` as kept when known; else an `InvalidFieldError` naming `field` (a 400 naming it). */
export function knownTimeZoneOf(zone: string, field: string): string {
  const known = knownTimeZone(zone);
  if (known === null) throw new InvalidFieldError(field, UNKNOWN_TIME_ZONE);
  return known;
}

/** A request field holding a zone: a known IANA zone or `UTC`, the same rule the commands apply. */
export const timeZoneField = () =>
  z.string({ error: UNKNOWN_TIME_ZONE }).max(100, UNKNOWN_TIME_ZONE).refine(isKnownTimeZone, { error: UNKNOWN_TIME_ZONE });
