/**
 * A small iCalendar writer (RFC 5545, with the iTIP methods of RFC 5546): what Topmark sends with
 * its session notices, so that any mail client adds, moves and removes the event. Pure: every
 * value, the stamp included, is given by the caller.
 *
 * - Lines end in CRLF, the last one too, and are folded at 75 octets of UTF-8 (a continuation line
 *   starts with one space, which counts), never inside a character.
 * - TEXT values escape `\`, `;`, `,` and line breaks (`\n`); other control characters are dropped.
 * - Times are written in UTC (`20261201T200000Z`): each reader's client shows them in its own zone,
 *   and no VTIMEZONE is needed.
 * - Parameter values (a person's name as CN) are quoted; a double quote cannot be quoted in a
 *   parameter, so it becomes a single one, and line breaks become spaces.
 */

export type ICalMethod = 'REQUEST' | 'CANCEL' | 'PUBLISH';

export interface ICalAddress {
  email: string;
  name?: string;
}

export interface ICalEvent {
  /** Stable for the life of the event: the same UID is the same event in every client. */
  uid: string;
  /** Raised whenever the event changes (RFC 5545 §3.8.7.4): a client keeps the highest it has seen. */
  sequence: number;
  /** When this version of the event was written (DTSTAMP), ISO 8601. */
  stamp: string;
  start: string;
  end: string;
  summary: string;
  description?: string;
  location?: string;
  url?: string;
  status: 'CONFIRMED' | 'CANCELLED';
  organizer: ICalAddress;
  attendees: readonly ICalAddress[];
}

export interface ICalendar {
  /** Absent: a plain calendar file (no iTIP method). */
  method?: ICalMethod;
  events: readonly ICalEvent[];
}

export const PRODUCT_ID = '-//Topmark//Topmark Sessions//EN';
const MAX_OCTETS = 75;

/** `2026-12-01T20:00:00.000Z` → `20261201T200000Z` (RFC 5545 §3.3.5, form 2: UTC). */
export function icalDateTime(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new RangeError(`Not a date-time: ${iso}`);
  const d = new Date(ms);
  if (d.getUTCFullYear() < 0 || d.getUTCFullYear() > 9999) throw new RangeError(`Out of iCalendar's range: ${iso}`);
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

// Control characters other than line breaks and HTAB are not allowed in TEXT (RFC 5545 §3.3.11).
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to drop
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const CONTROL = CONTROL_CHARACTERS;

/** A TEXT value (RFC 5545 §3.3.11): `\` `;` `,` escaped, CRLF, LF and CR as `\n`. */
export function escapeText(value: string): string {
  return value
    .replace(CONTROL, '')
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** A quoted parameter value (RFC 5545 §3.2): no DQUOTE or control character can be in one. */
export function quoteParam(value: string): string {
  return `"${value
    .replace(/\r\n|\r|\n/g, ' ')
    .replace(CONTROL, '')
    .replace(/\t/g, ' ')
    .replace(/"/g, "'")}"`;
}

const utf8Length = (codePoint: number) => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4);

/**
 * Folds one content line (RFC 5545 §3.1): at most 75 octets per physical line, CRLF excluded;
 * each continuation line starts with a space (counted in its 75). Splits only between characters.
 */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = utf8Length(char.codePointAt(0) ?? 0);
    if (octets + size > MAX_OCTETS) {
      out.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n');
}

const address = (name: string, person: ICalAddress, params: readonly string[] = []) =>
  `${[name, ...(person.name ? [`CN=${quoteParam(person.name)}`] : []), ...params].join(';')}:mailto:${person.email}`;

function eventLines(event: ICalEvent): string[] {
  if (!Number.isSafeInteger(event.sequence) || event.sequence < 0) throw new RangeError(`SEQUENCE must be a whole number ≥ 0`);
  return [
    'BEGIN:VEVENT',
    `UID:${escapeText(event.uid)}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${icalDateTime(event.stamp)}`,
    `DTSTART:${icalDateTime(event.start)}`,
    `DTEND:${icalDateTime(event.end)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    ...(event.url ? [`URL:${event.url}`] : []),
    `STATUS:${event.status}`,
    'TRANSP:OPAQUE',
    address('ORGANIZER', event.organizer),
    ...event.attendees.map((a) => address('ATTENDEE', a, ['ROLE=REQ-PARTICIPANT', 'PARTSTAT=NEEDS-ACTION', 'RSVP=FALSE'])),
    'END:VEVENT',
  ];
}

/** The calendar as a file: folded lines, each ending in CRLF. */
export function iCalendar(calendar: ICalendar): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODUCT_ID}`,
    'CALSCALE:GREGORIAN',
    ...(calendar.method ? [`METHOD:${calendar.method}`] : []),
    ...calendar.events.flatMap(eventLines),
    'END:VCALENDAR',
  ];
  return lines.map((line) => `${foldLine(line)}\r\n`).join('');
}

/** `Topmark <no-reply@topmark.example>` → its name and address; a bare address has no name. */
export function parseMailbox(value: string): ICalAddress {
  const match = /^\s*"?([^"<]*?)"?\s*<([^<>\s]+)>\s*$/.exec(value);
  if (match?.[2]) return match[1] ? { name: match[1], email: match[2] } : { email: match[2] };
  return { email: value.trim() };
}
