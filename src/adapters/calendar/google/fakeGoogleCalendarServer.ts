import { createHash, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { calendar_v3 } from '@googleapis/calendar';
import { Temporal } from 'temporal-polyfill';
import { basicUtc, occurrencesBetween } from '../../../domain/calendar/recurrence.ts';
import { isValidEventId, splitInstanceId } from '../calendarPort.ts';
import { checkTimes, instantOf, isAllDay, presentTime, wallClockOf, withOffset, zoneOf } from '../calendarTime.ts';

/**
 * Test support: a local server speaking the Google Calendar API v3 wire format and Google's OAuth
 * token endpoint, for the Google adapter's tests (`rootUrl`). It keeps calendars in memory and
 * answers as Google does: events.list with `singleEvents` expansion (instance ids
 * `<id>_<UTC start>`, `orderBy=startTime`, pages), events.insert with client-chosen ids (409
 * "duplicate", also for a deleted id) and Meet links only under `conferenceDataVersion=1`,
 * events.get/patch/delete (410 for a deleted event, exceptions for single occurrences),
 * freeBusy.query, calendars.get, calendarList.get, refresh-token and service-account (JWT bearer)
 * grants, revoked grants (`invalid_grant`), and Google's error bodies.
 */

type GEvent = calendar_v3.Schema$Event;
type Role = 'owner' | 'writer' | 'reader' | 'freeBusyReader';

interface FakeCalendar {
  id: string;
  timeZone: string;
  acl: Map<string, Role>;
  events: Map<string, GEvent>;
}

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

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** A Google account with its primary calendar, and tokens as a consent would grant them. */
  addUser(email: string, options: { timeZone?: string; accessTokenTtlMs?: number } = {}) {
    this.calendars.set(email, { id: email, timeZone: options.timeZone ?? 'America/New_York', acl: new Map(), events: new Map() });
    const refreshToken = `1//refresh-${randomBytes(8).toString('hex')}`;
    this.refreshTokens.set(refreshToken, { email, revoked: false });
    const ttl = options.accessTokenTtlMs ?? 3_600_000;
    const accessToken = this.issueAccessToken(email, ttl);
    return { accessToken, refreshToken, expiresAt: new Date(Date.now() + ttl) };
  }

  share(calendarId: string, withEmail: string, role: Role) {
    this.calendars.get(calendarId)!.acl.set(withEmail, role);
  }

  /** The user withdrew the grant (or it expired): refresh tokens and access tokens stop working. */
  revoke(email: string) {
    for (const grant of this.refreshTokens.values()) if (grant.email === email) grant.revoked = true;
    for (const [token, owner] of this.accessTokens) if (owner.email === email) this.accessTokens.delete(token);
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
    if (resource !== 'calendars' || !calendarId) throw notFound();
    if (!sub) {
      const { calendar } = this.open(calendarId, principal, 'read');
      return { kind: 'calendar#calendar', id: calendar.id, summary: calendar.id, timeZone: calendar.timeZone };
    }
    if (sub !== 'events') throw notFound();
    const one = (name: string) => (Array.isArray(query[name]) ? (query[name] as string[])[0] : (query[name] as string | undefined));
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
        status: 'confirmed',
        created: now,
        updated: now,
        htmlLink: `https://www.google.com/calendar/event?eid=${id}`,
        attendees: body.attendees?.map((a) => ({ responseStatus: 'needsAction', ...a })),
      },
      conferenceData,
      conferenceDataVersion,
    );
    calendar.events.set(id, event);
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
    calendar.events.set(eventId, next);
    return this.present(calendar, next);
  }

  private remove(calendar: FakeCalendar, eventId: string) {
    const stored = calendar.events.get(eventId);
    if (stored?.status === 'cancelled') throw apiError(410, 'deleted', 'Resource has been deleted');
    if (stored) {
      for (const [id, e] of calendar.events)
        if (id === eventId || e.recurringEventId === eventId) calendar.events.set(id, { ...e, status: 'cancelled' });
      return null;
    }
    const instance = this.instanceById(calendar, eventId);
    if (!instance) throw notFound();
    calendar.events.set(eventId, { ...instance, status: 'cancelled' });
    return null;
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
    const offset = Number(one('pageToken') ?? 0);
    const size = Math.min(Number(one('maxResults') ?? 250), this.options.pageSize ?? 3);
    const page = items.slice(offset, offset + size).map((e) => this.present(calendar, e));
    return {
      kind: 'calendar#events',
      summary: calendar.id,
      timeZone: calendar.timeZone,
      items: page,
      ...(offset + size < items.length ? { nextPageToken: String(offset + size) } : {}),
    };
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
