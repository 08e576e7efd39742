import type { TutorSession } from '@shared/sessions/sessionApi.ts';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  dateInRange,
  hasStarted,
  lastSyncText,
  localDateTime,
  rescheduleRange,
  slotTime,
  splitSessions,
  syncState,
} from './sessionFormat.ts';

const session = (id: string, date: string, status: TutorSession['status']): TutorSession => ({
  id,
  tutorId: 't',
  studentId: 's',
  student: { firstName: 'Bea', lastName: 'Buyer' },
  subject: { id: 'calc', name: 'Calculus' },
  date,
  duration: 60,
  status,
  notes: null,
  meetingLink: null,
  googleCalendarEventId: null,
});

describe('tutor session formatting', () => {
  it('splits upcoming (oldest first) from completed (newest first) and leaves cancelled out', () => {
    const { upcoming, completed } = splitSessions([
      session('a', '2026-12-03T15:00:00Z', 'scheduled'),
      session('b', '2026-12-01T15:00:00Z', 'scheduled'),
      session('c', '2026-11-01T15:00:00Z', 'completed'),
      session('d', '2026-11-05T15:00:00Z', 'completed'),
      session('e', '2026-11-07T15:00:00Z', 'cancelled'),
    ]);
    expect(upcoming.map((s) => s.id)).toEqual(['b', 'a']);
    expect(completed.map((s) => s.id)).toEqual(['d', 'c']);
  });

  it('is ready exactly at the start', () => {
    const s = session('a', '2026-12-01T15:00:00Z', 'scheduled');
    expect(hasStarted(s, Date.parse('2026-12-01T14:59:59.999Z'))).toBe(false);
    expect(hasStarted(s, Date.parse('2026-12-01T15:00:00Z'))).toBe(true);
  });

  it('shows slots as h:mm a in the zone and sends the local time, across a DST change', () => {
    expect(slotTime('2026-11-02T21:00:00Z', 'America/Toronto')).toBe('4:00 PM');
    expect(slotTime('2026-10-30T20:00:00Z', 'America/Toronto')).toBe('4:00 PM');
    expect(localDateTime('2026-11-02T21:00:00Z', 'America/Toronto')).toBe('2026-11-02T16:00');
    expect(localDateTime('2026-11-02T21:00:00Z', 'Asia/Kolkata')).toBe('2026-11-03T02:30');
  });

  it('offers today to 30 days ahead in the user’s zone', () => {
    const now = Temporal.Instant.from('2026-11-24T03:00:00Z');
    const range = rescheduleRange('America/Vancouver', now);
    expect(range).toEqual({ min: '2026-11-23', max: '2026-12-23' });
    expect(dateInRange('2026-11-22', range)).toBe(false);
    expect(dateInRange('2026-11-23', range)).toBe(true);
    expect(dateInRange('2026-12-23', range)).toBe(true);
    expect(dateInRange('2026-12-24', range)).toBe(false);
    expect(dateInRange('2026-02-30', { min: '2026-01-01', max: '2026-12-31' })).toBe(false);
  });

  it('says when the calendar was last written', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(lastSyncText(null, now, 'UTC')).toBe('Never');
    expect(lastSyncText('2026-11-24T11:59:30Z', now, 'UTC')).toBe('Just now');
    expect(lastSyncText('2026-11-24T11:59:00Z', now, 'UTC')).toBe('1 minute ago');
    expect(lastSyncText('2026-11-24T11:01:00Z', now, 'UTC')).toBe('59 minutes ago');
    expect(lastSyncText('2026-11-24T11:00:00Z', now, 'UTC')).toBe('1 hour ago');
    expect(lastSyncText('2026-11-23T12:00:01Z', now, 'UTC')).toBe('23 hours ago');
    expect(lastSyncText('2026-11-23T12:00:00Z', now, 'UTC')).toBe('Nov 23, 2026');
  });

  it('names the sync card’s state, failures first', () => {
    const s = { totalSessions: 3, syncedSessions: 1, failedSessions: 1, pendingSessions: 1, lastSyncTime: null };
    expect(syncState({ ...s, totalSessions: 0, syncedSessions: 0, failedSessions: 0, pendingSessions: 0 })).toBe('none');
    expect(syncState(s)).toBe('failed');
    expect(syncState({ ...s, failedSessions: 0, syncedSessions: 2 })).toBe('pending');
    expect(syncState({ ...s, failedSessions: 0, pendingSessions: 0, syncedSessions: 3 })).toBe('synced');
    // A session in no known state is not called synced.
    expect(syncState({ ...s, failedSessions: 0, pendingSessions: 0, syncedSessions: 2 })).toBe('failed');
  });
});
