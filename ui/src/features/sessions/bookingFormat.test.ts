import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  bookingFailure,
  bookingRange,
  bookingStart,
  creditComesBack,
  isCalendarNotConnected,
  newYorkAbbreviation,
  slotLabel,
} from './bookingFormat.ts';

describe('booking format', () => {
  it('ranges from New York’s today to 30 days ahead', () => {
    // 03:00 UTC on Nov 24 is still Nov 23 in New York.
    expect(bookingRange(Temporal.Instant.from('2026-11-24T03:00:00Z'))).toEqual({ min: '2026-11-23', max: '2026-12-23' });
  });

  it('starts the booking at the slot’s New York hour, seconds zeroed, across both DST changes', () => {
    expect(bookingStart('2026-11-24', '14:00')).toBe('2026-11-24T19:00:00Z');
    expect(bookingStart('2026-07-01', '09:30')).toBe('2026-07-01T13:30:00Z');
    // Spring forward: 02:30 does not exist; fall back: 01:30 is the first (EDT) one.
    expect(bookingStart('2026-03-08', '03:00')).toBe('2026-03-08T07:00:00Z');
    expect(bookingStart('2026-11-01', '01:30')).toBe('2026-11-01T05:30:00Z');
    expect(bookingStart('2026-02-30', '10:00')).toBeNull();
    expect(bookingStart('2026-11-24', '24:00')).toBeNull();
  });

  it('labels slots as New York times, EST in winter and EDT in summer', () => {
    expect(slotLabel('2026-11-24', '14:00')).toBe('2:00 PM EST');
    expect(slotLabel('2026-07-01', '09:30')).toBe('9:30 AM EDT');
    expect(slotLabel('2026-07-01', '00:00')).toBe('12:00 AM EDT');
    expect(newYorkAbbreviation('2026-12-01T12:00:00Z')).toBe('EST');
  });

  it('gives the credit back only more than 12 hours before the start', () => {
    const start = '2026-11-24T20:00:00Z';
    expect(creditComesBack(start, Date.parse('2026-11-24T07:59:00Z'))).toBe(true);
    expect(creditComesBack(start, Date.parse('2026-11-24T08:00:00Z'))).toBe(false);
    expect(creditComesBack(start, Date.parse('2026-11-24T08:01:00Z'))).toBe(false);
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
