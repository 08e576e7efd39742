import { auth, calendar_v3 } from '@googleapis/calendar';
import { Temporal } from 'temporal-polyfill';
import {
  assertEventId,
  type BusyInterval,
  type CalendarChanges,
  CalendarError,
  type CalendarErrorReason,
  type CalendarEvent,
  type CalendarPort,
  type CalendarStatus,
  type CalendarStatusReason,
  type CalendarTarget,
  type ConferenceStatus,
  type EventInput,
  type EventTime,
  type ListOptions,
  type OAuthTokens,
  type PushChannel,
  type TutorCalendar,
  type WatchableCalendar,
  type WatchRequest,
  type WriteOptions,
} from '../calendarPort.ts';

/** Read and write events; the scope tutors grant at sign-in (docs/accounts.md). */
export const CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar';
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const PAGE_SIZE = 2500;

type OAuth2Client = InstanceType<typeof auth.OAuth2>;
type JwtClient = InstanceType<typeof auth.JWT>;
type Api = calendar_v3.Calendar;

export interface GoogleCalendarOptions {
  /** The OAuth client the tutors' tokens were granted to (GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET). */
  oauthClient?: { clientId: string; clientSecret: string };
  /** GOOGLE_SERVICE_ACCOUNT_EMAIL / GOOGLE_SERVICE_ACCOUNT_KEY: tutors share their calendar with this address. */
  serviceAccount?: { email: string; privateKey: string };
  /** Tests: a local server speaking the Calendar API (`rootUrl`) and Google's token endpoint. */
  rootUrl?: string;
  tokenUrl?: string;
  /** Per request (default 15 s). */
  timeoutMs?: number;
}

/**
 * GOOGLE_SERVICE_ACCOUNT_KEY as operators paste it: the PEM private key (with real or `\n`-escaped
 * line breaks), or the whole JSON key file (its `private_key`, and `client_email` when no e-mail is set).
 */
export function readServiceAccountKey(key: string, email?: string): { email: string; privateKey: string } {
  const text = key.trim();
  if (text.startsWith('{')) {
    const json = JSON.parse(text) as { private_key?: string; client_email?: string };
    if (!json.private_key) throw new Error('GOOGLE_SERVICE_ACCOUNT_KEY: the JSON key has no private_key');
    const address = email ?? json.client_email;
    if (!address) throw new Error('GOOGLE_SERVICE_ACCOUNT_EMAIL is not set and the JSON key has no client_email');
    return { email: address, privateKey: json.private_key };
  }
  if (!email) throw new Error('GOOGLE_SERVICE_ACCOUNT_EMAIL must be set with a PEM GOOGLE_SERVICE_ACCOUNT_KEY');
  return { email, privateKey: `${text.replace(/\\n/g, '\n').trim()}\n` };
}

/**
 * Google Calendar through `@googleapis/calendar`: the tutor's own OAuth tokens (refreshed when they
 * expire or are refused, the new ones handed to the caller), or the service account a tutor shared
 * the calendar with. Requests are not retried here: the job queue retries `retryable` errors with
 * backoff, and interactive reads fail fast.
 */
export class GoogleCalendar implements CalendarPort {
  readonly kind = 'google' as const;
  readonly serviceAccountEmail: string | null;
  private readonly serviceAccountApi: Api | null = null;

  constructor(private readonly options: GoogleCalendarOptions) {
    this.serviceAccountEmail = options.serviceAccount?.email ?? null;
    if (options.serviceAccount) {
      const jwt = new auth.JWT({
        email: options.serviceAccount.email,
        key: options.serviceAccount.privateKey,
        scopes: [CALENDAR_SCOPE],
        transporterOptions: { timeout: this.timeoutMs },
      });
      redirectTokenRequests(jwt, options.tokenUrl);
      this.serviceAccountApi = this.api(jwt);
    }
  }

  private get timeoutMs() {
    return this.options.timeoutMs ?? 15_000;
  }

