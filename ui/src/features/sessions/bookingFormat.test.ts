import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  bookingFailure,
  bookingRange,
  creditComesBack,
  familyMoveWindow,
  isCalendarNotConnected,
  newYorkAbbreviation,
  slotLabelAt,
} from './bookingFormat.ts';

describe('booking format', () => {
  it('ranges from New York’s today to 30 days ahead', () => {
    // 03:00 UTC on Nov 24 is still Nov 23 in New York.
    expect(bookingRange(Temporal.Instant.from('2026-11-24T03:00:00Z'))).toEqual({ min: '2026-11-23', max: '2026-12-23' });
  });

  it('labels slots from their instants as New York times, EST in winter and EDT in summer; the fall-back night’s two 01:00s apart', () => {
    expect(slotLabelAt('2026-11-24T19:00:00Z')).toBe('2:00 PM EST');
    expect(slotLabelAt('2026-07-01T13:30:00Z')).toBe('9:30 AM EDT');
    expect(slotLabelAt('2026-07-01T04:00:00Z')).toBe('12:00 AM EDT');
    expect(slotLabelAt('2026-11-01T05:00:00Z')).toBe('1:00 AM EDT');
    expect(slotLabelAt('2026-11-01T06:00:00Z')).toBe('1:00 AM EST');
    expect(newYorkAbbreviation('2026-12-01T12:00:00Z')).toBe('EST');
  });

  it('gives the credit back only more than 12 hours before the start', () => {
    const start = '2026-11-24T20:00:00Z';
    expect(creditComesBack(start, Date.parse('2026-11-24T07:59:00Z'))).toBe(true);
    expect(creditComesBack(start, Date.parse('2026-11-24T08:00:00Z'))).toBe(false);
    expect(creditComesBack(start, Date.parse('2026-11-24T08:01:00Z'))).toBe(false);
  });

  it('lets the family move a session only more than 12 hours before the start; nobody once it has started', () => {
    const start = '2026-11-24T20:00:00Z';
    expect(familyMoveWindow(start, Date.parse('2026-11-24T07:59:00Z'))).toBe('open');
    expect(familyMoveWindow(start, Date.parse('2026-11-24T08:00:00Z'))).toBe('late');
    expect(familyMoveWindow(start, Date.parse('2026-11-24T18:15:00Z'))).toBe('late');
    expect(familyMoveWindow(start, Date.parse('2026-11-24T20:00:00Z'))).toBe('started');
  });

  it('words booking failures as the spec’s catalogue does', () => {
    expect(bookingFailure('Calendar Permission Error: nope', 'dashboard').title).toBe('Calendar Permission Issue');
    expect(bookingFailure('The service account needs writer access', 'dashboard').title).toBe('Calendar Permission Issue');
    expect(bookingFailure('Calendar Access Denied', 'dashboard').title).toBe('Calendar Access Denied');
    expect(bookingFailure('This time slot is no longer available.', 'dashboard')).toEqual({
      title: 'Booking Failed',
      description: 'This time slot is no longer available.',
    });
    expect(bookingFailure(null, 'dashboard').description).toBe('Failed to book session. Please try again.');
    expect(bookingFailure('', 'firstSession').description).toBe('Failed to book session');
    expect(isCalendarNotConnected('Calendar Not Connected: this tutor’s calendar is not connected')).toBe(true);
  });
});
