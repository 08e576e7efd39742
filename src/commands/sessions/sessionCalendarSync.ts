import {
  CalendarError,
  type CalendarEvent,
  calendarEventId,
  type EventInput,
  type TutorCalendar,
} from '../../adapters/calendar/calendarPort.ts';
import type { Clock } from '../../adapters/clock/clock.ts';
import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { SESSION_EVENT_PROPERTY } from '../../domain/calendar/calendarHours.ts';
import type { SessionState } from '../../domain/sessions/session.ts';
import type { SessionCalendarState } from '../../domain/sessions/sessionCalendar.ts';
import { commandContext, deterministicUuid } from '../kit/commandContext.ts';
import { type SessionCalendarHandlers, sessionCalendarHandlers } from './sessionCalendarHandlers.ts';
import { sessionHandlers } from './sessionHandlers.ts';
import { sessionPeople } from './sessionPeople.ts';

/**
 * Keeping a tutor's calendar in step with their sessions: the event of each session (with its
 * Meet link and the family invited), moved or deleted with it, recreated when someone deleted it
 * in the calendar, flagged when someone moved it there. Used by the calendar saga (after every
 * booking, move and cancellation, and every 5 minutes) and by the tutor's "sync now" and "send
 * invite" buttons.
 */

export interface SessionCalendarDeps {
  sql: Sql;
  store: EventStore;
  /** The tutor's calendar, watched for lost access (the tutors feature's openTutorCalendar). */
  openCalendar: (tutorId: string) => Promise<TutorCalendar>;
  /** Business time: what counts as upcoming, and the time every record is decided at. */
  clock: Clock;
}

/** The session and its calendar side as their streams hold them now (the handlers' load reads afresh). */
const sessionOf = (store: EventStore, sessionId: string): Promise<SessionState> => sessionHandlers(store).sessions.load(sessionId);
const calendarSideOf = (store: EventStore, sessionId: string): Promise<SessionCalendarState> =>
  sessionCalendarHandlers(store).calendars.load(sessionId);

/** The id of the calendar event holding a session: a retry finds the same event, a recreated one gets a new id. */
export const sessionEventIdOf = (sessionId: string, generation: number) =>
  calendarEventId('topmark-session', sessionId, String(generation));
const meetRequestIdOf = (sessionId: string, generation: number) =>
  `tm-${calendarEventId('meet', sessionId, String(generation)).slice(0, 40)}`;

/** Failures a retry cannot mend: the tutor must act (share the calendar with writer access, authorise again). */
const needsTheTutor = (error: unknown) =>
  error instanceof CalendarError && (error.needsReauthorisation || ['not_connected', 'forbidden', 'invalid'].includes(error.reason));

/** Words for the sync card and the alert (spec part 2 §8: the permission messages). */
export function calendarFailureMessage(error: unknown): string {
  if (!(error instanceof CalendarError)) return error instanceof Error ? error.message : String(error);
  switch (error.reason) {
    case 'forbidden':
      return 'Calendar Permission Error: the tutor must share their calendar with writer access ("Make changes to events").';
    case 'not_found':
      return 'Calendar Access Denied: the calendar was not found or is not shared with Topmark.';
    case 'not_connected':
    case 'invalid_grant':
    case 'unauthenticated':
      return 'Calendar Access Denied: the tutor must connect Google Calendar again from their dashboard.';
    case 'rate_limited':
      return 'Google Calendar asked us to slow down; the sync is retried.';
    case 'unavailable':
      return 'Google Calendar did not answer; the sync is retried.';
    default:
      return error.message;
  }
}

async function eventInput(deps: SessionCalendarDeps, session: SessionState, generation: number): Promise<EventInput> {
  const booked = session.booked as NonNullable<SessionState['booked']>;
  const { family } = await sessionPeople(deps.sql, booked);
  return {
    summary: `${booked.subjectName} — Topmark session`,
    description: `${booked.notes}\n\nBooked through Topmark. Join with the Google Meet link of this event.`,
    start: { dateTime: session.start as string, timeZone: booked.tutorTimeZone },
    end: { dateTime: session.end as string, timeZone: booked.tutorTimeZone },
    transparency: 'opaque',
    attendees: family ? [{ email: family.email, displayName: `${family.first_name} ${family.last_name}`.trim() }] : [],
    conference: { requestId: meetRequestIdOf(booked.sessionId, generation) },
    privateProperties: { [SESSION_EVENT_PROPERTY]: booked.sessionId },
  };
}

export type SyncOutcome = 'written' | 'removed' | 'unchanged' | 'failed';

/**
 * Brings the tutor's calendar in step with one session: creates its event (with a Meet link and
 * the family invited), moves it when the session moved, deletes it when the session was
 * cancelled, and records what it did on the session's calendar stream. Safe to run again at any
 * point: every write is keyed by the session (event id, conference request id, command ids).
 * Failures a retry cannot mend, and the last retry of the others, are recorded as failed (an
 * alert; "failed" in the sync card).
 */