  calendar(target: CalendarTarget): TutorCalendar {
    const credentials = target.credentials;
    if (credentials.kind === 'serviceAccount') return new GoogleTutorCalendar(this.serviceAccountApi, target, async () => {});
    if (credentials.kind === 'none' || !this.options.oauthClient) return new GoogleTutorCalendar(null, target, async () => {});
    if (!credentials.tokens.accessToken && !credentials.tokens.refreshToken) return new GoogleTutorCalendar(null, target, async () => {});

    const client: OAuth2Client = new auth.OAuth2({
      clientId: this.options.oauthClient.clientId,
      clientSecret: this.options.oauthClient.clientSecret,
      ...(this.options.tokenUrl ? { endpoints: { oauth2TokenUrl: this.options.tokenUrl } } : {}),
      transporterOptions: { timeout: this.timeoutMs },
    });
    const { tokens, onTokensRefreshed } = credentials;
    client.setCredentials({
      access_token: tokens.accessToken,
      refresh_token: tokens.refreshToken,
      expiry_date: tokens.expiresAt?.getTime() ?? null,
    });
    // Refreshes happen inside the client; each one is reported, and awaited before the call returns.
    const pending: Promise<void>[] = [];
    let refreshToken = tokens.refreshToken;
    client.on('tokens', (fresh) => {
      refreshToken = fresh.refresh_token ?? refreshToken;
      const refreshed: OAuthTokens = {
        accessToken: fresh.access_token ?? null,
        refreshToken,
        expiresAt: fresh.expiry_date ? new Date(fresh.expiry_date) : null,
      };
      const report = Promise.resolve().then(() => onTokensRefreshed?.(refreshed));
      report.catch(() => {}); // awaited (and its failure thrown) by flush
      pending.push(report);
    });
    const flush = async () => {
      while (pending.length > 0) await pending.shift();
    };
    // An access token refused before its expiry (revoked early, clock skew) is refreshed once: marking it
    // expired makes the client refresh before the retry. Only on 401: the client's own
    // forceRefreshOnFailure would also refresh on every 403 (rate limits, no writer access).
    const expireAccessToken = () => {
      if (!client.credentials.refresh_token) return false;
      client.setCredentials({ ...client.credentials, expiry_date: 1 });
      return true;
    };
    return new GoogleTutorCalendar(this.api(client), target, flush, expireAccessToken);
  }

  private api(authClient: OAuth2Client | JwtClient): Api {
    return new calendar_v3.Calendar({
      auth: authClient,
      retry: false,
      timeout: this.timeoutMs,
      ...(this.options.rootUrl ? { rootUrl: this.options.rootUrl } : {}),
    });
  }
}

/** gtoken posts service-account assertions to Google's fixed token URL; tests move it to their server. */
function redirectTokenRequests(client: JwtClient, tokenUrl: string | undefined) {
  if (!tokenUrl) return;
  client.transporter.interceptors.request.add({
    resolved: async (request) => {
      if (request.url.toString() === GOOGLE_TOKEN_URL) request.url = new URL(tokenUrl);
      return request;
    },
  });
}

const STATUS_REASONS = new Set<CalendarStatusReason>([
  'not_connected',
  'invalid_grant',
  'unauthenticated',
  'not_found',
  'forbidden',
  'rate_limited',
  'unavailable',
]);

class GoogleTutorCalendar implements TutorCalendar {
  /** Push notifications (`events.watch`, `channels.stop`) and incremental sync (`syncToken`). */
  readonly watching: WatchableCalendar = {
    watch: (request) => this.watch(request),
    stopChannel: (channel) => this.stopChannel(channel),
    changesSince: (syncToken, options) => this.changesSince(syncToken, options),
  };

  constructor(
    private readonly api: Api | null,
    private readonly target: CalendarTarget,
    private readonly flush: () => Promise<void>,
    private readonly expireAccessToken: () => boolean = () => false,
  ) {}

  private get calendarId() {
    return this.target.calendarId;
  }

  private async call<T>(what: string, run: (api: Api) => Promise<T>): Promise<T> {
    if (!this.api) throw new CalendarError('not_connected', `No Google credentials for the calendar of ${this.target.ownerId}`);
    const api = this.api;
    let result: T;
    try {
      result = await run(api).catch((error: unknown) => {
        if (httpStatusOf(error) === 401 && this.expireAccessToken()) return run(api);
        throw error;
      });
    } catch (error) {
      const failure = toCalendarError(error, what);
      try {
        await this.flush();
      } catch (reportError) {
        throw new AggregateError([failure, reportError], `${what} failed, and recording refreshed tokens failed too`);
      }
      throw failure;
    }
    await this.flush();
    return result;
  }

  async status(): Promise<CalendarStatus> {
    if (!this.api) return { accessible: false, email: null, isConnected: false, timeZone: null, reason: 'not_connected' };
    try {
      const calendar = await this.call('Reading the calendar', (api) => api.calendars.get({ calendarId: this.calendarId }));
      const role = await this.accessRole();
      const readOnly = role === 'reader' || role === 'freeBusyReader';
      return {
        accessible: !readOnly,
        email: calendar.data.id ?? null,
        isConnected: true,
        timeZone: calendar.data.timeZone ?? null,
        reason: readOnly ? 'forbidden' : null,
      };
    } catch (error) {
      if (!(error instanceof CalendarError)) throw error;
      const reason = STATUS_REASONS.has(error.reason as CalendarStatusReason) ? (error.reason as CalendarStatusReason) : 'unavailable';
      return {
        accessible: false,
        email: this.calendarId === 'primary' ? null : this.calendarId,
        isConnected: true,
        timeZone: null,
        reason,
      };
    }
  }

