import { createHash } from 'node:crypto';

/**
 * A tutor's calendar, as booking and availability use it. Two adapters: Google Calendar
 * (`google/googleCalendar.ts`, the tutor's OAuth tokens or a service account the tutor shared the
 * calendar with) and the sandbox calendar stored in PostgreSQL (`sandbox/sandboxCalendar.ts`).
 * Both pass `calendar.contract.ts`.
 *
 * Times are RFC 3339 strings as Google writes them: `dateTime` with an offset, or a wall-clock
 * `dateTime` with `timeZone` (required for recurring events), or an all-day `date`.
 */

export type EventTime = { dateTime: string; timeZone?: string | null } | { date: string };

export interface Attendee {
  email: string;
  displayName?: string | null;
  responseStatus?: 'needsAction' | 'declined' | 'tentative' | 'accepted';
}

export type ConferenceStatus = 'pending' | 'success' | 'failure';

export interface CalendarEvent {
  id: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
  summary: string;
  description: string | null;
  start: EventTime;
  end: EventTime;
  /** Recurring series only (a master, listed with `expand: false`): `RRULE:`/`EXDATE` lines. */
  recurrence: string[] | null;
  /** Instances of a series (listed with `expand: true`): the series' id. */
  recurringEventId: string | null;
  /** `transparent`: shown, but not busy time (Topmark Hours are written this way). */
  transparency: 'opaque' | 'transparent';
  attendees: Attendee[];
  /** The Meet link (Google's `hangoutLink`), null while none exists or the request is pending. */
  meetingLink: string | null;
  conference: { requestId: string | null; status: ConferenceStatus } | null;
  privateProperties: Record<string, string>;
  /** The event in the provider's own UI. */
  htmlLink: string | null;
}

export interface EventInput {
  summary: string;
  description?: string | null;
  start: EventTime;
  end: EventTime;
  recurrence?: string[] | null;
  transparency?: 'opaque' | 'transparent';
  /** `tentative`: shown as such, still busy time (default `confirmed`). Cancelling is `deleteEvent`. */
  status?: 'confirmed' | 'tentative';
  attendees?: Attendee[];
  /** Ask for a Meet link; the request id makes the request idempotent (derive it from the session). */
  conference?: { requestId: string } | null;
  privateProperties?: Record<string, string>;
}

/** Who hears about a change: Google's `sendUpdates` (default `none`). */
export interface WriteOptions {
  sendUpdates?: 'all' | 'externalOnly' | 'none';
}

export interface ListOptions {
  /** RFC 3339 instants: events that end after `from` and start before `to`. */
  from: string;
  to: string;
  /** Recurring series as their instances (Google `singleEvents: true`), sorted by start. Default true. */
  expand?: boolean;
  /** Only events carrying this private extended property. */
  privateProperty?: { key: string; value: string };
}

export interface BusyInterval {
  start: string;
  end: string;
}

export type CalendarStatusReason = Exclude<CalendarErrorReason, 'conflict' | 'invalid'>;

/** Spec part 2 §3 "Calendar status" (without hasAvailability, which reads the tutor's hours). */
export interface CalendarStatus {
  /** Topmark can reach the calendar now. */
  accessible: boolean;
  /** The calendar's address (Google: its id; `primary` resolves to the account's e-mail). */
  email: string | null;
  /** Credentials exist for it (tokens, or a shared calendar's address). */
  isConnected: boolean;
  /** The calendar's own zone, when it could be read. */
  timeZone: string | null;
  /** Why it is not accessible; `invalid_grant`: the tutor must authorise Google again (raise an alert). */
  reason: CalendarStatusReason | null;
}

export interface OAuthTokens {
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: Date | null;
}

/** How to reach one tutor's calendar. */
export interface CalendarTarget {
  /** The tutor (the sandbox keeps one calendar per owner; Google uses it in messages only). */
  ownerId: string;
  /** Google: `primary` with the tutor's tokens, the calendar's address when it is shared with the service account. */
  calendarId: string;
  credentials:
    | {
        kind: 'oauth';
        tokens: OAuthTokens;
        /** Called (and awaited) after a refresh, before the call returns: record the new tokens sealed. */
        onTokensRefreshed?: (tokens: OAuthTokens) => Promise<void> | void;
      }
    | { kind: 'serviceAccount' }
    | { kind: 'none' };
}

/** What `events.watch` is asked for: Google POSTs a message to `address` whenever an event of the calendar changes. */
export interface WatchRequest {
  /** The channel's id, unique per project (Google: `[A-Za-z0-9\-_+/=]{1,64}`). */
  id: string;
  /** Sent back with every message (`X-Goog-Channel-Token`): how the receiver knows the message is its own. */
  token: string;
  /** An https address (Google refuses any other). */
  address: string;
  /** Asked for; the provider may give an earlier expiry. */
  expiresAt: Date;
}

/** A live notification channel. */
export interface PushChannel {
  id: string;
  /** Google's id of the watched resource (needed to stop the channel, sent as `X-Goog-Resource-ID`). */
  resourceId: string;
  /** When the provider stops sending through it (null when it did not say). */
  expiresAt: Date | null;
}

