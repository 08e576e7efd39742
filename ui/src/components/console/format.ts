const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'always' });

/** "3 days ago", "5 minutes ago", "just now": the Applied column (spec part 2 §2). */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((then - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return 'just now';
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "Nov 23, 2026" in the viewer's time zone. */
export function shortDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

/** "Nov 23, 2026, 3:04 PM": the exact time behind a relative one. */
export function exactTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateTimeFormat.format(date);
}

/** "Ann Lee", or null when the applicant gave no name. */
export function applicantName(user: { firstName: string | null; lastName: string | null }): string | null {
  return `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim() || null;
}

const cad = new Intl.NumberFormat('en-CA', { style: 'currency', currency: 'CAD' });

/** 13725 → "$137.25": the console's money, in the platform's currency with two decimals. */
export function centsToMoney(cents: number): string {
  return cad.format(cents / 100);
}

/** An ISO instant as the server writes them into descriptions ("2026-12-04T21:00:00.000Z"). */
const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})/g;
const CENTS_OF = /\b(\d+) of (\d+) cents\b/g;
const CENTS = /\b(\d+) cents\b/g;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A recorded sentence in people's language: instants in the viewer's zone, cents as money, and
 * known ids replaced by the names the server resolved ("Purchase 9f…" → "Purchase Algebra · Ann Lee").
 * Descriptions are written once, when the event is recorded; reading them this way keeps old rows readable too.
 */
export function readableText(text: string, names: ReadonlyMap<string, string> = new Map()): string {
  let out = text
    .replace(ISO_INSTANT, (iso) => exactTime(iso) || iso)
    .replace(CENTS_OF, (_, part: string, whole: string) => `${centsToMoney(Number(part))} of ${centsToMoney(Number(whole))}`)
    .replace(CENTS, (_, cents: string) => centsToMoney(Number(cents)));
  for (const [id, name] of names) {
    if (id && name) out = out.replace(new RegExp(escapeRegExp(id), 'g'), name);
  }
  return out;
}

/** A recorded value that is an instant, in the viewer's zone; any other text unchanged. */
export function readableInstant(value: string): string {
  return value.replace(ISO_INSTANT, (iso) => (iso === value ? exactTime(iso) || iso : iso));
}

/** A field that holds money in cents (`amountCents`, `hourly_rate_cents`, `price.cents`). */
const CENTS_FIELD = /cents$/i;

/**
 * A recorded field's value as staff read it: an instant in the viewer's zone, cents (by the
 * field's name) as money, any other value as recorded (JSON). Null for an absent value.
 */
export function readableValue(field: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return readableInstant(value);
  if (typeof value === 'number' && Number.isInteger(value) && CENTS_FIELD.test(field)) return centsToMoney(value);
  return JSON.stringify(value);
}

/** `SessionBooked` → "Session booked": an event type as words. */
export function eventTypeLabel(type: string): string {
  const words = type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The person who acted: their name, "Deleted user" when the account is gone, "System" when nobody did. */
export function actorLabel(actor: { id: string | null; name?: string | undefined }): string {
  if (actor.name) return actor.name;
  return actor.id ? 'Deleted user' : 'System';
}