  /** The caller's role when the calendar is in its list (a shared calendar may not be: then unknown). */
  private async accessRole(): Promise<string | null> {
    try {
      const entry = await this.call('Reading the calendar list', (api) => api.calendarList.get({ calendarId: this.calendarId }));
      return entry.data.accessRole ?? null;
    } catch (error) {
      if (error instanceof CalendarError && error.reason === 'not_found') return null;
      throw error;
    }
  }

  async listEvents(options: ListOptions): Promise<CalendarEvent[]> {
    const expand = options.expand ?? true;
    const events: CalendarEvent[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.call('Listing events', (api) =>
        api.events.list({
          calendarId: this.calendarId,
          timeMin: instant(options.from),
          timeMax: instant(options.to),
          singleEvents: expand,
          ...(expand ? { orderBy: 'startTime' } : {}),
          showDeleted: false,
          maxResults: PAGE_SIZE,
          ...(options.privateProperty
            ? { privateExtendedProperty: [`${options.privateProperty.key}=${options.privateProperty.value}`] }
            : {}),
          ...(pageToken ? { pageToken } : {}),
        }),
      );
      for (const item of page.data.items ?? []) if (item.status !== 'cancelled') events.push(fromGoogle(item));
      pageToken = page.data.nextPageToken ?? undefined;
    } while (pageToken);
    return events;
  }

  async freeBusy(window: { from: string; to: string }): Promise<BusyInterval[]> {
    const answer = await this.call('Reading free/busy', (api) =>
      api.freebusy.query({ requestBody: { timeMin: instant(window.from), timeMax: instant(window.to), items: [{ id: this.calendarId }] } }),
    );
    const calendars = answer.data.calendars ?? {};
    // Keyed by the id asked for; a lone answer under another key (an alias resolved) is still ours.
    const entry = calendars[this.calendarId] ?? (Object.keys(calendars).length === 1 ? Object.values(calendars)[0] : undefined);
    const problem = entry?.errors?.[0]?.reason;
    if (!entry || problem) {
      const reason: CalendarErrorReason =
        !entry || problem === 'notFound' ? 'not_found' : problem === 'internalError' ? 'unavailable' : 'forbidden';
      throw new CalendarError(reason, `Reading free/busy: ${problem ?? 'the calendar is missing from the answer'}`);
    }
    return (entry.busy ?? []).map((b) => ({ start: instant(b.start!), end: instant(b.end!) }));
  }

  async getEvent(id: string): Promise<CalendarEvent | null> {
    try {
      const event = await this.call('Reading an event', (api) => api.events.get({ calendarId: this.calendarId, eventId: id }));
      return event.data.status === 'cancelled' ? null : fromGoogle(event.data);
    } catch (error) {
      if (error instanceof CalendarError && error.reason === 'not_found') return null;
      throw error;
    }
  }

  async createEvent(id: string, input: EventInput, options: WriteOptions = {}): Promise<CalendarEvent> {
    assertEventId(id);
    try {
      const created = await this.call('Creating an event', (api) =>
        api.events.insert({
          calendarId: this.calendarId,
          conferenceDataVersion: 1,
          sendUpdates: options.sendUpdates ?? 'none',
          requestBody: { id, ...toGoogle(input) },
        }),
      );
      return fromGoogle(created.data);
    } catch (error) {
      if (!(error instanceof CalendarError) || error.reason !== 'conflict') throw error;
      // "The requested identifier already exists": a retry. Google keeps deleted events too.
      const existing = await this.call('Reading an event', (api) => api.events.get({ calendarId: this.calendarId, eventId: id }));
      if (existing.data.status === 'cancelled') throw new CalendarError('conflict', `Event ${id} was deleted; create it under a new id`);
      return fromGoogle(existing.data);
    }
  }

  async updateEvent(id: string, patch: Partial<EventInput>, options: WriteOptions = {}): Promise<CalendarEvent> {
    const updated = await this.call('Updating an event', (api) =>
      api.events.patch({
        calendarId: this.calendarId,
        eventId: id,
        conferenceDataVersion: 1,
        sendUpdates: options.sendUpdates ?? 'none',
        requestBody: toGoogle(patch),
      }),
    );
    if (updated.data.status === 'cancelled') throw new CalendarError('not_found', `Not Found: event ${id} was deleted`);
    return fromGoogle(updated.data);
  }

