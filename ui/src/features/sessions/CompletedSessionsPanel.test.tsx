import type { StudentSession } from '@shared/students/studentApi.ts';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
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

const render = (sessions: StudentSession[]) =>
  renderToStaticMarkup(<CompletedSessionsPanel sessions={sessions} zone="America/Toronto" studentName="Sam" />);

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
});
