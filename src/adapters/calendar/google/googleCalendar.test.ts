import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGoogleCalendarServer } from '../../../../tests/fakes/fakeGoogleCalendarServer.ts';
import { calendarContract } from '../calendar.contract.ts';
import { type CalendarError, type CalendarTarget, calendarEventId, type OAuthTokens } from '../calendarPort.ts';
import { GoogleCalendar, readServiceAccountKey, toCalendarError } from './googleCalendar.ts';

const oauthClient = { clientId: 'client-123.apps.googleusercontent.com', clientSecret: 'GOCSPX-secret' };
const serviceAccountEmail = 'topmark-calendar@topmark-prod.iam.gserviceaccount.com';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privateKeyPem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicKeyPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();

const oauthTarget = (email: string, tokens: OAuthTokens, onTokensRefreshed?: (t: OAuthTokens) => Promise<void> | void): CalendarTarget => ({
  ownerId: email,
  calendarId: 'primary',
  credentials: { kind: 'oauth', tokens, ...(onTokensRefreshed ? { onTokensRefreshed } : {}) },
});

calendarContract('google (a local server speaking the Calendar API)', async () => {
  const fake = await FakeGoogleCalendarServer.start({ ...oauthClient });
  const port = new GoogleCalendar({ oauthClient, rootUrl: fake.rootUrl, tokenUrl: fake.tokenUrl });
  return {
    port,
    async connect() {
      const email = `tutor-${randomUUID()}@example.com`;
      return { target: oauthTarget(email, fake.addUser(email)), email, ownerKey: email };
    },
    revoke: async (email) => fake.revoke(email),
    dispose: () => fake.close(),
  };
});

