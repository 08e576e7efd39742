import ICAL from 'ical.js';
import { expect } from 'vitest';

export interface ParsedInvite {
  method: string | null;
  uid: string;
  sequence: number;
  status: string | null;
  start: string;
  end: string;
  summary: string;
  description: string | null;
  organizer: string | null;
  attendees: string[];
  stamp: string;
}

/** Checks the file's lines as RFC 5545 §3.1 has them: CRLF only, at most 75 octets, folds start with a space. */
export function expectRfc5545Lines(text: string): void {
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  const lines = text.slice(0, -2).split('\r\n');
  for (const line of lines) expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
  expect(lines[0]).toBe('BEGIN:VCALENDAR');
  expect(lines[lines.length - 1]).toBe('END:VCALENDAR');
}

const utc = (time: ICAL.Time) => time.toJSDate().toISOString();

/** A calendar file as a maintained parser (ical.js) reads it: its method and its one event. */
export function parseInvite(text: string): ParsedInvite {
  expectRfc5545Lines(text);
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vevents = calendar.getAllSubcomponents('vevent');
  expect(vevents).toHaveLength(1);
  const vevent = vevents[0] as ICAL.Component;
  const event = new ICAL.Event(vevent);
  const value = (name: string) => {
    const v = vevent.getFirstPropertyValue(name);
    return v === null || v === undefined ? null : String(v);
  };
  return {
    method: (calendar.getFirstPropertyValue('method') as string | null) ?? null,
    uid: event.uid,
    sequence: event.sequence,
    status: value('status'),
    start: utc(event.startDate),
    end: utc(event.endDate),
    summary: event.summary,
    description: event.description ?? null,
    organizer: value('organizer'),
    attendees: vevent.getAllProperties('attendee').map((p) => String(p.getFirstValue())),
    stamp: utc(vevent.getFirstPropertyValue('dtstamp') as ICAL.Time),
  };
}
