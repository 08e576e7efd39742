import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  basicUtc,
  formatRule,
  occurrencesBetween,
  parseRecurrence,
  type SeriesDefinition,
  UnsupportedRecurrenceError,
} from './recurrence.ts';

const series = (start: string, end: string, timeZone: string, ...recurrence: string[]): SeriesDefinition => ({
  start: Temporal.PlainDateTime.from(start),
  end: Temporal.PlainDateTime.from(end),
  timeZone,
  recurrence,
});
const between = (s: SeriesDefinition, from: string, to: string) =>
  occurrencesBetween(s, Temporal.Instant.from(from), Temporal.Instant.from(to)).map((o) => `${o.start}/${o.end}`);
const starts = (s: SeriesDefinition, from: string, to: string, zone = s.timeZone) =>
  occurrencesBetween(s, Temporal.Instant.from(from), Temporal.Instant.from(to)).map((o) =>
    o.start.toZonedDateTimeISO(zone).toPlainDateTime().toString(),
  );

describe('recurrence expansion', () => {
  it('keeps a weekly 09:00 at 09:00 local across both New York DST changes (the instant moves)', () => {
    const monday = series('2026-03-02T09:00', '2026-03-02T10:00', 'America/New_York', 'RRULE:FREQ=WEEKLY;BYDAY=MO');
    expect(between(monday, '2026-03-01T00:00Z', '2026-03-17T00:00Z')).toEqual([
      '2026-03-02T14:00:00Z/2026-03-02T15:00:00Z',
      '2026-03-09T13:00:00Z/2026-03-09T14:00:00Z',
      '2026-03-16T13:00:00Z/2026-03-16T14:00:00Z',
    ]);
    expect(between(monday, '2026-10-25T00:00Z', '2026-11-03T00:00Z')).toEqual([
      '2026-10-26T13:00:00Z/2026-10-26T14:00:00Z',
      '2026-11-02T14:00:00Z/2026-11-02T15:00:00Z',
    ]);
  });

  it('resolves a skipped wall time forward and a repeated one to its first instant', () => {
    const sunday = series('2026-03-01T02:30', '2026-03-01T03:30', 'America/New_York', 'RRULE:FREQ=WEEKLY;BYDAY=SU');
    // 2026-03-08 02:30 does not exist in New York: it becomes 03:30 EDT, and the end 03:30 EDT too.
    expect(between(sunday, '2026-03-08T00:00Z', '2026-03-09T00:00Z')).toEqual(['2026-03-08T07:30:00Z/2026-03-08T07:30:00Z']);
    const early = series('2026-10-25T01:30', '2026-10-25T02:30', 'America/New_York', 'RRULE:FREQ=WEEKLY;BYDAY=SU');
    // 2026-11-01 01:30 happens twice: the first (EDT, 05:30Z); 02:30 exists once (EST, 07:30Z).
    expect(between(early, '2026-11-01T00:00Z', '2026-11-02T00:00Z')).toEqual(['2026-11-01T05:30:00Z/2026-11-01T07:30:00Z']);
  });

  it('expands London hours across 2026-03-29 and 2026-10-25', () => {
    const s = series('2026-03-23T09:00', '2026-03-23T17:00', 'Europe/London', 'RRULE:FREQ=WEEKLY;BYDAY=MO');
    expect(between(s, '2026-03-23T00:00Z', '2026-03-31T00:00Z')).toEqual([
      '2026-03-23T09:00:00Z/2026-03-23T17:00:00Z',
      '2026-03-30T08:00:00Z/2026-03-30T16:00:00Z',
    ]);
    expect(between(s, '2026-10-19T00:00Z', '2026-10-27T00:00Z')).toEqual([
      '2026-10-19T08:00:00Z/2026-10-19T16:00:00Z',
      '2026-10-26T09:00:00Z/2026-10-26T17:00:00Z',
    ]);
  });

  it('follows RFC 5545: INTERVAL with WKST changes which days fall in a period', () => {
    // RFC 5545 §3.8.5.3 examples (DTSTART 1997-08-05 09:00, New York).
    const mo = series(
      '1997-08-05T09:00',
      '1997-08-05T10:00',
      'America/New_York',
      'RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO',
    );
    expect(starts(mo, '1997-01-01T00:00Z', '1998-01-01T00:00Z')).toEqual([
      '1997-08-05T09:00:00',
      '1997-08-10T09:00:00',
      '1997-08-19T09:00:00',
      '1997-08-24T09:00:00',
    ]);
    const su = series(
      '1997-08-05T09:00',
      '1997-08-05T10:00',
      'America/New_York',
      'RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU',
    );
    expect(starts(su, '1997-01-01T00:00Z', '1998-01-01T00:00Z')).toEqual([
      '1997-08-05T09:00:00',
      '1997-08-17T09:00:00',
      '1997-08-19T09:00:00',
      '1997-08-31T09:00:00',
    ]);
  });

  it('ends at COUNT (counting DTSTART) and at UNTIL, in date and UTC forms, inclusively', () => {
    const count = series('2026-03-02T09:00', '2026-03-02T10:00', 'America/New_York', 'RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=3');
    expect(starts(count, '2026-01-01T00:00Z', '2027-01-01T00:00Z')).toEqual([
      '2026-03-02T09:00:00',
      '2026-03-04T09:00:00',
      '2026-03-09T09:00:00',
    ]);
    const untilDate = series('2026-03-02T09:00', '2026-03-02T10:00', 'America/New_York', 'RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260316');
    expect(starts(untilDate, '2026-01-01T00:00Z', '2027-01-01T00:00Z')).toEqual([
      '2026-03-02T09:00:00',
      '2026-03-09T09:00:00',
      '2026-03-16T09:00:00',
    ]);
    // 13:00Z on the 16th is exactly 09:00 EDT: inclusive.
    const untilUtc = series(
      '2026-03-02T09:00',
      '2026-03-02T10:00',
      'America/New_York',
      'RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260316T130000Z',
    );
    expect(starts(untilUtc, '2026-01-01T00:00Z', '2027-01-01T00:00Z')).toHaveLength(3);
    const beforeIt = series(
      '2026-03-02T09:00',
      '2026-03-02T10:00',
      'America/New_York',
      'RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260316T125959Z',
    );
    expect(starts(beforeIt, '2026-01-01T00:00Z', '2027-01-01T00:00Z')).toHaveLength(2);
  });

  it('counts DTSTART as the first occurrence even when BYDAY does not name its day', () => {
    const s = series('2026-03-03T09:00', '2026-03-03T10:00', 'America/New_York', 'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=2');
    expect(starts(s, '2026-01-01T00:00Z', '2027-01-01T00:00Z')).toEqual(['2026-03-03T09:00:00', '2026-03-09T09:00:00']);
  });

  it('removes EXDATEs given in UTC, with a TZID or as dates, still counting them for COUNT', () => {
    const s = series(
      '2026-03-02T09:00',
      '2026-03-02T10:00',
      'America/New_York',
      'RRULE:FREQ=DAILY;COUNT=5',
      'EXDATE;TZID=America/New_York:20260303T090000',
      'EXDATE:20260304T140000Z',
      'EXDATE;VALUE=DATE:20260305',
    );
    expect(starts(s, '2026-01-01T00:00Z', '2027-01-01T00:00Z')).toEqual(['2026-03-02T09:00:00', '2026-03-06T09:00:00']);
  });

  it('expands DAILY with INTERVAL and a BYDAY filter', () => {
    const s = series('2026-03-02T18:00', '2026-03-02T19:00', 'America/New_York', 'RRULE:FREQ=DAILY;INTERVAL=2;BYDAY=MO,WE,FR;COUNT=4');
    expect(starts(s, '2026-01-01T00:00Z', '2027-01-01T00:00Z')).toEqual([
      '2026-03-02T18:00:00',
      '2026-03-04T18:00:00',
      '2026-03-06T18:00:00',
      '2026-03-16T18:00:00',
    ]);
    const never = series('2026-03-02T18:00', '2026-03-02T19:00', 'America/New_York', 'RRULE:FREQ=DAILY;INTERVAL=7;BYDAY=TU');
    expect(starts(never, '2026-03-03T00:00Z', '2026-06-01T00:00Z')).toEqual([]);
  });

  it('finds the same occurrences far from DTSTART as a full walk would (skipping ahead)', () => {
    const s = series('2024-01-01T09:00', '2024-01-01T12:00', 'America/New_York', 'RRULE:FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,TH');
    const far = starts(s, '2026-10-01T00:00Z', '2026-12-01T00:00Z');
    const all = starts(s, '2024-01-01T00:00Z', '2026-12-01T00:00Z').filter((d) => d >= '2026-10-01');
    expect(far).toEqual(all);
    expect(far.length).toBeGreaterThan(4);
  });

  it('keeps occurrences that overlap the window only partly', () => {
    const s = series('2026-03-02T09:00', '2026-03-02T17:00', 'America/New_York', 'RRULE:FREQ=DAILY');
    expect(between(s, '2026-03-03T21:00Z', '2026-03-03T22:00Z')).toEqual(['2026-03-03T14:00:00Z/2026-03-03T22:00:00Z']);
    expect(between(s, '2026-03-03T22:00Z', '2026-03-04T14:00Z')).toEqual([]);
  });

  it('treats an event without recurrence as one occurrence', () => {
    const s = series('2026-03-02T09:00', '2026-03-02T10:00', 'Europe/London');
    expect(between(s, '2026-03-01T00:00Z', '2026-04-01T00:00Z')).toEqual(['2026-03-02T09:00:00Z/2026-03-02T10:00:00Z']);
  });

  it('refuses what it cannot expand with a named error', () => {
    for (const line of [
      'RRULE:FREQ=MONTHLY;BYMONTHDAY=1',
      'RRULE:FREQ=WEEKLY;BYDAY=1MO',
      'RRULE:FREQ=WEEKLY;BYSETPOS=1',
      'RRULE:FREQ=WEEKLY;COUNT=2;UNTIL=20260101',
      'RRULE:FREQ=WEEKLY;COUNT=0',
      'RRULE:FREQ=WEEKLY;UNTIL=2026-01-01',
      'RDATE:20260101T090000Z',
      'RRULE:BYDAY=MO',
    ]) {
      expect(() => parseRecurrence([line], 'America/New_York'), line).toThrow(UnsupportedRecurrenceError);
    }
    expect(parseRecurrence([], 'UTC')).toBeNull();
  });

  it('writes rules back in RFC 5545 form', () => {
    const parsed = parseRecurrence(['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261231T235959Z'], 'America/New_York')!;
    expect(formatRule(parsed.rule)).toBe('RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261231T235959Z');
    expect(basicUtc(Temporal.Instant.from('2026-03-09T13:00:00Z'))).toBe('20260309T130000Z');
  });
});
