import { Temporal } from 'temporal-polyfill';
import {
  CalendarError,
  type CalendarEvent,
  type CalendarPort,
  type CalendarStatus,
  type CalendarTarget,
  calendarEventId,
  type EventInput,
  type OAuthTokens,
  type TutorCalendar,
  type WatchableCalendar,
} from '../../adapters/calendar/calendarPort.ts';
import type { Clock } from '../../adapters/clock/clock.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { ERASED } from '../../adapters/personalData/personalDataVault.ts';
import { type UserEvent, userStreamId } from '../../domain/accounts/user.ts';
import { userDecider } from '../../domain/accounts/userDecider.ts';
import {
  isTopmarkHours,
  recurringEventsToWeeklyHours,
  TOPMARK_HOURS_PROPERTY,
  type WeeklyHours,
  weeklyHoursToRecurringEvents,
  type ZonedWeeklyHours,
} from '../../domain/calendar/availability.ts';
import { isHoursEvent } from '../../domain/calendar/calendarHours.ts';
import type { TutorEvent, TutorState } from '../../domain/tutors/tutor.ts';
import { tutorStreamId } from '../../domain/tutors/tutor.ts';
import { commandContext } from '../kit/commandContext.ts';
import { commandHandler, toDomainEvent } from '../kit/handleCommand.ts';
import { tutorHandlers } from './tutorHandlers.ts';

/**
 * A tutor's calendar as the tutors feature reaches it: the target built from the tutor's account
 * (sandbox: the tutor's own calendar; Google: the tutor's sealed OAuth tokens, or the calendar they
 * shared with the service account), refreshed tokens recorded sealed on the user stream, and a lost
 * or restored grant recorded on the tutor stream (the lost one raises an alert).
 */
export interface TutorCalendarDeps {
  store: EventStore;
  calendar: CalendarPort;
  /** Business time of what is recorded and of the hours' window: the system's clock. */
  clock: Clock;
}

const nowOf = (deps: TutorCalendarDeps): Date => deps.clock.now();

const opened = (value: string | null) => (value === null || value === ERASED ? null : value);

/** The tutor's address and newest Google tokens, read (opened) from the user stream. */
export interface GoogleAccount {
  email: string | null;
  tokens: OAuthTokens | null;
}

export async function googleAccountOf(store: EventStore, userId: string): Promise<GoogleAccount> {
  const events = (await store.readStream(userStreamId(userId))).map((e) => toDomainEvent<UserEvent>(e));
  let email: string | null = null;
  let tokens: OAuthTokens | null = null;
  let refreshToken: string | null = null;
  for (const event of events) {
    switch (event.type) {
      case 'UserRegistered':
        email = opened(event.data.email);
        break;
      case 'GoogleAccountLinked':
      case 'GoogleTokensRefreshed': {
        // A later consent may come without a refresh token: the one granted before still works.
        refreshToken = opened(event.data.refreshToken) ?? refreshToken;
        const expiry = event.data.tokenExpiry;
        tokens = { accessToken: opened(event.data.accessToken), refreshToken, expiresAt: expiry ? new Date(expiry) : null };
        break;
      }
      case 'AccountDeleted':
        return { email: null, tokens: null };
      default:
        break;
    }
  }
  const usable = tokens && (tokens.accessToken || tokens.refreshToken) ? tokens : null;
  return { email, tokens: usable };
}

/** How to reach the tutor's calendar; `hasCredentials` is false when Google has nothing to use (re-authorise). */
export async function tutorCalendarTarget(
  deps: TutorCalendarDeps,
  tutorId: string,
  userId: string = tutorId,
): Promise<{ target: CalendarTarget; hasCredentials: boolean }> {
  if (deps.calendar.kind === 'sandbox') {
    return { target: { ownerId: tutorId, calendarId: 'primary', credentials: { kind: 'none' } }, hasCredentials: true };
  }
  const account = await googleAccountOf(deps.store, userId);
  if (account.tokens) {
    const users = commandHandler(deps.store, userDecider, userStreamId);
    const onTokensRefreshed = async (tokens: OAuthTokens) => {
      await users.handle(
        userId,
        {
          type: 'RecordGoogleTokensRefreshed',
          data: {
            userId,
            accessToken: tokens.accessToken,
            refreshToken: tokens.refreshToken,
            tokenExpiry: tokens.expiresAt?.toISOString() ?? null,
          },
        },
        commandContext({ now: nowOf(deps) }),
      );
    };
    return {
      target: { ownerId: tutorId, calendarId: 'primary', credentials: { kind: 'oauth', tokens: account.tokens, onTokensRefreshed } },
      hasCredentials: true,
    };
  }
  if (deps.calendar.serviceAccountEmail && account.email) {
    return { target: { ownerId: tutorId, calendarId: account.email, credentials: { kind: 'serviceAccount' } }, hasCredentials: true };
  }
  return { target: { ownerId: tutorId, calendarId: 'primary', credentials: { kind: 'none' } }, hasCredentials: false };
}