  async deleteEvent(id: string, options: WriteOptions = {}): Promise<void> {
    try {
      await this.call('Deleting an event', (api) =>
        api.events.delete({ calendarId: this.calendarId, eventId: id, sendUpdates: options.sendUpdates ?? 'none' }),
      );
    } catch (error) {
      // 404 (never existed) and 410 (already deleted) both mean done.
      if (error instanceof CalendarError && error.reason === 'not_found') return;
      throw error;
    }
  }

  // --- change notifications and incremental sync ---------------------------------------------

  /** `events.watch`: Google POSTs a message to the address whenever an event of the calendar changes, until the expiry. */
  private async watch(request: WatchRequest): Promise<PushChannel> {
    const answer = await this.call('Watching the calendar', (api) =>
      api.events.watch({
        calendarId: this.calendarId,
        requestBody: {
          id: request.id,
          token: request.token,
          type: 'web_hook',
          address: request.address,
          expiration: String(request.expiresAt.getTime()),
        },
      }),
    );
    const { id, resourceId, expiration } = answer.data;
    if (!id || !resourceId) throw new CalendarError('unavailable', 'Watching the calendar: Google answered without a channel');
    return { id, resourceId, expiresAt: expiration ? new Date(Number(expiration)) : null };
  }

  private async stopChannel(channel: { id: string; resourceId: string }): Promise<void> {
    try {
      await this.call('Stopping a channel', (api) =>
        api.channels.stop({ requestBody: { id: channel.id, resourceId: channel.resourceId } }),
      );
    } catch (error) {
      // Stopped already, or expired: Google no longer knows it.
      if (error instanceof CalendarError && error.reason === 'not_found') return;
      throw error;
    }
  }

  /**
   * Incremental sync: the events changed (deleted ones included) since the token. Google refuses a
   * token it has expired with 410 GONE ("fullSyncRequired"); then every event ending after `from`
   * is listed again for a new token. Only ids are fetched: the caller needs to know that something
   * changed, not what.
   */
  private async changesSince(syncToken: string | null, options: { from: string }): Promise<CalendarChanges> {
    if (syncToken !== null) {
      try {
        return await this.listChanges({ syncToken }, false);
      } catch (error) {
        if (!(error instanceof CalendarError && httpStatusOf(error.cause) === 410)) throw error;
      }
    }
    return this.listChanges({ timeMin: instant(options.from) }, true);
  }

  private async listChanges(start: { syncToken: string } | { timeMin: string }, fullSync: boolean): Promise<CalendarChanges> {
    let changed = 0;
    let pageToken: string | undefined;
    for (;;) {
      // The same parameters on the full and the incremental listing, as Google asks (singleEvents, showDeleted).
      const page = await this.call(fullSync ? 'Listing events for a full sync' : 'Listing changed events', (api) =>
        api.events.list({
          calendarId: this.calendarId,
          ...start,
          singleEvents: false,
          maxResults: PAGE_SIZE,
          fields: 'items(id),nextPageToken,nextSyncToken',
          ...(pageToken ? { pageToken } : {}),
        }),
      );
      changed += page.data.items?.length ?? 0;
      pageToken = page.data.nextPageToken ?? undefined;
      if (pageToken) continue;
      const next = page.data.nextSyncToken;
      if (!next) throw new CalendarError('unavailable', 'Listing events: Google gave no nextSyncToken on the last page');
      return { changed, syncToken: next, fullSync };
    }
  }
}

const instant = (value: string) => Temporal.Instant.from(value).toString();

function toGoogleTime(t: EventTime): calendar_v3.Schema$EventDateTime {
  return 'date' in t ? { date: t.date } : { dateTime: t.dateTime, ...(t.timeZone ? { timeZone: t.timeZone } : {}) };
}

function toGoogle(input: Partial<EventInput>): calendar_v3.Schema$Event {
  const body: calendar_v3.Schema$Event = {};
  if (input.summary !== undefined) body.summary = input.summary;
  if (input.description !== undefined) body.description = input.description;
  if (input.start !== undefined) body.start = toGoogleTime(input.start);
  if (input.end !== undefined) body.end = toGoogleTime(input.end);
  if (input.recurrence !== undefined) body.recurrence = input.recurrence ?? [];
  if (input.transparency !== undefined) body.transparency = input.transparency;
  if (input.status !== undefined) body.status = input.status;
  if (input.attendees !== undefined) {
    body.attendees = input.attendees.map((a) => ({ email: a.email, ...(a.displayName ? { displayName: a.displayName } : {}) }));
  }
  if (input.privateProperties !== undefined) body.extendedProperties = { private: input.privateProperties };
  if (input.conference) {
    body.conferenceData = { createRequest: { requestId: input.conference.requestId, conferenceSolutionKey: { type: 'hangoutsMeet' } } };
  }
  return body;
}

