import { createHash, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { calendar_v3 } from '@googleapis/calendar';
import { Temporal } from 'temporal-polyfill';
import { isValidEventId, splitInstanceId } from '../../src/adapters/calendar/calendarPort.ts';
import { checkTimes, instantOf, isAllDay, presentTime, wallClockOf, withOffset, zoneOf } from '../../src/adapters/calendar/calendarTime.ts';
import { basicUtc, occurrencesBetween } from '../../src/domain/calendar/recurrence.ts';

/**
 * Test support: a local server speaking the Google Calendar API v3 wire format and Google's OAuth
 * token endpoint, for the Google adapter's tests (`rootUrl`). It keeps calendars in memory and
 * answers as Google does: events.list with `singleEvents` expansion (instance ids
 * `<id>_<UTC start>`, `orderBy=startTime`, pages), events.insert with client-chosen ids (409
 * "duplicate", also for a deleted id) and Meet links only under `conferenceDataVersion=1`,
 * events.get/patch/delete (410 for a deleted event, exceptions for single occurrences),
 * freeBusy.query, calendars.get, calendarList.get, refresh-token and service-account (JWT bearer)
 * grants, revoked grants (`invalid_grant`), and Google's error bodies.
 *
 * Change notifications as Google sends them: `events.watch` makes a channel (https addresses only,
 * unique ids, an expiry), `channels.stop` ends it, and every change to an event of a watched
 * calendar is POSTed to the channel's address with Google's headers and no body (a `sync` message
 * when the channel is made, then `exists`, numbered). The test's app listens on a local http port:
 * `routePushes` says where messages for the public https address really go. Incremental listing:
 * every list's last page carries `nextSyncToken`; a list with `syncToken` answers the events
 * changed since (deleted ones included), and a token made stale by `expireSyncTokens` is a 410.
 */

type GEvent = calendar_v3.Schema$Event;
type Role = 'owner' | 'writer' | 'reader' | 'freeBusyReader';

interface FakeCalendar {
  id: string;
  timeZone: string;
  acl: Map<string, Role>;
  events: Map<string, GEvent>;
  /** Google's id of the calendar's events collection, as channels name it. */
  resourceId: string;
  /** Counts changes; each stored event keeps the count of its last change (`changedAt`): what sync tokens compare. */
  changes: number;
  changedAt: Map<string, number>;
  /** Tokens made before the current epoch are refused with 410 (`expireSyncTokens`). */
  tokenEpoch: number;
}

/** A notification channel (`events.watch`). */
export interface FakeChannel {
  id: string;
  token: string | null;
  address: string;
  calendarId: string;
  resourceId: string;
  /** Who made it: only they may stop it. */
  principal: string;
  expiration: number;
  stopped: boolean;
  /** The last message's number (X-Goog-Message-Number). */
  messageNumber: number;
}

/** One message POSTed to a channel's address, and how the receiver answered (null: it could not be reached). */
export interface PushDelivery {
  channelId: string;
  state: 'sync' | 'exists';
  messageNumber: number;
  url: string;
  status: number | null;
  /** Not sent: `dropPushes` was on (a message Google lost). */
  dropped: boolean;
}

interface SyncCursor {
  calendarId: string;
  change: number;
  epoch: number;
}

const DAY_MS = 86_400_000;
/** Google's default expiry of a channel on calendar events when none is asked for, and the longest given here. */
const DEFAULT_CHANNEL_TTL_MS = 7 * DAY_MS;
const MAX_CHANNEL_TTL_MS = 30 * DAY_MS;
const CHANNEL_ID = /^[A-Za-z0-9\-_+/=]{1,64}$/;

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  body: unknown;
  authorization: string | null;
}

export interface FakeGoogleOptions {
  clientId: string;
  clientSecret: string;
  serviceAccount?: { email: string; publicKeyPem: string };
  /** Items per events.list page whatever maxResults says (Google may return fewer): exercises paging. */
  pageSize?: number;
}

const TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token';
const RRULE_ORDER = 'startTime';

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

const apiError = (status: number, reason: string, message: string, domain = 'global') =>
  new HttpError(status, { error: { code: status, message, errors: [{ domain, reason, message }] } });