describe('google calendar adapter', () => {
  let fake: FakeGoogleCalendarServer;
  let port: GoogleCalendar;
  beforeAll(async () => {
    fake = await FakeGoogleCalendarServer.start({ ...oauthClient, serviceAccount: { email: serviceAccountEmail, publicKeyPem } });
    port = new GoogleCalendar({
      oauthClient,
      serviceAccount: { email: serviceAccountEmail, privateKey: privateKeyPem },
      rootUrl: fake.rootUrl,
      tokenUrl: fake.tokenUrl,
    });
  });
  afterAll(async () => fake.close());

  const user = () => {
    const email = `tutor-${randomUUID()}@example.com`;
    return { email, tokens: fake.addUser(email) };
  };
  const failure = async (p: Promise<unknown>) =>
    (await p.then(
      () => null,
      (e: unknown) => e,
    )) as CalendarError | null;
  const day = { from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z' };

  it('asks for Meet with conferenceDataVersion=1 and a hangoutsMeet create request under the caller’s ids', async () => {
    const { email, tokens } = user();
    const calendar = port.calendar(oauthTarget(email, tokens));
    const eventId = calendarEventId('session', 's-1');
    fake.requests.length = 0;
    const created = await calendar.createEvent(
      eventId,
      {
        summary: 'Session',
        start: { dateTime: '2026-03-11T10:00:00', timeZone: 'America/New_York' },
        end: { dateTime: '2026-03-11T11:00:00', timeZone: 'America/New_York' },
        attendees: [{ email: 'student@example.com' }],
        conference: { requestId: 'meet-s-1' },
      },
      { sendUpdates: 'all' },
    );
    const [insert] = fake.calendarRequests();
    expect(insert).toMatchObject({
      method: 'POST',
      path: '/calendar/v3/calendars/primary/events',
      query: { conferenceDataVersion: '1', sendUpdates: 'all' },
      body: {
        id: eventId,
        conferenceData: { createRequest: { requestId: 'meet-s-1', conferenceSolutionKey: { type: 'hangoutsMeet' } } },
        attendees: [{ email: 'student@example.com' }],
      },
      authorization: `Bearer ${tokens.accessToken}`,
    });
    expect(created.meetingLink).toMatch(/^https:\/\/meet\.google\.com\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
    expect(created.htmlLink).toContain(eventId);
  });

  it('lists with singleEvents=true ordered by start time, and follows every page', async () => {
    const { email, tokens } = user();
    const calendar = port.calendar(oauthTarget(email, tokens));
    await calendar.createEvent(calendarEventId('weekly', email), {
      summary: 'Topmark Hours',
      start: { dateTime: '2026-03-02T09:00:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-03-02T10:00:00', timeZone: 'America/New_York' },
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TU;COUNT=7'],
    });
    fake.requests.length = 0;
    expect(await calendar.listEvents({ ...day, privateProperty: { key: 'topmark', value: 'hours' } })).toEqual([]);
    expect(fake.calendarRequests()[0]!.query.privateExtendedProperty).toBe('topmark=hours');
    fake.requests.length = 0;
    const events = await calendar.listEvents(day);
    expect(events).toHaveLength(7);
    const lists = fake.calendarRequests();
    // Page tokens are the server's own (the fake's name the offset): each page asks for the one the page before gave.
    expect(lists.map((r) => String(r.query.pageToken ?? null).split('~')[0])).toEqual(['null', '3', '6']);
    expect(lists[0]!.query).toMatchObject({
      singleEvents: 'true',
      orderBy: 'startTime',
      showDeleted: 'false',
      maxResults: '2500',
      timeMin: '2026-03-01T00:00:00Z',
      timeMax: '2026-04-01T00:00:00Z',
    });
    const masters = await calendar.listEvents({ ...day, expand: false });
    expect(masters).toHaveLength(1);
    expect(fake.calendarRequests().at(-1)!.query).toMatchObject({ singleEvents: 'false' });
    expect(fake.calendarRequests().at(-1)!.query.orderBy).toBeUndefined();
  });

  it('refreshes an expired access token first, hands the new tokens to the caller, and uses them', async () => {
    const email = `tutor-${randomUUID()}@example.com`;
    const granted = fake.addUser(email, { accessTokenTtlMs: -60_000 });
    const reported: OAuthTokens[] = [];
    const calendar = port.calendar(
      oauthTarget(email, granted, async (t) => {
        await new Promise((r) => setTimeout(r, 20));
        reported.push(t);
      }),
    );
    fake.requests.length = 0;
    expect(await calendar.listEvents(day)).toEqual([]);
    // Reported (and awaited) before the call returned.
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ refreshToken: granted.refreshToken, accessToken: expect.stringMatching(/^ya29\./) });
    expect(reported[0]!.accessToken).not.toBe(granted.accessToken);
    expect(reported[0]!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    expect(fake.requests.map((r) => r.path)).toEqual(['/token', '/calendar/v3/calendars/primary/events']);
    expect(fake.requests[0]!.body).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: granted.refreshToken,
      client_id: oauthClient.clientId,
    });
    expect(fake.requests[1]!.authorization).toBe(`Bearer ${reported[0]!.accessToken}`);
    // The next call reuses the new token.
    await calendar.listEvents(day);
    expect(reported).toHaveLength(1);
  });

  it('refreshes once when Google refuses an access token that has not expired yet', async () => {
    const { email, tokens } = user();
    fake.dropAccessTokens(email);
    const reported: OAuthTokens[] = [];
    const calendar = port.calendar(oauthTarget(email, tokens, (t) => void reported.push(t)));
    expect(await calendar.status()).toMatchObject({ accessible: true, email, reason: null, timeZone: 'America/New_York' });
    expect(reported).toHaveLength(1);
  });

  it('tells a revoked grant (invalid_grant) apart, and refreshes nothing', async () => {
    const { email, tokens } = user();
    fake.revoke(email);
    const reported: OAuthTokens[] = [];
    const calendar = port.calendar(oauthTarget(email, tokens, (t) => void reported.push(t)));
    expect(await calendar.status()).toEqual({ accessible: false, email: null, isConnected: true, timeZone: null, reason: 'invalid_grant' });
    const error = await failure(
      calendar.createEvent(calendarEventId('x', email), {
        summary: 'x',
        start: { dateTime: '2026-03-10T15:00:00Z' },
        end: { dateTime: '2026-03-10T16:00:00Z' },
      }),
    );
    expect(error).toMatchObject({ reason: 'invalid_grant', needsReauthorisation: true, retryable: false });
    expect(error?.message).toContain('Token has been expired or revoked');
    expect(reported).toEqual([]);
  });

  it('fails the call when recording the refreshed tokens fails', async () => {
    const email = `tutor-${randomUUID()}@example.com`;
    const calendar = port.calendar(
      oauthTarget(email, fake.addUser(email, { accessTokenTtlMs: -60_000 }), async () => {
        throw new Error('vault unavailable');
      }),
    );
    await expect(calendar.listEvents(day)).rejects.toThrow('vault unavailable');
  });

  it('without credentials is not connected', async () => {
    const calendar = port.calendar({ ownerId: 't', calendarId: 'primary', credentials: { kind: 'none' } });
    expect(await calendar.status()).toEqual({
      accessible: false,
      email: null,
      isConnected: false,
      timeZone: null,
      reason: 'not_connected',
    });
    expect((await failure(calendar.listEvents(day)))?.reason).toBe('not_connected');
    const noTokens = port.calendar(oauthTarget('t', { accessToken: null, refreshToken: null, expiresAt: null }));
    expect((await noTokens.status()).isConnected).toBe(false);
    const noClient = new GoogleCalendar({ rootUrl: fake.rootUrl }).calendar({
      ownerId: 't',
      calendarId: 'x@example.com',
      credentials: { kind: 'serviceAccount' },
    });
    expect((await noClient.status()).reason).toBe('not_connected');
  });

  it('reaches a calendar shared with the service account (signed JWT grant), and says when it is not shared or read-only', async () => {
    const { email } = user();
    const target: CalendarTarget = { ownerId: email, calendarId: email, credentials: { kind: 'serviceAccount' } };
    const calendar = port.calendar(target);
    expect(port.serviceAccountEmail).toBe(serviceAccountEmail);
    expect(await calendar.status()).toEqual({ accessible: false, email, isConnected: true, timeZone: null, reason: 'not_found' });

    fake.share(email, serviceAccountEmail, 'reader');
    const readOnly = await failure(
      calendar.createEvent(calendarEventId('sa', email), {
        summary: 'x',
        start: { dateTime: '2026-03-10T15:00:00Z' },
        end: { dateTime: '2026-03-10T16:00:00Z' },
      }),
    );
    expect(readOnly).toMatchObject({ reason: 'forbidden', message: expect.stringContaining('writer access') });

    fake.share(email, serviceAccountEmail, 'writer');
    expect(await calendar.status()).toEqual({ accessible: true, email, isConnected: true, timeZone: 'America/New_York', reason: null });
    const created = await calendar.createEvent(calendarEventId('sa', email), {
      summary: 'Shared',
      start: { dateTime: '2026-03-10T15:00:00Z' },
      end: { dateTime: '2026-03-10T16:00:00Z' },
    });
    expect(created.summary).toBe('Shared');
    expect(await calendar.freeBusy(day)).toEqual([{ start: '2026-03-10T15:00:00Z', end: '2026-03-10T16:00:00Z' }]);
    expect(
      fake.requests.some(
        (r) => r.path === '/token' && (r.body as { grant_type?: string }).grant_type === 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      ),
    ).toBe(true);
    // The tutor's own view, with their tokens, shows the event the service account wrote.
    expect(fake.calendarRequests().at(-1)!.authorization).toMatch(/^Bearer ya29\./);
  });

  it('reports a calendar the tutor can only read as not accessible (forbidden)', async () => {
    const owner = user();
    const viewer = user();
    fake.share(owner.email, viewer.email, 'reader');
    const calendar = port.calendar({ ...oauthTarget(viewer.email, viewer.tokens), calendarId: owner.email });
    expect(await calendar.status()).toMatchObject({ accessible: false, email: owner.email, reason: 'forbidden' });
  });

  it('reports a conference still being made as pending, without a link', async () => {
    const { email, tokens } = user();
    fake.conferenceStatus = 'pending';
    try {
      const created = await port.calendar(oauthTarget(email, tokens)).createEvent(calendarEventId('pending', email), {
        summary: 'x',
        start: { dateTime: '2026-03-10T15:00:00Z' },
        end: { dateTime: '2026-03-10T16:00:00Z' },
        conference: { requestId: 'r-pending' },
      });
      expect(created.meetingLink).toBeNull();
      expect(created.conference).toEqual({ requestId: 'r-pending', status: 'pending' });
    } finally {
      fake.conferenceStatus = 'success';
    }
  });

  it('maps Google’s failures to reasons a job can act on', async () => {
    const { email, tokens } = user();
    const calendar = port.calendar(oauthTarget(email, tokens));
    const cases: [number, unknown, string, boolean][] = [
      [429, { error: { code: 429, message: 'Rate Limit Exceeded', errors: [{ reason: 'rateLimitExceeded' }] } }, 'rate_limited', true],
      [403, { error: { code: 403, message: 'Rate Limit Exceeded', errors: [{ reason: 'userRateLimitExceeded' }] } }, 'rate_limited', true],
      [
        403,
        { error: { code: 403, message: 'Calendar usage limits exceeded.', errors: [{ reason: 'quotaExceeded' }] } },
        'rate_limited',
        true,
      ],
      [500, { error: { code: 500, message: 'Backend Error', errors: [{ reason: 'backendError' }] } }, 'unavailable', true],
      [503, 'Service Unavailable', 'unavailable', true],
      [400, { error: { code: 400, message: 'Bad Request', errors: [{ reason: 'badRequest' }] } }, 'invalid', false],
    ];
    for (const [status, body, reason, retryable] of cases) {
      fake.failures.push({ path: /\/events$/, status, body });
      const error = await failure(calendar.listEvents(day));
      expect(error, `${status} ${JSON.stringify(body)}`).toMatchObject({ name: 'CalendarError', reason, retryable });
    }
    const offline = new GoogleCalendar({ oauthClient, rootUrl: 'http://127.0.0.1:9/', tokenUrl: fake.tokenUrl, timeoutMs: 2000 });
    expect((await failure(offline.calendar(oauthTarget(email, tokens)).listEvents(day)))?.reason).toBe('unavailable');
    expect(toCalendarError(new Error('boom'), 'x').reason).toBe('unavailable');
  });

  it('reads GOOGLE_SERVICE_ACCOUNT_KEY as a PEM (escaped newlines too) or a JSON key file', () => {
    const escaped = privateKeyPem.replace(/\n/g, '\\n');
    expect(readServiceAccountKey(escaped, serviceAccountEmail)).toEqual({ email: serviceAccountEmail, privateKey: privateKeyPem });
    const json = JSON.stringify({ type: 'service_account', client_email: serviceAccountEmail, private_key: privateKeyPem });
    expect(readServiceAccountKey(json)).toEqual({ email: serviceAccountEmail, privateKey: privateKeyPem });
    expect(() => readServiceAccountKey(privateKeyPem)).toThrow('GOOGLE_SERVICE_ACCOUNT_EMAIL');
  });
});
