import { describe, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { NO_CALENDAR_EVENT, sessionCalendarDecider } from './sessionCalendarDecider.ts';

const now = new Date('2026-11-23T12:00:00.000Z');
const at = now.toISOString();
const metadata = { now, actorRole: 'system' };
const ref = { sessionId: 's1', tutorId: 't1' };
const start = '2026-12-01T15:00:00.000Z';
const end = '2026-12-01T16:00:00.000Z';
const written = {
  type: 'SessionCalendarEventWritten' as const,
  data: { ...ref, calendarEventId: 'e0', start, end, meetingLink: 'https://meet.google.com/abc-defg-hij', at },
};

describe('the calendar side of a session', () => {
  const spec = deciderSpec(sessionCalendarDecider);

  it('records a written event once; a move or a new link is recorded again', () => {
    const write = (data: Partial<typeof written.data>) => ({
      type: 'RecordCalendarEventWritten' as const,
      data: { ...ref, calendarEventId: 'e0', start, end, meetingLink: written.data.meetingLink, ...data },
      metadata,
    });
    spec.given([]).when(write({})).thenEvents([written]);
    spec
      .given([written])
      .when(write({ start: '2026-12-01T10:00:00-05:00' }))
      .thenNothing();
    const moved = { start: '2026-12-02T15:00:00.000Z', end: '2026-12-02T16:00:00.000Z' };
    spec
      .given([written])
      .when(write(moved))
      .thenEvents([{ ...written, data: { ...written.data, ...moved } }]);
  });

  it('removes the event once, and only one that exists', () => {
    const remove = { type: 'RecordCalendarEventRemoved' as const, data: ref, metadata };
    spec.given([]).when(remove).thenNothing();
    const removed = { type: 'SessionCalendarEventRemoved' as const, data: { ...ref, calendarEventId: 'e0', at } };
    spec.given([written]).when(remove).thenEvents([removed]);
    spec.given([written, removed]).when(remove).thenNothing();
  });

  it('records a failure once per start, and a success after it', () => {
    const fail = {
      type: 'RecordCalendarSyncFailed' as const,
      data: { ...ref, start, reason: 'forbidden', message: 'No writer access', attempts: 1 },
      metadata,
    };
    const failed = { type: 'SessionCalendarSyncFailed' as const, data: { ...fail.data, at } };
    spec.given([]).when(fail).thenEvents([failed]);
    spec.given([failed]).when(fail).thenNothing();
    spec
      .given([failed])
      .when({ type: 'RecordCalendarEventWritten', data: { ...ref, calendarEventId: 'e0', start, end, meetingLink: null }, metadata })
      .thenEvents([{ ...written, data: { ...written.data, meetingLink: null } }]);
  });

  it('a lost event counts only for the event that holds the session; a move is flagged once', () => {
    spec
      .given([written])
      .when({ type: 'RecordCalendarEventLost', data: { ...ref, calendarEventId: 'other' }, metadata })
      .thenNothing();
    spec
      .given([written])
      .when({ type: 'RecordCalendarEventLost', data: { ...ref, calendarEventId: 'e0' }, metadata })
      .thenEvents([{ type: 'SessionCalendarEventLost', data: { ...ref, calendarEventId: 'e0', at } }]);
    const move = {
      type: 'RecordCalendarEventMoved' as const,
      data: { ...ref, calendarEventId: 'e0', sessionStart: start, calendarStart: '2026-12-01T17:00:00.000Z' },
      metadata,
    };
    const flagged = { type: 'SessionCalendarEventMoved' as const, data: { ...move.data, at } };
    spec.given([written]).when(move).thenEvents([flagged]);
    spec.given([written, flagged]).when(move).thenNothing();
  });

  it('sends an invitation only for an event that exists', () => {
    const invite = { type: 'RecordInviteSent' as const, data: { ...ref, meetingLink: 'https://meet.google.com/x' }, metadata };
    spec.given([]).when(invite).thenThrows(NO_CALENDAR_EVENT, 'conflict');
    spec
      .given([written])
      .when(invite)
      .thenEvents([{ type: 'SessionInviteSent', data: { ...ref, calendarEventId: 'e0', meetingLink: 'https://meet.google.com/x', at } }]);
  });
});