const notFound = () => apiError(404, 'notFound', 'Not Found');
const unauthenticated = () =>
  new HttpError(401, {
    error: {
      code: 401,
      message:
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      errors: [
        { message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' },
      ],
      status: 'UNAUTHENTICATED',
    },
  });

function fakeMeetCode(requestId: string): string {
  const bytes = createHash('sha256').update(`google-meet:${requestId}`).digest();
  const code = [...bytes.subarray(0, 10)].map((b) => 'abcdefghijklmnopqrstuvwxyz'[b % 26]).join('');
  return `${code.slice(0, 3)}-${code.slice(3, 7)}-${code.slice(7)}`;
}

const cmp = Temporal.Instant.compare;

export class FakeGoogleCalendarServer {
  readonly requests: RecordedRequest[] = [];
  /** Answer the next matching requests with this status and body instead. */
  readonly failures: { path: RegExp; status: number; body: unknown }[] = [];
  /** 'pending': new conferences are still being made (no link yet), as Google sometimes answers. */
  conferenceStatus: 'success' | 'pending' = 'success';
  /** Every change message, in the order sent (or dropped). */
  readonly pushes: PushDelivery[] = [];
  /** Loses change messages (not `sync` ones) while on, as a network or Google may. */
  dropPushes = false;
  private readonly channels = new Map<string, FakeChannel>();
  private readonly pushRoutes: { from: string; to: string }[] = [];
  private readonly deliveries = new Set<Promise<void>>();
  private readonly lastDelivery = new Map<string, Promise<void>>();
  private readonly calendars = new Map<string, FakeCalendar>();
  private readonly accessTokens = new Map<string, { email: string; expiresAt: number }>();
  private readonly refreshTokens = new Map<string, { email: string; revoked: boolean }>();
  private readonly server = createServer((req, res) => {
    this.handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 500, message: String(error) } }));
    });
  });
  url = '';

  private constructor(private readonly options: FakeGoogleOptions) {}

  static async start(options: FakeGoogleOptions): Promise<FakeGoogleCalendarServer> {
    const fake = new FakeGoogleCalendarServer(options);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  get rootUrl() {
    return `${this.url}/`;
  }
  get tokenUrl() {
    return `${this.url}/token`;
  }

  async close(): Promise<void> {
    for (const channel of this.channels.values()) channel.stopped = true;
    await this.pushesSettled();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** A Google account with its primary calendar, and tokens as a consent would grant them. */
  addUser(email: string, options: { timeZone?: string; accessTokenTtlMs?: number } = {}) {
    this.calendars.set(email, {
      id: email,
      timeZone: options.timeZone ?? 'America/New_York',
      acl: new Map(),
      events: new Map(),
      resourceId: randomBytes(14).toString('base64url'),
      changes: 0,
      changedAt: new Map(),
      tokenEpoch: 0,
    });
    return this.grant(email, options);
  }

  /** A new consent by a user who already exists (after a revoked grant): new tokens, the calendar as it was. */
  grant(email: string, options: { accessTokenTtlMs?: number } = {}) {
    const refreshToken = `1//refresh-${randomBytes(8).toString('hex')}`;
    this.refreshTokens.set(refreshToken, { email, revoked: false });
    const ttl = options.accessTokenTtlMs ?? 3_600_000;
    const accessToken = this.issueAccessToken(email, ttl);
    return { accessToken, refreshToken, expiresAt: new Date(Date.now() + ttl) };
  }

  share(calendarId: string, withEmail: string, role: Role) {
    this.calendars.get(calendarId)!.acl.set(withEmail, role);
  }

  /** The user withdrew the grant (or it expired): refresh tokens and access tokens stop working, and so do the channels made with them. */
  revoke(email: string) {
    for (const grant of this.refreshTokens.values()) if (grant.email === email) grant.revoked = true;
    for (const [token, owner] of this.accessTokens) if (owner.email === email) this.accessTokens.delete(token);
    for (const channel of this.channels.values()) if (channel.principal === email) channel.stopped = true;
  }

  /** Messages for addresses starting with `from` (the public https URL) are POSTed to `to` (the test's local port) instead. */
  routePushes(from: string, to: string) {
    this.pushRoutes.push({ from, to });
  }

  /** Every sync token of the calendar made so far is refused with 410 GONE: the client must sync fully. */
  expireSyncTokens(calendarId: string) {
    this.calendars.get(calendarId)!.tokenEpoch++;
  }

  /** The channel as Google holds it. */
  channel(id: string): FakeChannel | undefined {
    const channel = this.channels.get(id);
    return channel ? { ...channel } : undefined;
  }

  /** Channels of the calendar still sending: not stopped, not expired. */
  liveChannels(calendarId: string): FakeChannel[] {
    return [...this.channels.values()]
      .filter((c) => c.calendarId === calendarId && !c.stopped && c.expiration > Date.now())
      .map((c) => ({ ...c }));
  }

  /** Resolves when every message sent so far has been answered. */
  async pushesSettled(): Promise<void> {
    while (this.deliveries.size > 0) await Promise.all([...this.deliveries]);
  }

  /** Access tokens die early (Google may revoke them); refresh tokens still work. */
  dropAccessTokens(email: string) {
    for (const [token, owner] of this.accessTokens) if (owner.email === email) this.accessTokens.delete(token);
  }

  calendarRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path.startsWith('/calendar/v3/'));
  }

  private issueAccessToken(email: string, ttlMs: number) {
    const token = `ya29.fake-${randomBytes(8).toString('hex')}`;
    this.accessTokens.set(token, { email, expiresAt: Date.now() + ttlMs });
    return token;
  }

  // ---------------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.url);
    const raw = await new Promise<string>((resolve) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        text += chunk;
      });
      req.on('end', () => resolve(text));
    });
    const form = (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
    const body: unknown = raw === '' ? null : form ? Object.fromEntries(new URLSearchParams(raw)) : JSON.parse(raw);
    const query: Record<string, string | string[]> = {};
    for (const key of new Set(url.searchParams.keys())) {
      const all = url.searchParams.getAll(key);
      query[key] = all.length > 1 ? all : all[0]!;
    }
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, query, body, authorization: req.headers.authorization ?? null });

    const send = (status: number, payload: unknown) => {
      res.writeHead(status, payload === null ? {} : { 'content-type': 'application/json; charset=UTF-8' });
      res.end(payload === null ? undefined : JSON.stringify(payload));
    };
    const injected = this.failures.findIndex((f) => f.path.test(url.pathname));
    if (injected >= 0) {
      const [failure] = this.failures.splice(injected, 1);
      return send(failure!.status, failure!.body);
    }
    try {
      if (url.pathname === '/token' && req.method === 'POST') return send(200, this.token(body as Record<string, string>));
      const result = this.route(req.method ?? 'GET', url.pathname, query, body, this.principal(req.headers.authorization));
      return send(result === null ? 204 : 200, result);
    } catch (error) {
      if (error instanceof HttpError) return send(error.status, error.body);
      throw error;
    }
  }

  private token(form: Record<string, string>) {
    if (form.grant_type === 'refresh_token') {
      if (form.client_id !== this.options.clientId || form.client_secret !== this.options.clientSecret) {
        throw new HttpError(401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' });
      }
      const grant = this.refreshTokens.get(form.refresh_token ?? '');
      if (!grant || grant.revoked)
        throw new HttpError(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      return {
        access_token: this.issueAccessToken(grant.email, 3_600_000),
        expires_in: 3599,
        scope: 'https://www.googleapis.com/auth/calendar',
        token_type: 'Bearer',
      };
    }
    if (form.grant_type === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      const account = this.options.serviceAccount;
      const [header = '', payload = '', signature = ''] = (form.assertion ?? '').split('.');
      const signed =
        account && verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), account.publicKeyPem, Buffer.from(signature, 'base64url'));
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8') || '{}') as {
        iss?: string;
        aud?: string;
        scope?: string;
        exp?: number;
      };
      if (
        !signed ||
        claims.iss !== account.email ||
        claims.aud !== TOKEN_AUDIENCE ||
        !claims.scope?.includes('auth/calendar') ||
        (claims.exp ?? 0) * 1000 < Date.now()
      ) {
        throw new HttpError(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      }
      return { access_token: this.issueAccessToken(account.email, 3_600_000), expires_in: 3599, token_type: 'Bearer' };
    }
    throw new HttpError(400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' });
  }

  private principal(authorization: string | undefined): string {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const owner = token ? this.accessTokens.get(token) : undefined;
    if (!owner || owner.expiresAt < Date.now()) throw unauthenticated();
    return owner.email;
  }

  private open(calendarId: string, principal: string, need: 'read' | 'write' | 'freeBusy'): { calendar: FakeCalendar; role: Role } {
    const calendar = this.calendars.get(calendarId === 'primary' ? principal : calendarId);
    const role = calendar ? (calendar.id === principal ? 'owner' : calendar.acl.get(principal)) : undefined;
    if (!calendar || !role) throw notFound();
    if (need === 'read' && role === 'freeBusyReader') throw notFound();
    if (need === 'write' && role !== 'owner' && role !== 'writer') {
      throw apiError(403, 'requiredAccessLevel', 'You need to have writer access to this calendar.', 'calendar');
    }
    return { calendar, role };
  }

  private route(method: string, path: string, query: Record<string, string | string[]>, body: unknown, principal: string): unknown {
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent); // calendar v3 …
    const [, , resource, calendarId, sub, eventId] = parts;
    if (resource === 'freeBusy' && method === 'POST') return this.freeBusy(body as calendar_v3.Schema$FreeBusyRequest, principal);
    if (resource === 'users' && calendarId === 'me' && sub === 'calendarList' && eventId) return this.calendarListEntry(eventId, principal);
    if (resource === 'channels' && calendarId === 'stop' && !sub && method === 'POST') return this.stopChannel(body, principal);
    if (resource !== 'calendars' || !calendarId) throw notFound();
    if (!sub) {
      const { calendar } = this.open(calendarId, principal, 'read');
      return { kind: 'calendar#calendar', id: calendar.id, summary: calendar.id, timeZone: calendar.timeZone };
    }
    if (sub !== 'events') throw notFound();
    const one = (name: string) => (Array.isArray(query[name]) ? (query[name] as string[])[0] : (query[name] as string | undefined));
    // "watch" is no event id (base32hex has no w).
    if (eventId === 'watch' && method === 'POST') return this.watch(this.open(calendarId, principal, 'read').calendar, body, principal);
    if (!eventId) {
      if (method === 'GET') return this.list(this.open(calendarId, principal, 'read').calendar, query);
      if (method === 'POST')
        return this.insert(this.open(calendarId, principal, 'write').calendar, body as GEvent, one('conferenceDataVersion') === '1');
      throw notFound();
    }
    if (method === 'GET') return this.get(this.open(calendarId, principal, 'read').calendar, eventId);
    if (method === 'PATCH')
      return this.patch(this.open(calendarId, principal, 'write').calendar, eventId, body as GEvent, one('conferenceDataVersion') === '1');
    if (method === 'DELETE') return this.remove(this.open(calendarId, principal, 'write').calendar, eventId);
    throw notFound();
  }

  private calendarListEntry(calendarId: string, principal: string) {
    const calendar = this.calendars.get(calendarId === 'primary' ? principal : calendarId);
    // A calendar shared with a service account is not in its list until inserted there.
    if (!calendar || (calendar.id !== principal && (!calendar.acl.has(principal) || this.options.serviceAccount?.email === principal)))
      throw notFound();
    return {
      kind: 'calendar#calendarListEntry',
      id: calendar.id,
      accessRole: calendar.id === principal ? 'owner' : calendar.acl.get(principal),
      timeZone: calendar.timeZone,
    };
  }

  // --- events ----------------------------------------------------------------------------------

  private present(calendar: FakeCalendar, e: GEvent): GEvent {
    return {
      ...e,
      start: presentTime(e.start as never, calendar.timeZone) as GEvent['start'],
      end: presentTime(e.end as never, calendar.timeZone) as GEvent['end'],
    };
  }

  private validate(calendar: FakeCalendar, e: GEvent) {
    if (!e.start || !e.end) throw apiError(400, 'required', 'Missing end time.');
    try {
      checkTimes(e.start as never, e.end as never, (e.recurrence ?? []).length > 0, calendar.timeZone);
      if ((e.recurrence ?? []).length > 0)
        this.occurrences(
          calendar,
          e,
          instantOf(e.start as never, calendar.timeZone),
          instantOf(e.start as never, calendar.timeZone).add({ hours: 1 }),
        );
    } catch (error) {
      throw apiError(400, 'invalid', (error as Error).message);
    }
  }

  private withConference(e: GEvent, requested: calendar_v3.Schema$ConferenceData | undefined, allowed: boolean): GEvent {
    const requestId = requested?.createRequest?.requestId;
    if (!allowed || !requestId || e.conferenceData) return e;
    const solution = { key: { type: 'hangoutsMeet' }, name: 'Google Meet' };
    if (this.conferenceStatus === 'pending') {
      return {
        ...e,
        conferenceData: {
          createRequest: { requestId, conferenceSolutionKey: { type: 'hangoutsMeet' }, status: { statusCode: 'pending' } },
          conferenceSolution: solution,
        },
      };
    }
    const code = fakeMeetCode(requestId);
    return {
      ...e,
      hangoutLink: `https://meet.google.com/${code}`,
      conferenceData: {
        createRequest: { requestId, conferenceSolutionKey: { type: 'hangoutsMeet' }, status: { statusCode: 'success' } },
        entryPoints: [{ entryPointType: 'video', uri: `https://meet.google.com/${code}`, label: `meet.google.com/${code}` }],
        conferenceSolution: solution,
        conferenceId: code,
      },
    };
  }

  private insert(calendar: FakeCalendar, body: GEvent, conferenceDataVersion: boolean) {
    const id = body.id ?? randomBytes(13).toString('hex');
    if (!isValidEventId(id)) throw apiError(400, 'invalid', 'Invalid resource id value.');
    if (calendar.events.has(id)) throw apiError(409, 'duplicate', 'The requested identifier already exists.');
    this.validate(calendar, body);
    const now = new Date().toISOString();
    const { conferenceData, ...rest } = body;
    const event = this.withConference(
      {
        ...rest,
        kind: 'calendar#event',
        id,
        status: rest.status === 'tentative' ? 'tentative' : 'confirmed',
        created: now,
        updated: now,
        htmlLink: `https://www.google.com/calendar/event?eid=${id}`,
        attendees: body.attendees?.map((a) => ({ responseStatus: 'needsAction', ...a })),
      },
      conferenceData,
      conferenceDataVersion,
    );
    this.put(calendar, id, event);
    this.changed(calendar);
    return this.present(calendar, event);
  }

  private occurrences(calendar: FakeCalendar, e: GEvent, from: Temporal.Instant, to: Temporal.Instant) {
    const start = e.start as never;
    return occurrencesBetween(
      {
        start: wallClockOf(start, calendar.timeZone),
        end: wallClockOf(e.end as never, calendar.timeZone),
        timeZone: zoneOf(start, calendar.timeZone),
        recurrence: e.recurrence,
      },
      from,
      to,
    );
  }

  private instanceOf(calendar: FakeCalendar, master: GEvent, o: { start: Temporal.Instant; end: Temporal.Instant }): GEvent {
    const allDay = isAllDay(master.start as never);
    const zone = zoneOf(master.start as never, calendar.timeZone);
    const time = (at: Temporal.Instant) =>
      allDay ? { date: at.toZonedDateTimeISO(zone).toPlainDate().toString() } : { dateTime: withOffset(at, zone), timeZone: zone };
    const suffix = allDay ? o.start.toZonedDateTimeISO(zone).toPlainDate().toString().replaceAll('-', '') : basicUtc(o.start);
    const { recurrence: _recurrence, ...rest } = master;
    return {
      ...rest,
      id: `${master.id}_${suffix}`,
      recurringEventId: master.id,
      originalStartTime: time(o.start),
      start: time(o.start),
      end: time(o.end),
    };
  }

  /** The instance an id names: an exception stored under it, or an occurrence of its series. */
  private instanceById(calendar: FakeCalendar, eventId: string): GEvent | null {
    const parts = splitInstanceId(eventId);
    const master = parts ? calendar.events.get(parts.seriesId) : undefined;
    if (!parts || !master?.recurrence || master.status === 'cancelled') return null;
    const s = parts.originalStart;
    const at = s.includes('T')
      ? Temporal.Instant.from(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}Z`)
      : Temporal.PlainDate.from(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`)
          .toZonedDateTime(calendar.timeZone)
          .toInstant();
    const o = this.occurrences(calendar, master, at, at.add({ seconds: 1 })).find((x) => cmp(x.start, at) === 0);
    return o ? this.instanceOf(calendar, master, o) : null;
  }

  private get(calendar: FakeCalendar, eventId: string) {
    const stored = calendar.events.get(eventId);
    if (stored) return this.present(calendar, stored); // deleted events answer with status "cancelled"
    const instance = this.instanceById(calendar, eventId);
    if (!instance) throw notFound();
    return this.present(calendar, instance);
  }

  private patch(calendar: FakeCalendar, eventId: string, body: GEvent, conferenceDataVersion: boolean) {
    let current = calendar.events.get(eventId);
    if (!current) {
      const instance = this.instanceById(calendar, eventId);
      if (!instance) throw notFound();
      current = instance; // becomes an exception of its series
    }
    const { conferenceData, extendedProperties, ...fields } = body;
    const merged: GEvent = {
      ...current,
      ...fields,
      ...(extendedProperties
        ? {
            extendedProperties: {
              ...current.extendedProperties,
              private: { ...current.extendedProperties?.private, ...extendedProperties.private },
            },
          }
        : {}),
      ...(fields.attendees ? { attendees: fields.attendees.map((a) => ({ responseStatus: 'needsAction', ...a })) } : {}),
      updated: new Date().toISOString(),
    };
    this.validate(calendar, merged);
    const next = this.withConference(merged, conferenceData, conferenceDataVersion);
    this.put(calendar, eventId, next);
    this.changed(calendar);
    return this.present(calendar, next);
  }

  private remove(calendar: FakeCalendar, eventId: string) {
    const stored = calendar.events.get(eventId);
    if (stored?.status === 'cancelled') throw apiError(410, 'deleted', 'Resource has been deleted');
    if (stored) {
      for (const [id, e] of calendar.events)
        if (id === eventId || e.recurringEventId === eventId) this.put(calendar, id, { ...e, status: 'cancelled' });
      this.changed(calendar);
      return null;
    }
    const instance = this.instanceById(calendar, eventId);
    if (!instance) throw notFound();
    this.put(calendar, eventId, { ...instance, status: 'cancelled' });
    this.changed(calendar);
    return null;
  }

  /** Stores an event as changed now (what sync tokens compare). */
  private put(calendar: FakeCalendar, id: string, event: GEvent) {
    calendar.changes++;
    calendar.events.set(id, { ...event, updated: new Date().toISOString() });
    calendar.changedAt.set(id, calendar.changes);
  }

  /** Every event as it shows in [from, to): singles, exceptions, and (expanded or not) series. */
  private eventsIn(calendar: FakeCalendar, from: Temporal.Instant, to: Temporal.Instant, expand: boolean, showDeleted = false): GEvent[] {
    const out: GEvent[] = [];
    const zone = calendar.timeZone;
    for (const e of calendar.events.values()) {
      if (e.status === 'cancelled' && !showDeleted) continue;
      if (!e.recurrence?.length) {
        if (cmp(instantOf(e.start as never, zone), to) < 0 && cmp(instantOf(e.end as never, zone), from) > 0) out.push(e);
        continue;
      }
      const occurrences = this.occurrences(calendar, e, from, to);
      if (!expand) {
        if (occurrences.length > 0) out.push(e);
        continue;
      }
      for (const o of occurrences) {
        const instance = this.instanceOf(calendar, e, o);
        if (!calendar.events.has(instance.id!)) out.push(instance);
      }
    }
    return out;
  }

  private list(calendar: FakeCalendar, query: Record<string, string | string[]>) {
    const one = (name: string) => (Array.isArray(query[name]) ? (query[name] as string[])[0] : (query[name] as string | undefined));
    // Page tokens carry the change count of the first page: the last page's nextSyncToken starts there.
    const [offsetText = '0', changeText] = (one('pageToken') ?? '0').split('~');
    const asOf = changeText === undefined ? calendar.changes : Number(changeText);
    const syncToken = one('syncToken');
    if (syncToken !== undefined) return this.listChanges(calendar, query, syncToken, Number(offsetText), asOf);
    const expand = one('singleEvents') === 'true';
    if (one('orderBy') === RRULE_ORDER && !expand)
      throw apiError(400, 'invalid', 'The requested ordering is not available for the particular query.');
    const from = Temporal.Instant.from(one('timeMin') ?? '1970-01-01T00:00:00Z');
    const to = Temporal.Instant.from(one('timeMax') ?? '2100-01-01T00:00:00Z');
    const wanted = ([] as string[]).concat(query.privateExtendedProperty ?? []).map((p) => p.split('=', 2) as [string, string]);
    let items = this.eventsIn(calendar, from, to, expand).filter((e) => wanted.every(([k, v]) => e.extendedProperties?.private?.[k] === v));
    if (one('orderBy') === RRULE_ORDER) {
      items = items.sort((a, b) => cmp(instantOf(a.start as never, calendar.timeZone), instantOf(b.start as never, calendar.timeZone)));
    }
    const offset = Number(offsetText);
    return this.page(calendar, items, offset, Number(one('maxResults') ?? 250), asOf);
  }

  private page(calendar: FakeCalendar, items: GEvent[], offset: number, maxResults: number, asOf: number) {
    const size = Math.min(maxResults, this.options.pageSize ?? 3);
    const page = items.slice(offset, offset + size).map((e) => this.present(calendar, e));
    const more = offset + size < items.length;
    return {
      kind: 'calendar#events',
      summary: calendar.id,
      timeZone: calendar.timeZone,
      items: page,
      ...(more
        ? { nextPageToken: `${offset + size}~${asOf}` }
        : {
            nextSyncToken: Buffer.from(
              JSON.stringify({ calendarId: calendar.id, change: asOf, epoch: calendar.tokenEpoch } satisfies SyncCursor),
            ).toString('base64url'),
          }),
    };
  }

  /** Incremental listing: every stored event (deleted ones too) changed after the token and by the first page. */
  private listChanges(calendar: FakeCalendar, query: Record<string, string | string[]>, syncToken: string, offset: number, asOf: number) {
    for (const name of [
      'timeMin',
      'timeMax',
      'orderBy',
      'privateExtendedProperty',
      'sharedExtendedProperty',
      'q',
      'updatedMin',
      'iCalUID',
    ]) {
      if (query[name] !== undefined) throw apiError(400, 'invalid', `The ${name} parameter cannot be used with a sync token.`);
    }
    let cursor: SyncCursor;
    try {
      cursor = JSON.parse(Buffer.from(syncToken, 'base64url').toString('utf8')) as SyncCursor;
    } catch {
      throw apiError(400, 'invalid', 'Invalid sync token value.');
    }
    if (cursor.calendarId !== calendar.id || typeof cursor.change !== 'number') throw apiError(400, 'invalid', 'Invalid sync token value.');
    if (cursor.epoch < calendar.tokenEpoch)
      throw apiError(410, 'fullSyncRequired', 'Sync token is no longer valid, a full sync is required.', 'calendar');
    const items = [...calendar.events.entries()]
      .map(([id, e]) => ({ e, at: calendar.changedAt.get(id) ?? 0 }))
      .filter(({ at }) => at > cursor.change && at <= asOf)
      .sort((a, b) => a.at - b.at)
      .map(({ e }) => e);
    const one = (name: string) => (Array.isArray(query[name]) ? (query[name] as string[])[0] : (query[name] as string | undefined));
    return this.page(calendar, items, offset, Number(one('maxResults') ?? 250), asOf);
  }

  // --- change notifications --------------------------------------------------------------------

  private watch(calendar: FakeCalendar, body: unknown, principal: string) {
    const request = (body ?? {}) as calendar_v3.Schema$Channel;
    if (request.type !== 'web_hook' && request.type !== 'webhook') throw apiError(400, 'invalid', 'Unknown channel type.');
    if (!request.id || !CHANNEL_ID.test(request.id)) throw apiError(400, 'invalid', 'Invalid channel id.');
    if (this.channels.has(request.id)) throw apiError(400, 'channelIdNotUnique', `Channel id ${request.id} not unique`, 'push');
    const address = request.address ?? '';
    if (!address.startsWith('https://'))
      throw apiError(400, 'push.webhookUrlNotHttps', `WebHook callback must be HTTPS: ${address}`, 'global');
    const now = Date.now();
    const asked = request.expiration ? Number(request.expiration) : now + DEFAULT_CHANNEL_TTL_MS;
    const channel: FakeChannel = {
      id: request.id,
      token: request.token ?? null,
      address,
      calendarId: calendar.id,
      resourceId: calendar.resourceId,
      principal,
      expiration: Math.min(asked, now + MAX_CHANNEL_TTL_MS),
      stopped: false,
      messageNumber: 0,
    };
    this.channels.set(channel.id, channel);
    this.send(channel, 'sync');
    return {
      kind: 'api#channel',
      id: channel.id,
      resourceId: channel.resourceId,
      resourceUri: this.resourceUri(calendar.id),
      ...(channel.token ? { token: channel.token } : {}),
      expiration: String(channel.expiration),
    };
  }

  private stopChannel(body: unknown, principal: string) {
    const { id, resourceId } = (body ?? {}) as calendar_v3.Schema$Channel;
    const channel = id ? this.channels.get(id) : undefined;
    if (!channel || channel.stopped || channel.resourceId !== resourceId || channel.principal !== principal) {
      throw apiError(404, 'notFound', `Channel '${id}' not found for project '${this.options.clientId}'`);
    }
    channel.stopped = true;
    return null;
  }

  private resourceUri(calendarId: string) {
    return `https://www.googleapis.com/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events?alt=json`;
  }

  /** An event of the calendar changed: every live channel on it gets an `exists` message. */
  private changed(calendar: FakeCalendar) {
    const now = Date.now();
    for (const channel of this.channels.values()) {
      if (channel.calendarId === calendar.id && !channel.stopped && channel.expiration > now) this.send(channel, 'exists');
    }
  }

  /** POSTs one message after the current answer, as Google does: headers only, no body; one channel's messages in order. */
  private send(channel: FakeChannel, state: 'sync' | 'exists') {
    const messageNumber = ++channel.messageNumber;
    const route = this.pushRoutes.find((r) => channel.address.startsWith(r.from));
    const url = route ? route.to + channel.address.slice(route.from.length) : channel.address;
    const record: PushDelivery = { channelId: channel.id, state, messageNumber, url, status: null, dropped: false };
    this.pushes.push(record);
    if (state !== 'sync' && this.dropPushes) {
      record.dropped = true;
      return;
    }
    const headers: Record<string, string> = {
      'X-Goog-Channel-ID': channel.id,
      'X-Goog-Channel-Expiration': new Date(channel.expiration).toUTCString(),
      'X-Goog-Resource-ID': channel.resourceId,
      'X-Goog-Resource-URI': this.resourceUri(channel.calendarId),
      'X-Goog-Resource-State': state,
      'X-Goog-Message-Number': String(messageNumber),
    };
    if (channel.token) headers['X-Goog-Channel-Token'] = channel.token;
    const previous = this.lastDelivery.get(channel.id) ?? new Promise<void>((resolve) => setImmediate(resolve));
    const delivery: Promise<void> = previous
      .then(() => fetch(url, { method: 'POST', headers, signal: AbortSignal.timeout(10_000) }))
      .then(
        async (response) => {
          record.status = response.status;
          await response.arrayBuffer();
        },
        () => {
          record.status = null;
        },
      )
      .finally(() => {
        this.deliveries.delete(delivery);
        if (this.lastDelivery.get(channel.id) === delivery) this.lastDelivery.delete(channel.id);
      });
    this.deliveries.add(delivery);
    this.lastDelivery.set(channel.id, delivery);
  }

  private freeBusy(body: calendar_v3.Schema$FreeBusyRequest, principal: string) {
    const from = Temporal.Instant.from(body.timeMin!);
    const to = Temporal.Instant.from(body.timeMax!);
    const calendars: Record<string, calendar_v3.Schema$FreeBusyCalendar> = {};
    for (const item of body.items ?? []) {
      const id = item.id!;
      let calendar: FakeCalendar;
      try {
        calendar = this.open(id, principal, 'freeBusy').calendar;
      } catch {
        calendars[id] = { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] };
        continue;
      }
      const spans = this.eventsIn(calendar, from, to, true)
        .filter((e) => e.transparency !== 'transparent')
        .map((e) => {
          const start = instantOf(e.start as never, calendar.timeZone);
          const end = instantOf(e.end as never, calendar.timeZone);
          return { start: cmp(start, from) > 0 ? start : from, end: cmp(end, to) < 0 ? end : to };
        })
        .sort((a, b) => cmp(a.start, b.start));
      const busy: { start: Temporal.Instant; end: Temporal.Instant }[] = [];
      for (const s of spans) {
        const last = busy.at(-1);
        if (last && cmp(s.start, last.end) < 0) last.end = cmp(s.end, last.end) > 0 ? s.end : last.end;
        else busy.push({ ...s });
      }
      calendars[id] = { busy: busy.map((b) => ({ start: b.start.toString(), end: b.end.toString() })) };
    }
    return { kind: 'calendar#freeBusy', timeMin: body.timeMin, timeMax: body.timeMax, calendars };
  }
}
