import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/**
 * The calendar side of a session (stream `sessionCalendar-<sessionId>`): the event in the tutor's
 * calendar that holds it, its Meet link, and how the last attempt to keep it in step went. Kept
 * apart from the session's own stream so that a slow or failing calendar never contends with
 * booking, rescheduling or cancelling the session itself.
 *
 * `generation` counts the events that held the session and were deleted from the calendar by
 * someone else: Google refuses to create an event again under a deleted id, so the next one gets
 * a new id (derived from the session and the generation, so retries never make two).
 */
export const calendarSyncStatuses = ['pending', 'synced', 'failed', 'removed'] as const;
export type CalendarSyncStatus = (typeof calendarSyncStatuses)[number];

const ref = { sessionId: z.string(), tutorId: z.string() };

export const sessionCalendarEventWritten = z.object({
  ...ref,
  calendarEventId: z.string(),
  start: z.string(),
  end: z.string(),
  meetingLink: z.string().nullable(),
  at: z.string(),
});

export const sessionCalendarEventRemoved = z.object({ ...ref, calendarEventId: z.string(), at: z.string() });

/** The calendar could not be brought in step: the reason is the provider's, in words an admin can act on. */
export const sessionCalendarSyncFailed = z.object({
  ...ref,
  start: z.string(),
  reason: z.string(),
  message: z.string(),
  attempts: z.number().int(),
  at: z.string(),
});

/** The event was deleted in the calendar (by the tutor, in Google): the next sync writes a new one. */
export const sessionCalendarEventLost = z.object({ ...ref, calendarEventId: z.string(), at: z.string() });

/** The event was moved in the calendar to another time than the session's: flagged, not followed. */
export const sessionCalendarEventMoved = z.object({
  ...ref,
  calendarEventId: z.string(),
  sessionStart: z.string(),
  calendarStart: z.string(),
  at: z.string(),
});

/** The invitation (with the Meet link) was sent again to the student or parent. */
export const sessionInviteSent = z.object({ ...ref, calendarEventId: z.string(), meetingLink: z.string().nullable(), at: z.string() });

export const sessionCalendarEvents = {
  SessionCalendarEventWritten: eventType(sessionCalendarEventWritten, {
    describe: (d) => `Calendar event written for ${d.start}${d.meetingLink ? ' with a Meet link' : ''}`,
  }),
  SessionCalendarEventRemoved: eventType(sessionCalendarEventRemoved, { describe: () => 'Calendar event removed' }),
  SessionCalendarSyncFailed: eventType(sessionCalendarSyncFailed, {
    describe: (d) => `Calendar sync failed after ${d.attempts} attempt(s): ${d.reason}`,
  }),
  SessionCalendarEventLost: eventType(sessionCalendarEventLost, { describe: () => 'Calendar event deleted in the calendar' }),
  SessionCalendarEventMoved: eventType(sessionCalendarEventMoved, {
    describe: (d) => `Calendar event moved in the calendar to ${d.calendarStart} (session at ${d.sessionStart})`,
  }),
  SessionInviteSent: eventType(sessionInviteSent, { describe: () => 'Session invitation sent' }),
};
export type SessionCalendarEvent = EventsOf<typeof sessionCalendarEvents>;

export interface SessionCalendarState {
  calendarEventId: string | null;
  generation: number;
  status: CalendarSyncStatus;
  /** The start the calendar event shows (null before it exists). */
  syncedStart: string | null;
  meetingLink: string | null;
  /** The moved start already flagged, so the resync flags it once. */
  flaggedStart: string | null;
  failedStart: string | null;
}

export const initialSessionCalendarState: SessionCalendarState = {
  calendarEventId: null,
  generation: 0,
  status: 'pending',
  syncedStart: null,
  meetingLink: null,
  flaggedStart: null,
  failedStart: null,
};

export function evolveSessionCalendar(state: SessionCalendarState, event: SessionCalendarEvent): SessionCalendarState {
  switch (event.type) {
    case 'SessionCalendarEventWritten':
      return {
        ...state,
        calendarEventId: event.data.calendarEventId,
        status: 'synced',
        syncedStart: event.data.start,
        meetingLink: event.data.meetingLink,
        failedStart: null,
      };
    case 'SessionCalendarEventRemoved':
      return { ...state, status: 'removed' };
    case 'SessionCalendarSyncFailed':
      return { ...state, status: 'failed', failedStart: event.data.start };
    case 'SessionCalendarEventLost':
      return { ...state, calendarEventId: null, generation: state.generation + 1, status: 'pending', syncedStart: null, meetingLink: null };
    case 'SessionCalendarEventMoved':
      return { ...state, flaggedStart: event.data.calendarStart };
    case 'SessionInviteSent':
      return { ...state, meetingLink: event.data.meetingLink ?? state.meetingLink };
    default:
      return state;
  }
}

export const sessionCalendarStreamId = (sessionId: string) => `sessionCalendar-${sessionId}`;