/** What changed since a sync token (Google's incremental `events.list`). */
export interface CalendarChanges {
  /** Events created, changed or deleted since the token; on a full sync, every event listed. */
  changed: number;
  /** The token the next call starts from (`nextSyncToken`). */
  syncToken: string;
  /** No token was given, or the provider had expired it (410 GONE): everything was listed again. */
  fullSync: boolean;
}

/**
 * Change notifications and incremental listing (Google: `events.watch`, `channels.stop`,
 * `syncToken`). Only calendars Topmark does not write alone need it: the sandbox has none
 * (every change to it goes through Topmark's own port).
 */
export interface WatchableCalendar {
  watch(request: WatchRequest): Promise<PushChannel>;
  /** Stops a channel; one already stopped or expired is fine. */
  stopChannel(channel: { id: string; resourceId: string }): Promise<void>;
  /**
   * The changes since `syncToken`, or a full listing of the events ending after `from` when the
   * token is null or expired (then `fullSync`).
   */
  changesSince(syncToken: string | null, options: { from: string }): Promise<CalendarChanges>;
}

export interface TutorCalendar {
  /** Change notifications and sync tokens where the provider has them (Google); null or absent where not applicable (the sandbox). */
  readonly watching?: WatchableCalendar | null;
  status(): Promise<CalendarStatus>;
  listEvents(options: ListOptions): Promise<CalendarEvent[]>;
  freeBusy(window: { from: string; to: string }): Promise<BusyInterval[]>;
  /** The event, or null when there is none or it was deleted. An instance id (`<series>_<UTC>`) reads one occurrence. */
  getEvent(id: string): Promise<CalendarEvent | null>;
  /**
   * Creates the event under the caller's id (base32hex, 5–1024 chars: see `calendarEventId`).
   * A retry answers the event already created, unchanged; an id whose event was deleted is
   * refused (`conflict`) rather than brought back.
   */
  createEvent(id: string, input: EventInput, options?: WriteOptions): Promise<CalendarEvent>;
  /** Changes the fields given (a patch); adds a Meet link when `conference` is given. `not_found` when missing or deleted. */
  updateEvent(id: string, patch: Partial<EventInput>, options?: WriteOptions): Promise<CalendarEvent>;
  /** Deletes an event, a whole series, or one occurrence (an instance id). Deleting again, or a missing id, is fine. */
  deleteEvent(id: string, options?: WriteOptions): Promise<void>;
}

export interface CalendarPort {
  readonly kind: 'google' | 'sandbox';
  /** The address tutors share their calendar with (spec part 2 §2 calendar status banner); null when none is configured. */
  readonly serviceAccountEmail: string | null;
  calendar(target: CalendarTarget): TutorCalendar;
}

export type CalendarErrorReason =
  /** No credentials for this calendar. */
  | 'not_connected'
  /** The refresh token was revoked or expired (OAuth `invalid_grant`): the tutor must authorise again. */
  | 'invalid_grant'
  /** The provider refused the credentials (an expired access token with no way to refresh it). */
  | 'unauthenticated'
  /** No such calendar or event, or the calendar is not shared with the service account. */
  | 'not_found'
  /** No (writer) access: the calendar is shared read-only, or the action is not allowed. */
  | 'forbidden'
  | 'conflict'
  | 'invalid'
  | 'rate_limited'
  /** Network failure, timeout or a server error at the provider. */
  | 'unavailable';

const RETRYABLE: ReadonlySet<CalendarErrorReason> = new Set(['rate_limited', 'unavailable']);

export class CalendarError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly reason: CalendarErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CalendarError';
    this.retryable = RETRYABLE.has(reason);
  }
  /** The tutor must sign in with Google again (the dashboard's re-authorise banner). */
  get needsReauthorisation(): boolean {
    return this.reason === 'invalid_grant' || this.reason === 'unauthenticated';
  }
}

/** Google event ids: base32hex (0-9, a-v), 5–1024 characters. */
export const isValidEventId = (id: string) => /^[0-9a-v]{5,1024}$/.test(id);

export function assertEventId(id: string): void {
  if (!isValidEventId(id)) throw new CalendarError('invalid', `"${id}" is not a valid event id (base32hex 0-9a-v, 5-1024 characters)`);
}

/**
 * A valid event id derived from anything stable (a session id and a purpose), so a retried job
 * creates the same event: the SHA-256 in hex, which is base32hex too.
 */
export const calendarEventId = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex');

/** Google's id of one occurrence of a series: `<seriesId>_<YYYYMMDDTHHMMSSZ>` (all-day series: `<seriesId>_<YYYYMMDD>`). */
export const instanceIdOf = (seriesId: string, originalStart: string) => `${seriesId}_${originalStart}`;

export function splitInstanceId(id: string): { seriesId: string; originalStart: string } | null {
  const m = /^([0-9a-v]{5,1024})_(\d{8}(?:T\d{6}Z)?)$/.exec(id);
  return m ? { seriesId: m[1]!, originalStart: m[2]! } : null;
}