const needsReauthorisation = (reason: string | null) => reason === 'invalid_grant' || reason === 'unauthenticated';

export interface OpenedTutorCalendar {
  calendar: TutorCalendar;
  tutor: TutorState;
  /** False on Google when there are no tokens and no shared calendar: the tutor must sign in with Google. */
  hasCredentials: boolean;
}

/**
 * The tutor's calendar, watched: a refused grant (`invalid_grant`, `unauthenticated`) records
 * `TutorCalendarAccessLost` (an alert), and the first success after one records
 * `TutorCalendarAccessRestored` (the alert is resolved). Recording never hides the call's outcome.
 */
export async function openTutorCalendar(deps: TutorCalendarDeps, tutorId: string): Promise<OpenedTutorCalendar> {
  const tutors = tutorHandlers(deps.store).tutors;
  const tutor = await tutors.load(tutorId);
  const { target, hasCredentials } = await tutorCalendarTarget(deps, tutorId, tutor.userId ?? tutorId);
  const inner = deps.calendar.calendar(target);
  let lost = tutor.calendarAccessLost;
  const record = async (type: 'lost' | 'restored', reason: string) => {
    if (!tutor.exists || (type === 'lost') === lost) return;
    lost = type === 'lost';
    try {
      await tutors.handle(
        tutorId,
        type === 'lost'
          ? { type: 'RecordCalendarAccessLost', data: { tutorId, reason } }
          : { type: 'RecordCalendarAccessRestored', data: { tutorId } },
        commandContext({ now: nowOf(deps) }),
      );
    } catch {
      // The decider is idempotent on the stream's state: the next call records it again.
      lost = !lost;
    }
  };
  const watched = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      const result = await run();
      await record('restored', '');
      return result;
    } catch (error) {
      if (error instanceof CalendarError && error.needsReauthorisation) await record('lost', error.reason);
      throw error;
    }
  };
  const innerWatching = inner.watching;
  const watching: WatchableCalendar | null = innerWatching
    ? {
        watch: (request) => watched(() => innerWatching.watch(request)),
        stopChannel: (channel) => watched(() => innerWatching.stopChannel(channel)),
        changesSince: (syncToken, options) => watched(() => innerWatching.changesSince(syncToken, options)),
      }
    : null;
  const calendar: TutorCalendar = {
    watching,
    async status(): Promise<CalendarStatus> {
      const status = await inner.status();
      if (needsReauthorisation(status.reason)) await record('lost', status.reason ?? 'invalid_grant');
      else if (status.accessible) await record('restored', '');
      return status;
    },
    listEvents: (options) => watched(() => inner.listEvents(options)),
    freeBusy: (window) => watched(() => inner.freeBusy(window)),
    getEvent: (id) => watched(() => inner.getEvent(id)),
    createEvent: (id, input, options) => watched(() => inner.createEvent(id, input, options)),
    updateEvent: (id, patch, options) => watched(() => inner.updateEvent(id, patch, options)),
    deleteEvent: (id, options) => watched(() => inner.deleteEvent(id, options)),
  };
  return { calendar, tutor, hasCredentials };
}

// ---------------------------------------------------------------------------------------------
// Weekly hours ⇄ the calendar's recurring "Topmark Hours"

/** A week and a day around now: every weekly series has an occurrence in it. */
function seriesWindow(now: Date): { from: string; to: string } {
  const at = now.getTime();
  return { from: new Date(at - 86_400_000).toISOString(), to: new Date(at + 15 * 86_400_000).toISOString() };
}

/** The recurring series (masters) named "Topmark Hours", whoever made them (Topmark, or the tutor by hand in Google). */
export async function topmarkHoursSeries(calendar: TutorCalendar, now: Date): Promise<CalendarEvent[]> {
  const events = await calendar.listEvents({ ...seriesWindow(now), expand: false });
  return events.filter((e) => e.status !== 'cancelled' && isTopmarkHours(e.summary) && (e.recurrence?.length ?? 0) > 0);
}

/**
 * Whether the calendar holds any "Topmark Hours" in the bookable window (the next 31 days): the
 * same reading the slot engine makes, so a one-off or hand-made event counts as much as a series.
 */
export async function holdsHours(calendar: TutorCalendar, now: Date): Promise<boolean> {
  const events = await calendar.listEvents({
    from: now.toISOString(),
    to: new Date(now.getTime() + 31 * 86_400_000).toISOString(),
    expand: true,
  });
  return events.some((e) => e.status !== 'cancelled' && isHoursEvent(e));
}