function fromGoogleTime(t: calendar_v3.Schema$EventDateTime | undefined): EventTime {
  if (t?.date) return { date: t.date };
  return { dateTime: t?.dateTime ?? '', timeZone: t?.timeZone ?? null };
}

const CONFERENCE_STATUSES = new Set<string>(['pending', 'success', 'failure']);

function fromGoogle(e: calendar_v3.Schema$Event): CalendarEvent {
  const video = e.conferenceData?.entryPoints?.find((p) => p.entryPointType === 'video')?.uri ?? null;
  const statusCode = e.conferenceData?.createRequest?.status?.statusCode ?? null;
  const conferenceStatus: ConferenceStatus =
    statusCode && CONFERENCE_STATUSES.has(statusCode) ? (statusCode as ConferenceStatus) : 'success';
  return {
    id: e.id ?? '',
    status: e.status === 'tentative' || e.status === 'cancelled' ? e.status : 'confirmed',
    summary: e.summary ?? '',
    description: e.description ?? null,
    start: fromGoogleTime(e.start),
    end: fromGoogleTime(e.end),
    recurrence: e.recurrence && e.recurrence.length > 0 ? e.recurrence : null,
    recurringEventId: e.recurringEventId ?? null,
    transparency: e.transparency === 'transparent' ? 'transparent' : 'opaque',
    attendees: (e.attendees ?? []).map((a) => ({
      email: a.email ?? '',
      displayName: a.displayName ?? null,
      responseStatus: (a.responseStatus as 'needsAction' | 'declined' | 'tentative' | 'accepted' | undefined) ?? 'needsAction',
    })),
    meetingLink: e.hangoutLink ?? video,
    conference: e.conferenceData ? { requestId: e.conferenceData.createRequest?.requestId ?? null, status: conferenceStatus } : null,
    privateProperties: (e.extendedProperties?.private as Record<string, string> | undefined) ?? {},
    htmlLink: e.htmlLink ?? null,
  };
}

interface GoogleFailure {
  message?: string;
  status?: number;
  code?: string | number;
  response?: { status?: number; data?: unknown };
}

const RATE_LIMIT_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded', 'dailyLimitExceeded']);

function httpStatusOf(error: unknown): number | undefined {
  const failure = (error ?? {}) as GoogleFailure;
  return failure.response?.status ?? (typeof failure.status === 'number' ? failure.status : undefined);
}

function reasonOf(status: number | undefined, oauthError: string | null, apiReasons: string[], message: string): CalendarErrorReason {
  if (oauthError === 'invalid_grant' || /\binvalid_grant\b/.test(message)) return 'invalid_grant';
  if (/No refresh token is set|No access, refresh token/i.test(message)) return 'unauthenticated';
  if (status === undefined) return 'unavailable';
  if (status === 401) return 'unauthenticated';
  if (status === 403) return apiReasons.some((r) => RATE_LIMIT_REASONS.has(r)) ? 'rate_limited' : 'forbidden';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 409 || status === 412) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'unavailable';
  if (status === 400 && oauthError) return 'unauthenticated'; // invalid_client, unauthorized_client…
  return 'invalid';
}

/** Maps what gaxios and google-auth-library throw to the port's reasons, keeping Google's message. */
export function toCalendarError(error: unknown, what: string): CalendarError {
  if (error instanceof CalendarError) return error;
  const failure = (error ?? {}) as GoogleFailure;
  const status = httpStatusOf(error);
  const data = (failure.response?.data ?? {}) as {
    error?: string | { message?: string; errors?: { reason?: string }[] };
    error_description?: string;
  };
  const oauthError = typeof data.error === 'string' ? data.error : null;
  const apiError = typeof data.error === 'object' ? data.error : null;
  const apiReasons = (apiError?.errors ?? []).map((e) => e.reason ?? '');
  const message =
    apiError?.message ??
    (oauthError ? `${oauthError}${data.error_description ? `: ${data.error_description}` : ''}` : failure.message) ??
    'failed';
  const reason = reasonOf(status, oauthError, apiReasons, `${message} ${failure.message ?? ''}`);
  return new CalendarError(reason, `${what}: ${message}`, { cause: error });
}
