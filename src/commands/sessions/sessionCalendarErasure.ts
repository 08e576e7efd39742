import { CalendarError, type EventInput, type TutorCalendar } from '../../adapters/calendar/calendarPort.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { deterministicUuid } from '../kit/commandContext.ts';
import { sessionCalendarHandlers } from './sessionCalendarHandlers.ts';
import { sessionEventIdOf } from './sessionCalendarSync.ts';
import { sessionHandlers } from './sessionHandlers.ts';

/**
 * An erased person leaves the calendar events of their sessions (issue 23 §4): the calendar is a
 * network call that may fail for minutes, so the account deletion workflow hands each session to a
 * job on this queue (pg-boss retries it with backoff) rather than calling the calendar itself.
 */
export const SESSION_CALENDAR_ERASURE_QUEUE = 'session-calendar-erasure';
export const CALENDAR_ERASURE_RETRY_LIMIT = 8;

export interface SessionCalendarErasureJob {
  sessionId: string;
}

/** One job per (workflow step): the same step run again enqueues nothing new. */
export const calendarErasureJob = (sessionId: string, stepCommandId: string) => ({
  queue: SESSION_CALENDAR_ERASURE_QUEUE,
  id: deterministicUuid(`${stepCommandId}/session-calendar-erasure`),
  data: { sessionId } satisfies SessionCalendarErasureJob,
});

/** What is left of a session's event once its family is erased: nothing about them. */
export const ERASED_EVENT_DESCRIPTION = 'Booked through Topmark. The student’s details were erased at their request.';

export interface SessionCalendarErasureDeps {
  store: EventStore;
  openCalendar: (tutorId: string) => Promise<TutorCalendar>;
}

/**
 * Removes the family from every event that ever held the session (each generation: an event deleted
 * by someone else was replaced under a new id): the attendee, their name and the booking's notes go
 * (`sendUpdates: none`: nobody is mailed about it). A cancelled session's event is deleted as well;
 * a past one stays in the tutor's calendar without them. Safe to run any number of times and in any
 * order with the calendar saga's own writes: both only ever take the person out.
 */
export async function eraseSessionCalendar(deps: SessionCalendarErasureDeps, sessionId: string): Promise<number> {
  const session = await sessionHandlers(deps.store).sessions.load(sessionId);
  if (!session.booked) return 0;
  const side = await sessionCalendarHandlers(deps.store).calendars.load(sessionId);
  // Nothing was ever written for it: nothing to take out (a write still pending finds the family gone).
  if (!side.calendarEventId && side.generation === 0 && side.status === 'pending') return 0;
  const calendar = await deps.openCalendar(session.booked.tutorId);
  const scrub: Partial<EventInput> = {
    summary: `${session.booked.subjectName} — Topmark session`,
    description: ERASED_EVENT_DESCRIPTION,
    attendees: [],
  };
  let touched = 0;
  for (let generation = 0; generation <= side.generation; generation++) {
    const id = sessionEventIdOf(sessionId, generation);
    let present = true;
    try {
      await calendar.updateEvent(id, scrub, { sendUpdates: 'none' });
    } catch (error) {
      // Deleted already (Google still applied the patch to its cancelled copy) or never made.
      if (!(error instanceof CalendarError) || error.reason !== 'not_found') throw error;
      present = false;
    }
    // A deleted event is deleted again: the sandbox then clears what its cancelled row still held.
    if (session.status === 'cancelled' || !present) await calendar.deleteEvent(id, { sendUpdates: 'none' });
    touched++;
  }
  return touched;
}
