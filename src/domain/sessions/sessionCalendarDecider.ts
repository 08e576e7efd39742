import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import {
  evolveSessionCalendar,
  initialSessionCalendarState,
  type SessionCalendarEvent,
  type SessionCalendarState,
} from './sessionCalendar.ts';

/** Spec part 2 §2 (Send Invite's hint). */
export const NO_CALENDAR_EVENT = 'No calendar event found. Please reschedule to create one.';

type Ref = { sessionId: string; tutorId: string };
export type SessionCalendarCommand =
  | Command<'RecordCalendarEventWritten', Ref & { calendarEventId: string; start: string; end: string; meetingLink: string | null }>
  | Command<'RecordCalendarEventRemoved', Ref>
  | Command<'RecordCalendarSyncFailed', Ref & { start: string; reason: string; message: string; attempts: number }>
  | Command<'RecordCalendarEventLost', Ref & { calendarEventId: string }>
  | Command<'RecordCalendarEventMoved', Ref & { calendarEventId: string; sessionStart: string; calendarStart: string }>
  | Command<'RecordInviteSent', Ref & { meetingLink: string | null }>;

const same = (a: string | null, b: string) => a !== null && Date.parse(a) === Date.parse(b);

/**
 * What the calendar saga observed, recorded once: a write that changes nothing, a second removal,
 * a loss of an event that no longer holds the session, or a move already flagged add nothing.
 */
export const decideSessionCalendar = decideWith<SessionCalendarCommand, SessionCalendarEvent, SessionCalendarState>({
  RecordCalendarEventWritten: ({ data, metadata: { now } }, state) => {
    if (
      state.status === 'synced' &&
      state.calendarEventId === data.calendarEventId &&
      same(state.syncedStart, data.start) &&
      state.meetingLink === data.meetingLink
    )
      return [];
    return [{ type: 'SessionCalendarEventWritten', data: { ...data, at: now.toISOString() } }];
  },
  RecordCalendarEventRemoved: ({ data, metadata: { now } }, state) => {
    if (state.status === 'removed' || !state.calendarEventId) return [];
    return [
      {
        type: 'SessionCalendarEventRemoved',
        data: { sessionId: data.sessionId, tutorId: data.tutorId, calendarEventId: state.calendarEventId, at: now.toISOString() },
      },
    ];
  },
  RecordCalendarSyncFailed: ({ data, metadata: { now } }, state) => {
    if (state.status === 'failed' && same(state.failedStart, data.start)) return [];
    return [{ type: 'SessionCalendarSyncFailed', data: { ...data, at: now.toISOString() } }];
  },
  RecordCalendarEventLost: ({ data, metadata: { now } }, state) => {
    if (state.calendarEventId !== data.calendarEventId) return [];
    return [{ type: 'SessionCalendarEventLost', data: { ...data, at: now.toISOString() } }];
  },
  RecordCalendarEventMoved: ({ data, metadata: { now } }, state) => {
    if (state.calendarEventId !== data.calendarEventId || same(state.flaggedStart, data.calendarStart)) return [];
    return [{ type: 'SessionCalendarEventMoved', data: { ...data, at: now.toISOString() } }];
  },
  RecordInviteSent: ({ data, metadata: { now } }, state) => {
    if (!state.calendarEventId || state.status === 'removed') throw new DomainError(NO_CALENDAR_EVENT, 'conflict');
    return [
      {
        type: 'SessionInviteSent',
        data: { ...data, calendarEventId: state.calendarEventId, at: now.toISOString() },
      },
    ];
  },
});

export const sessionCalendarDecider: Decider<SessionCalendarCommand, SessionCalendarEvent, SessionCalendarState> = {
  initialState: initialSessionCalendarState,
  evolve: evolveSessionCalendar,
  decide: decideSessionCalendar,
};