export async function syncSessionCalendar(
  deps: SessionCalendarDeps,
  sessionId: string,
  attempt: { retryCount: number; retryLimit: number } = { retryCount: 0, retryLimit: 0 },
): Promise<SyncOutcome> {
  const session = await sessionOf(deps.store, sessionId);
  if (!session.booked) return 'unchanged';
  const side = await calendarSideOf(deps.store, sessionId);
  const { calendars } = sessionCalendarHandlers(deps.store);
  const ref = { sessionId, tutorId: session.booked.tutorId };
  const ctx = (what: string) =>
    commandContext({ actorRole: 'system', commandId: deterministicUuid(`session-calendar/${sessionId}/${what}`), now: deps.clock.now() });

  const wanted = session.status === 'cancelled' ? 'absent' : session.status === 'completed' ? 'kept' : 'present';
  if (wanted === 'kept') return 'unchanged';
  if (wanted === 'absent' && (!side.calendarEventId || side.status === 'removed')) return 'unchanged';
  if (wanted === 'present' && side.status === 'synced' && side.syncedStart === session.start) return 'unchanged';

  try {
    const calendar = await deps.openCalendar(session.booked.tutorId);
    if (wanted === 'absent') {
      await calendar.deleteEvent(side.calendarEventId as string, { sendUpdates: 'all' });
      await calendars.handle(sessionId, { type: 'RecordCalendarEventRemoved', data: ref }, ctx(`removed/${side.calendarEventId}`));
      return 'removed';
    }
    const written = await writeSessionEvent(deps, calendar, session, side, calendars);
    await calendars.handle(
      sessionId,
      {
        type: 'RecordCalendarEventWritten',
        data: {
          ...ref,
          calendarEventId: written.id,
          start: session.start as string,
          end: session.end as string,
          meetingLink: written.meetingLink,
        },
      },
      ctx(`written/${written.id}/${session.start}/${written.meetingLink ?? ''}`),
    );
    return 'written';
  } catch (error) {
    const last = attempt.retryCount >= attempt.retryLimit;
    if (!needsTheTutor(error) && !last) throw error;
    await calendars.handle(
      sessionId,
      {
        type: 'RecordCalendarSyncFailed',
        data: {
          ...ref,
          start: session.start as string,
          reason: error instanceof CalendarError ? error.reason : 'error',
          message: calendarFailureMessage(error),
          attempts: attempt.retryCount + 1,
        },
      },
      ctx(`failed/${session.start}/${attempt.retryCount}`),
    );
    return 'failed';
  }
}

/** Creates the session's event, or moves it; an event deleted in the calendar is recorded lost and made again under a new id. */
async function writeSessionEvent(
  deps: SessionCalendarDeps,
  calendar: TutorCalendar,
  session: SessionState,
  side: SessionCalendarState,
  calendars: SessionCalendarHandlers['calendars'],
): Promise<CalendarEvent> {
  const sessionId = (session.booked as NonNullable<SessionState['booked']>).sessionId;
  const tutorId = (session.booked as NonNullable<SessionState['booked']>).tutorId;
  let generation = side.generation;
  for (let tries = 0; tries < 3; tries++) {
    const id = sessionEventIdOf(sessionId, generation);
    const input = await eventInput(deps, session, generation);
    try {
      if (side.calendarEventId === id) {
        return await calendar.updateEvent(id, { start: input.start, end: input.end, conference: input.conference }, { sendUpdates: 'all' });
      }
      return await calendar.createEvent(id, input, { sendUpdates: 'all' });
    } catch (error) {
      // Deleted in the calendar by someone else: Google keeps the id, so the next event needs a new one.
      if (!(error instanceof CalendarError) || (error.reason !== 'conflict' && error.reason !== 'not_found')) throw error;
      await calendars.handle(
        sessionId,
        { type: 'RecordCalendarEventLost', data: { sessionId, tutorId, calendarEventId: id } },
        commandContext({
          actorRole: 'system',
          commandId: deterministicUuid(`session-calendar/${sessionId}/lost/${id}`),
          now: deps.clock.now(),
        }),
      );
      generation += 1;
      side = { ...side, calendarEventId: null, generation };
    }
  }
  throw new CalendarError('conflict', 'The calendar refused the session event three times');
}

