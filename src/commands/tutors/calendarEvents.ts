import {
  type CalendarEvent,
  type EventInput,
  isValidEventId,
  splitInstanceId,
  type TutorCalendar,
} from '../../adapters/calendar/calendarPort.ts';
import { isSessionEvent } from '../../domain/calendar/calendarHours.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import {
  type CalendarEventAnswer,
  type CalendarEventBody,
  type CalendarEventPatch,
  calendarEventAnswer,
  eventProblem,
  InvalidCalendarEventError,
} from '../../domain/tutors/calendarEventsApi.ts';

/**
 * The tutor's own calendar events through the calendar port, as Google's events API treats them:
 * a series id names the series, an instance id (`<series>_<UTC start>`) one occurrence — changing
 * it makes it an exception of the series, deleting it a cancelled exception (the calendar contract
 * holds both adapters to this). Each calendar is its owner's alone (the port
 * opens the tutor's own), so another tutor's id is simply not found. The events Topmark wrote
 * for sessions are read-only here: only Topmark moves a session.
 */

export const EVENT_NOT_FOUND = 'Event not found';
export const SESSION_EVENTS_ARE_READ_ONLY = 'This is a booked session: reschedule or cancel it from your sessions';
export const OCCURRENCE_CANNOT_REPEAT = 'One occurrence cannot repeat on its own: change its series instead';

const notFound = () => new DomainError(EVENT_NOT_FOUND, 'not_found');

/** The event (not cancelled) an id names, or a 404; ids no calendar could hold are not looked up. */
async function existing(calendar: TutorCalendar, id: string): Promise<CalendarEvent> {
  if (!isValidEventId(id) && !splitInstanceId(id)) throw notFound();
  const event = await calendar.getEvent(id);
  if (!event || event.status === 'cancelled') throw notFound();
  return event;
}

function assertWritable(event: CalendarEvent): void {
  if (isSessionEvent(event)) throw new DomainError(SESSION_EVENTS_ARE_READ_ONLY, 'conflict');
}

/** Events ending after `from` and starting before `to`: a series as its occurrences (`singleEvents`), or once as its master. */
export async function listCalendarEvents(
  calendar: TutorCalendar,
  window: { from: string; to: string; singleEvents: boolean },
): Promise<CalendarEventAnswer[]> {
  const events = await calendar.listEvents({ from: window.from, to: window.to, expand: window.singleEvents });
  return events.filter((e) => e.status !== 'cancelled').map(calendarEventAnswer);
}

export async function readCalendarEvent(calendar: TutorCalendar, id: string): Promise<CalendarEventAnswer> {
  return calendarEventAnswer(await existing(calendar, id));
}

/** Creates the event under `id` (derive it from the request, so a retry answers the same event). */
export async function createCalendarEvent(calendar: TutorCalendar, id: string, body: CalendarEventBody): Promise<CalendarEventAnswer> {
  const input: EventInput = {
    summary: body.summary,
    description: body.description ?? null,
    start: body.start,
    end: body.end,
    recurrence: body.recurrence?.length ? body.recurrence : null,
    transparency: body.transparency ?? 'opaque',
    status: body.status ?? 'confirmed',
  };
  return calendarEventAnswer(await calendar.createEvent(id, input));
}

/**
 * Changes what `id` names — an event, a series, or one occurrence — with the fields given; the
 * result must keep the rules of a new event. `status: "cancelled"` deletes it (an occurrence:
 * that one only) and answers it cancelled, as Google does.
 */
export async function changeCalendarEvent(calendar: TutorCalendar, id: string, patch: CalendarEventPatch): Promise<CalendarEventAnswer> {
  const event = await existing(calendar, id);
  assertWritable(event);
  if (patch.status === 'cancelled') {
    await calendar.deleteEvent(id);
    return calendarEventAnswer({ ...event, status: 'cancelled' });
  }
  const occurrence = event.recurringEventId !== null;
  if (occurrence && patch.recurrence?.length)
    throw new InvalidCalendarEventError({ field: 'recurrence', message: OCCURRENCE_CANNOT_REPEAT });
  const recurrence = occurrence || patch.recurrence === undefined ? event.recurrence : patch.recurrence;
  const problem = eventProblem({ start: patch.start ?? event.start, end: patch.end ?? event.end, recurrence });
  if (problem) throw new InvalidCalendarEventError(problem);
  const change: Partial<EventInput> = {};
  if (patch.summary !== undefined) change.summary = patch.summary;
  if (patch.description !== undefined) change.description = patch.description;
  if (patch.start !== undefined) change.start = patch.start;
  if (patch.end !== undefined) change.end = patch.end;
  if (patch.recurrence !== undefined && !occurrence) change.recurrence = patch.recurrence ?? [];
  if (patch.transparency !== undefined) change.transparency = patch.transparency;
  if (patch.status !== undefined) change.status = patch.status;
  return calendarEventAnswer(await calendar.updateEvent(id, change));
}

/** Deletes an event, a whole series (its changed occurrences too), or one occurrence. */
export async function deleteCalendarEvent(calendar: TutorCalendar, id: string): Promise<void> {
  assertWritable(await existing(calendar, id));
  await calendar.deleteEvent(id);
}