/** The series Topmark wrote (marked with its private property). */
export async function writtenHoursSeries(calendar: TutorCalendar, now: Date): Promise<CalendarEvent[]> {
  const events = await calendar.listEvents({ ...seriesWindow(now), expand: false, privateProperty: TOPMARK_HOURS_PROPERTY });
  return events.filter((e) => e.status !== 'cancelled' && (e.recurrence?.length ?? 0) > 0);
}

export interface WeeklyHoursEntry extends ZonedWeeklyHours {
  /** The series' id, with the entry's index within it when the series covers several days. */
  id: string;
}

/** The weekly hours the calendar's "Topmark Hours" series describe, each entry named by its series. */
export function weeklyHoursOf(series: readonly CalendarEvent[], fallbackZone: string): WeeklyHoursEntry[] {
  const entries: WeeklyHoursEntry[] = [];
  for (const event of series) {
    if (!('dateTime' in event.start) || !('dateTime' in event.end)) continue;
    const hours = recurringEventsToWeeklyHours(
      [{ summary: event.summary, start: event.start, end: event.end, recurrence: event.recurrence }],
      { timeZone: fallbackZone },
    );
    hours.forEach((h, i) => {
      entries.push({ ...h, id: hours.length === 1 ? event.id : `${event.id}-${i}` });
    });
  }
  return entries.sort((a, b) => a.dayOfWeek - b.dayOfWeek || a.startTime.localeCompare(b.startTime) || a.endTime.localeCompare(b.endTime));
}

/** The weekly hours event the tutor's hours come from: the latest `TutorWeeklyHoursSet` of the stream. */
export interface WeeklyHoursRecord {
  eventId: string;
  tutorId: string;
  timeZone: string;
  availability: WeeklyHours[];
  at: string;
}

export async function latestWeeklyHours(store: EventStore, tutorId: string): Promise<WeeklyHoursRecord | null> {
  const recorded = await store.readStream(tutorStreamId(tutorId));
  for (let i = recorded.length - 1; i >= 0; i--) {
    const e = recorded[i]!;
    if (e.type !== 'TutorWeeklyHoursSet') continue;
    const event = toDomainEvent<TutorEvent>(e);
    if (event.type !== 'TutorWeeklyHoursSet') continue;
    return { eventId: e.id, tutorId, timeZone: event.data.timeZone, availability: event.data.availability, at: event.data.at };
  }
  return null;
}

/**
 * The recurring series one `TutorWeeklyHoursSet` becomes, under ids derived from (tutor, event,
 * index): a retried write creates the same events. They start on the day the hours were set, in
 * the tutor's zone.
 */
export function hoursSeriesOf(record: WeeklyHoursRecord): { id: string; input: EventInput }[] {
  const startsOn = Temporal.Instant.from(record.at).toZonedDateTimeISO(record.timeZone).toPlainDate().toString();
  return weeklyHoursToRecurringEvents(record.availability, record.timeZone, { startsOn }).map((event, index) => ({
    id: calendarEventId(record.tutorId, 'hours', record.eventId, String(index)),
    input: event,
  }));
}

async function deleteAll(calendar: TutorCalendar, ids: readonly string[]) {
  for (const id of ids) await calendar.deleteEvent(id);
}

/**
 * Writes the hours of one `TutorWeeklyHoursSet` as recurring "Topmark Hours" events (transparent,
 * marked with Topmark's private property), then deletes the series Topmark wrote before. Safe to
 * retry: the series' ids derive from the event, and a create under an existing id answers the
 * event already made. Hours superseded by a later event are not written (that event's write does
 * its own); a write overtaken while it ran takes its series back out.
 */
export async function writeWeeklyHours(deps: TutorCalendarDeps, tutorId: string, eventId: string): Promise<'written' | 'superseded'> {
  const latest = await latestWeeklyHours(deps.store, tutorId);
  if (!latest || latest.eventId !== eventId) return 'superseded';
  const { calendar } = await openTutorCalendar(deps, tutorId);
  const series = hoursSeriesOf(latest);
  const ids = new Set(series.map((s) => s.id));
  for (const { id, input } of series) {
    try {
      await calendar.createEvent(id, input);
    } catch (error) {
      // Deleted since (by a later write that overtook this one): not ours to bring back.
      if (!(error instanceof CalendarError && error.reason === 'conflict')) throw error;
    }
  }
  const previous = (await writtenHoursSeries(calendar, nowOf(deps))).filter((e) => !ids.has(e.id));
  await deleteAll(
    calendar,
    previous.map((e) => e.id),
  );
  const after = await latestWeeklyHours(deps.store, tutorId);
  if (after?.eventId === eventId) return 'written';
  await deleteAll(calendar, [...ids]);
  return 'superseded';
}