/** Sends the invitation again (spec: Send Invite), asking for a Meet link if the event has none. */
export async function sendSessionInvite(deps: SessionCalendarDeps, sessionId: string, ctxCommandId: string): Promise<string | null> {
  const session = await sessionOf(deps.store, sessionId);
  const side = await calendarSideOf(deps.store, sessionId);
  const { calendars } = sessionCalendarHandlers(deps.store);
  if (!session.booked) return null;
  const ref = { sessionId, tutorId: session.booked.tutorId };
  let meetingLink = side.meetingLink;
  if (side.calendarEventId && side.status !== 'removed') {
    const calendar = await deps.openCalendar(session.booked.tutorId);
    const input = await eventInput(deps, session, side.generation);
    const updated = await calendar.updateEvent(
      side.calendarEventId,
      { attendees: input.attendees ?? [], conference: input.conference },
      { sendUpdates: 'all' },
    );
    meetingLink = updated.meetingLink;
  }
  // Refused (409, the spec's hint) when there is no event to invite to.
  await calendars.handle(
    sessionId,
    { type: 'RecordInviteSent', data: { ...ref, meetingLink } },
    commandContext({ commandId: ctxCommandId, now: deps.clock.now() }),
  );
  return meetingLink;
}

/**
 * One tutor's upcoming sessions against their calendar: syncs what is pending or failed, recreates
 * events deleted in the calendar, flags events moved there. Returns what changed and what failed.
 */
export async function resyncTutorCalendar(
  deps: SessionCalendarDeps,
  tutorId: string,
  now: Date = deps.clock.now(),
): Promise<{ updatedSessions: number; errors: { sessionId: string; message: string }[] }> {
  const upcoming = await deps.sql<{ id: string }[]>`
    SELECT id FROM sessions WHERE tutor_id = ${tutorId} AND status = 'scheduled' AND end_at > ${now} ORDER BY start_at LIMIT 500`;
  let updatedSessions = 0;
  const errors: { sessionId: string; message: string }[] = [];
  let calendar: TutorCalendar | null = null;
  for (const { id } of upcoming) {
    try {
      const side = await calendarSideOf(deps.store, id);
      if (side.status === 'synced' && side.calendarEventId) {
        calendar ??= await deps.openCalendar(tutorId);
        const drift = await driftOf(deps, calendar, id, side);
        if (drift === 'lost') updatedSessions += (await syncSessionCalendar(deps, id)) === 'written' ? 1 : 0;
        continue;
      }
      const outcome = await syncSessionCalendar(deps, id);
      if (outcome === 'written' || outcome === 'removed') updatedSessions++;
      if (outcome === 'failed') {
        const failed = await calendarSideOf(deps.store, id);
        errors.push({ sessionId: id, message: failed.status === 'failed' ? 'Calendar sync failed' : 'Not synced' });
      }
    } catch (error) {
      errors.push({ sessionId: id, message: calendarFailureMessage(error) });
    }
  }
  return { updatedSessions, errors };
}

/** Compares the calendar's event with the session: deleted there → recorded lost; moved there → flagged. */
async function driftOf(
  deps: SessionCalendarDeps,
  calendar: TutorCalendar,
  sessionId: string,
  side: SessionCalendarState,
): Promise<'lost' | 'moved' | 'none'> {
  const eventId = side.calendarEventId as string;
  const found = await calendar.getEvent(eventId);
  const { calendars } = sessionCalendarHandlers(deps.store);
  const session = await sessionOf(deps.store, sessionId);
  const tutorId = session.booked?.tutorId as string;
  if (!found || found.status === 'cancelled') {
    await calendars.handle(
      sessionId,
      { type: 'RecordCalendarEventLost', data: { sessionId, tutorId, calendarEventId: eventId } },
      commandContext({
        actorRole: 'system',
        commandId: deterministicUuid(`session-calendar/${sessionId}/lost/${eventId}`),
        now: deps.clock.now(),
      }),
    );
    return 'lost';
  }
  const calendarStart = 'dateTime' in found.start ? found.start.dateTime : null;
  if (calendarStart && session.start && Date.parse(calendarStart) !== Date.parse(session.start)) {
    await calendars.handle(
      sessionId,
      {
        type: 'RecordCalendarEventMoved',
        data: {
          sessionId,
          tutorId,
          calendarEventId: eventId,
          sessionStart: session.start,
          calendarStart: new Date(calendarStart).toISOString(),
        },
      },
      commandContext({
        actorRole: 'system',
        commandId: deterministicUuid(`session-calendar/${sessionId}/moved/${calendarStart}`),
        now: deps.clock.now(),
      }),
    );
    return 'moved';
  }
  return 'none';
}

/** Every 5 minutes: each tutor with upcoming sessions, one after another. */
export async function resyncAllCalendars(deps: SessionCalendarDeps, now: Date = deps.clock.now()): Promise<void> {
  const tutors = await deps.sql<{ tutor_id: string }[]>`
    SELECT DISTINCT tutor_id FROM sessions WHERE status = 'scheduled' AND end_at > ${now}`;
  for (const { tutor_id } of tutors) await resyncTutorCalendar(deps, tutor_id, now);
}
