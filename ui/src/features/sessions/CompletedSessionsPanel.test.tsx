import type { StudentSession } from '@shared/students/studentApi.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type Review, reviewKeys } from '../reviews/api.ts';
import { CompletedSessionsPanel } from './StudentAreaSessions.tsx';

const session = (day: number, status: string, notes: string | null): StudentSession => ({
  id: `s-${day}`,
  date: `2026-11-${String(day).padStart(2, '0')}T21:00:00.000Z`,
  duration: 60,
  status,
  subject: { id: 'calc', name: 'Calculus (Grade 11-12)' },
  tutor: { firstName: 'Maya', lastName: 'Okafor' },
  meetingLink: null,
  notes,
  courseId: 'c-1',
});

const render = (sessions: StudentSession[], reviews?: Review[]) => {
  const client = new QueryClient();
  // The family's reviews as the server gave them: the panel offers a rating on each completed session.
  if (reviews) client.setQueryData(reviewKeys.student('st-1'), reviews);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <CompletedSessionsPanel sessions={sessions} zone="America/Toronto" studentName="Sam" studentId={reviews ? 'st-1' : undefined} />
    </QueryClientProvider>,
  );
};

const review = (sessionId: string, rating: number, reviewedAt: string): Review => ({
  sessionId,
  tutorId: 't-1',
  studentId: 'st-1',
  rating,
  comment: null,
  reviewedAt,
  editedAt: null,
  editableUntil: new Date(Date.parse(reviewedAt) + 7 * 86_400_000).toISOString(),
  hidden: false,
  hiddenReason: null,
  hiddenAt: null,
  studentName: null,
  sessionStart: null,
  subjectName: null,
  tutorName: null,
});

describe("the parent dashboard's completed sessions", () => {
  it('shows the latest three completed sessions, newest first, with the tutor’s report', () => {
    const html = render([
      session(2, 'completed', 'Limits: solid.'),
      session(9, 'completed', 'Derivatives: practise the chain rule.'),
      session(5, 'completed', null),
      session(12, 'completed', 'Integrals started.'),
      session(20, 'scheduled', 'booking note, not a report'),
      session(15, 'cancelled', null),
    ]);
    expect(html).toContain('Sam&#x27;s completed sessions');
    expect(html).toContain('(latest 3)');
    const reports = ['Integrals started.', 'Derivatives: practise the chain rule.', 'No report was written for this session.'];
    const at = reports.map((text) => html.indexOf(text));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(html).not.toContain('Limits: solid.');
    expect(html).not.toContain('booking note');
    expect(html).toContain('Maya Okafor');
  });

  it('says so when nothing is completed yet', () => {
    const html = render([session(20, 'scheduled', null)]);
    expect(html).toContain('No completed sessions yet.');
    expect(html).not.toContain('(latest');
  });

  it('offers "Rate this session" on an unrated session and shows the stars of a rated one, editable for 7 days', () => {
    const now = new Date().toISOString();
    const html = render(
      [session(2, 'completed', 'Limits: solid.'), session(9, 'completed', 'Chain rule.'), session(12, 'completed', 'Integrals.')],
      [review('s-9', 4, now), review('s-2', 5, '2026-01-01T00:00:00.000Z')],
    );
    expect(html.match(/Rate this session/g)).toHaveLength(1);
    expect(html).toContain('Rated 4 out of 5');
    expect(html).toContain('Rated 5 out of 5');
    // Only the review still within its week can be edited.
    expect(html.match(/Edit review/g)).toHaveLength(1);
  });

  it('offers no rating without the student (a view that cannot rate)', () => {
    expect(render([session(2, 'completed', 'Limits: solid.')])).not.toContain('Rate this session');
  });
});
