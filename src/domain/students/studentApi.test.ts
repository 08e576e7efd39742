import { describe, expect, it } from 'vitest';
import { courseSessionCounts, isUpcoming, RECENT_SESSIONS, recentSessions, type StudentSession, sortSessions } from './studentApi.ts';

const session = (id: string, date: string, status: string, courseId: string | null = 'c1'): StudentSession => ({
  id,
  date,
  duration: 60,
  status,
  subject: null,
  tutor: null,
  meetingLink: null,
  notes: null,
  courseId,
});

describe('student sessions as the student area shows them', () => {
  const sessions = [
    session('done-old', '2026-11-01T15:00:00.000Z', 'completed'),
    session('done-new', '2026-11-10T15:00:00.000Z', 'completed'),
    session('next-late', '2026-12-20T15:00:00.000Z', 'scheduled'),
    session('next-soon', '2026-12-02T15:00:00.000Z', 'pending'),
    session('gone', '2026-12-05T15:00:00.000Z', 'cancelled'),
    session('other', '2026-12-06T15:00:00.000Z', 'approved', 'c2'),
  ];

  it('upcoming is every session not completed nor cancelled, oldest first; completed newest first', () => {
    const { upcoming, completed } = sortSessions(sessions);
    expect(upcoming.map((s) => s.id)).toEqual(['next-soon', 'other', 'next-late']);
    expect(completed.map((s) => s.id)).toEqual(['done-new', 'done-old']);
    expect(isUpcoming({ status: 'canceled' })).toBe(false);
  });

  it('counts a course’s completed and upcoming sessions and never shows negative credits', () => {
    expect(courseSessionCounts({ id: 'c1', sessionsRemaining: 3 }, sessions)).toEqual({ completed: 2, upcoming: 2, remaining: 3 });
    expect(courseSessionCounts({ id: 'c3', sessionsRemaining: -1 }, sessions)).toEqual({ completed: 0, upcoming: 0, remaining: 0 });
  });

  it('the recent sessions are the five latest by start, newest first, without cancelled ones', () => {
    expect(RECENT_SESSIONS).toBe(5);
    expect(recentSessions(sessions).map((s) => s.id)).toEqual(['next-late', 'other', 'next-soon', 'done-new', 'done-old']);
  });
});
