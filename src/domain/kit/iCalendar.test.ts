import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { expectRfc5545Lines, parseInvite } from '../../../tests/support/iCalendar.ts';
import {
  CONTROL_CHARACTERS,
  escapeText,
  foldLine,
  type ICalEvent,
  iCalendar,
  icalDateTime,
  parseMailbox,
  quoteParam,
} from './iCalendar.ts';

const event = (overrides: Partial<ICalEvent> = {}): ICalEvent => ({
  uid: 'session-1@topmark',
  sequence: 0,
  stamp: '2026-11-20T12:00:00.000Z',
  start: '2026-12-01T20:00:00.000Z',
  end: '2026-12-01T21:00:00.000Z',
  summary: 'Topmark: Math with Maya Okafor',
  status: 'CONFIRMED',
  organizer: { email: 'no-reply@topmark.example', name: 'Topmark' },
  attendees: [{ email: 'pat@example.com', name: 'Pat' }],
  ...overrides,
});

const octets = (s: string) => new TextEncoder().encode(s).length;
const unfold = (text: string) => text.replace(/\r\n[ \t]/g, '');

describe('iCalendar writer (RFC 5545)', () => {
  it('writes UTC date-times in the basic form', () => {
    expect(icalDateTime('2026-12-01T20:00:00.000Z')).toBe('20261201T200000Z');
    expect(icalDateTime('2026-07-01T15:30:45-04:00')).toBe('20260701T193045Z');
    expect(() => icalDateTime('not a date')).toThrow(RangeError);
  });

  it('escapes backslash, semicolon, comma and every kind of line break in TEXT, and drops other control characters', () => {
    expect(escapeText('a\\b;c,d')).toBe('a\\\\b\\;c\\,d');
    expect(escapeText('one\r\ntwo\nthree\rfour')).toBe('one\\ntwo\\nthree\\nfour');
    expect(escapeText('tab\there\u0000\u0007\u007f')).toBe('tab\there');
    // a backslash before n stays a backslash, not a line break
    expect(escapeText('C:\\new')).toBe('C:\\\\new');
  });

  it('quotes parameter values, turning what a quoted value cannot hold into harmless characters', () => {
    expect(quoteParam('Okafor, Maya; PhD')).toBe('"Okafor, Maya; PhD"');
    expect(quoteParam('Maya "M" Okafor\nline')).toBe(`"Maya 'M' Okafor line"`);
  });

  it('folds at 75 octets with a leading space on each continuation, never inside a character', () => {
    const ascii = `DESCRIPTION:${'x'.repeat(200)}`;
    const folded = foldLine(ascii);
    const lines = folded.split('\r\n');
    // 212 octets: 75, then 74 + the space, then the last 63 + the space
    expect(lines.map(octets)).toEqual([75, 75, 64]);
    expect(lines.slice(1).every((l) => l.startsWith(' '))).toBe(true);
    expect(unfold(folded)).toBe(ascii);
    expect(foldLine('SHORT:line')).toBe('SHORT:line');
    expect(foldLine(`X:${'y'.repeat(73)}`)).toBe(`X:${'y'.repeat(73)}`);

    // three-octet characters and four-octet emoji: no line over 75 octets, none cut
    const wide = `SUMMARY:${'é€😀'.repeat(40)}`;
    const wideLines = foldLine(wide).split('\r\n');
    for (const line of wideLines) {
      expect(octets(line)).toBeLessThanOrEqual(75);
      expect(line).not.toMatch(/\uFFFD/);
      expect(new TextDecoder('utf-8', { fatal: true }).decode(new TextEncoder().encode(line))).toBe(line);
    }
    expect(unfold(wideLines.join('\r\n'))).toBe(wide);
  });

  it('writes a calendar that ical.js reads back: method, UID, SEQUENCE, times, status, people', () => {
    const text = iCalendar({
      method: 'REQUEST',
      events: [event({ sequence: 2, description: 'Line one\nLine two, with; specials \\ here', url: 'https://topmark.example/dashboard' })],
    });
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:')).toBe(true);
    expect(text).toContain('\r\nMETHOD:REQUEST\r\n');
    const parsed = parseInvite(text);
    expect(parsed).toMatchObject({
      method: 'REQUEST',
      uid: 'session-1@topmark',
      sequence: 2,
      status: 'CONFIRMED',
      start: '2026-12-01T20:00:00.000Z',
      end: '2026-12-01T21:00:00.000Z',
      stamp: '2026-11-20T12:00:00.000Z',
      summary: 'Topmark: Math with Maya Okafor',
      description: 'Line one\nLine two, with; specials \\ here',
      organizer: 'mailto:no-reply@topmark.example',
      attendees: ['mailto:pat@example.com'],
    });
    const cancel = parseInvite(iCalendar({ method: 'CANCEL', events: [event({ sequence: 3, status: 'CANCELLED' })] }));
    expect(cancel).toMatchObject({ method: 'CANCEL', sequence: 3, status: 'CANCELLED', uid: 'session-1@topmark' });
    // a plain file has no method
    expect(iCalendar({ events: [event()] })).not.toContain('METHOD:');
  });

  it('keeps the people’s names as parameters a parser reads back', () => {
    const text = iCalendar({
      method: 'REQUEST',
      events: [event({ attendees: [{ email: 'maya@example.com', name: 'Okafor, Maya; "Dr"' }] })],
    });
    const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent') as ICAL.Component;
    const attendee = vevent.getFirstProperty('attendee') as ICAL.Property;
    expect(attendee.getParameter('cn')).toBe("Okafor, Maya; 'Dr'");
    expect(attendee.getParameter('partstat')).toBe('NEEDS-ACTION');
    expect((vevent.getFirstProperty('organizer') as ICAL.Property).getParameter('cn')).toBe('Topmark');
  });

  it('refuses a SEQUENCE that is not a whole number ≥ 0', () => {
    expect(() => iCalendar({ events: [event({ sequence: -1 })] })).toThrow(RangeError);
    expect(() => iCalendar({ events: [event({ sequence: 1.5 })] })).toThrow(RangeError);
  });

  it('round-trips any text through folding and escaping (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        fc.string({ unit: 'binary', maxLength: 200 }),
        (summary, description) => {
          const text = iCalendar({ method: 'REQUEST', events: [event({ summary: summary || 'x', description })] });
          expectRfc5545Lines(text);
          const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent') as ICAL.Component;
          const strip = (s: string) => s.replace(CONTROL_CHARACTERS, '').replace(/\r\n|\r/g, '\n');
          expect(vevent.getFirstPropertyValue('summary')).toBe(strip(summary || 'x'));
          if (strip(description)) expect(vevent.getFirstPropertyValue('description')).toBe(strip(description));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads a From address as the organizer', () => {
    expect(parseMailbox('Topmark <no-reply@topmark.example>')).toEqual({ name: 'Topmark', email: 'no-reply@topmark.example' });
    expect(parseMailbox('"Topmark, Inc." <hello@topmark.ca>')).toEqual({ name: 'Topmark, Inc.', email: 'hello@topmark.ca' });
    expect(parseMailbox('no-reply@topmark.ca')).toEqual({ email: 'no-reply@topmark.ca' });
    expect(parseMailbox('<no-reply@topmark.ca>')).toEqual({ email: 'no-reply@topmark.ca' });
  });
});
