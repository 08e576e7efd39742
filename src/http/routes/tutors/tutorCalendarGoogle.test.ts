import { generateKeyPairSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeGoogleCalendarServer } from '../../../../tests/fakes/fakeGoogleCalendarServer.ts';
import { createTestSystem, type TestSystem } from '../../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor } from '../../../../tests/support/tutors.ts';
import type { OAuthTokens } from '../../../adapters/calendar/calendarPort.ts';
import { GoogleCalendar } from '../../../adapters/calendar/google/googleCalendar.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { openTutorCalendar, tutorCalendarTarget } from '../../../commands/tutors/tutorCalendar.ts';
import { userStreamId } from '../../../domain/accounts/user.ts';
import { tutorStreamId } from '../../../domain/tutors/tutor.ts';
import { availabilityEntrySchema, calendarStatusSchema } from '../../../domain/tutors/tutorApi.ts';
import { openAlerts } from '../../../projections/operations/alerts/queries.ts';
import { buildApp } from '../../app.ts';
import { MANAGE_IN_GOOGLE } from './tutorCalendarEventsRoutes.ts';

/** The tutor calendar routes on the Google adapter, against a local server speaking Google's wire format. */
const oauthClient = { clientId: 'client-123.apps.googleusercontent.com', clientSecret: 'GOCSPX-secret' };
const serviceAccountEmail = 'topmark-calendar@topmark-test.iam.gserviceaccount.com';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
let fake: FakeGoogleCalendarServer;
let system: TestSystem;
let app: FastifyInstance;
beforeAll(async () => {
  fake = await FakeGoogleCalendarServer.start({
    ...oauthClient,
    serviceAccount: { email: serviceAccountEmail, publicKeyPem: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString() },
  });
  system = await createTestSystem(
    'all',
    {},
    { calendar: new GoogleCalendar({ oauthClient, rootUrl: fake.rootUrl, tokenUrl: fake.tokenUrl }) },
  );
  app = await buildApp(system, { logger: false });
});
afterAll(async () => {
  await app?.close();
  await system?.dispose();
  await fake?.close();
});

const weekdays = [
  { dayOfWeek: 2, startTime: '16:00', endTime: '19:00' },
  { dayOfWeek: 4, startTime: '16:00', endTime: '19:00' },
];
const get = (tutor: ApprovedTutor, url: string) => app.inject({ method: 'GET', url, headers: { cookie: tutor.cookie } });
const status = async (tutor: ApprovedTutor) =>
  calendarStatusSchema.parse((await get(tutor, `/api/tutor/${tutor.tutorId}/calendar-status`)).json());
const typesOf = async (streamId: string) => (await system.store.readStream(streamId)).map((e) => e.type);

/** What Google sign-in records for an approved tutor: the tokens linked, sealed, on the user stream. */
async function linkTokens(tutor: ApprovedTutor, n: string, tokens: OAuthTokens) {
  await system.accounts.handlers.users.handle(
    tutor.userId,
    {
      type: 'LinkGoogleAccount',
      data: {
        userId: tutor.userId,
        googleId: `google-tutor-${n}`,
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        tokenExpiry: tokens.expiresAt?.toISOString() ?? null,
        emailVerifiedByProvider: true,
        matchedBy: 'google',
      },
    },
    commandContext({ now: system.clock.now() }),
  );
}

describe('a tutor’s Google calendar', () => {
  let tutor: ApprovedTutor;
  beforeAll(async () => {
    tutor = await approvedTutor(system, 'g1');
    // An access token that has already expired: the first call refreshes it.
    await linkTokens(tutor, 'g1', fake.addUser(tutor.email, { accessTokenTtlMs: -60_000 }));
  });

  it('refreshes expired tokens and records the new ones sealed on the user stream', async () => {
    expect(await status(tutor)).toEqual({
      accessible: true,
      email: tutor.email,
      isConnected: true,
      hasAvailability: false,
      needsReauthorisation: false,
      serviceAccountEmail: null,
      provider: 'google',
    });
    const refreshed = (await system.store.readStream(userStreamId(tutor.userId))).filter((e) => e.type === 'GoogleTokensRefreshed');
    expect(refreshed.length).toBeGreaterThanOrEqual(1);
    const opened = refreshed.at(-1)!.data as { accessToken: string; refreshToken: string };
    expect(opened.accessToken).toMatch(/^ya29\./);
    const sealed = (await system.rawStore.readStream(userStreamId(tutor.userId))).find((e) => e.id === refreshed.at(-1)!.id)!;
    expect(JSON.stringify(sealed.data)).not.toContain(opened.accessToken);
    expect(JSON.stringify(sealed.data)).not.toContain(opened.refreshToken);
    // The next call starts from the recorded tokens: no second refresh.
    fake.requests.length = 0;
    await status(tutor);
    expect(fake.requests.filter((r) => r.path === '/token')).toEqual([]);
  });

  it('writes weekly hours to Google and reads them back; the tutor’s other events are managed in Google', async () => {
    const saved = await app.inject({
      method: 'POST',
      url: '/api/tutor/availability',
      headers: { cookie: tutor.cookie },
      payload: { availability: weekdays, timezone: 'America/Vancouver' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const read = availabilityEntrySchema.array().parse((await get(tutor, '/api/tutor/availability')).json());
    expect(read.map(({ dayOfWeek, startTime, endTime, timezone }) => ({ dayOfWeek, startTime, endTime, timezone }))).toEqual(
      weekdays.map((w) => ({ ...w, timezone: 'America/Vancouver' })),
    );
    const inserts = fake.calendarRequests().filter((r) => r.method === 'POST' && r.path.endsWith('/events'));
    expect(inserts).toHaveLength(1);
    expect(inserts[0]!.body).toMatchObject({ summary: 'Topmark Hours', transparency: 'transparent' });
    expect((await status(tutor)).hasAvailability).toBe(true);

    // The calendar events API is the sandbox's: on Google every call is a 409, and Google hears nothing.
    const before = fake.calendarRequests().length;
    const [hours] = inserts;
    const seriesId = String((hours!.body as { id?: string }).id);
    const event = {
      summary: 'Dentist',
      start: { dateTime: '2026-09-01T10:00:00', timeZone: 'America/Vancouver' },
      end: { dateTime: '2026-09-01T11:00:00', timeZone: 'America/Vancouver' },
    };
    for (const [method, url, payload] of [
      ['GET', '/api/tutor/calendar/events', undefined],
      ['GET', `/api/tutor/calendar/events/${seriesId}`, undefined],
      ['POST', '/api/tutor/calendar/events', event],
      ['PATCH', `/api/tutor/calendar/events/${seriesId}`, { summary: 'Renamed' }],
      ['DELETE', `/api/tutor/calendar/events/${seriesId}`, undefined],
    ] as const) {
      const res = await app.inject({ method, url, headers: { cookie: tutor.cookie }, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(409);
      expect(res.json().message).toBe(MANAGE_IN_GOOGLE);
    }
    const writes = fake
      .calendarRequests()
      .slice(before)
      .filter((r) => r.method === 'PATCH' || r.method === 'DELETE' || r.path.endsWith('/events'));
    expect(writes.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('a revoked grant (invalid_grant) asks to authorise again, records the loss and raises an alert; new tokens restore it', async () => {
    fake.revoke(tutor.email);
    // Access tokens are gone too: the adapter must refresh, and Google answers invalid_grant.
    expect(await status(tutor)).toMatchObject({ accessible: false, isConnected: true, needsReauthorisation: true, hasAvailability: true });
    expect(await typesOf(tutorStreamId(tutor.tutorId))).toContain('TutorCalendarAccessLost');
    const lost = (await system.store.readStream(tutorStreamId(tutor.tutorId))).find((e) => e.type === 'TutorCalendarAccessLost');
    expect(lost?.data).toMatchObject({ reason: 'invalid_grant' });
    const failed = await get(tutor, '/api/tutor/availability');
    expect(failed.statusCode).toBe(502);
    expect(failed.json().message).toMatch(/^Failed to fetch availability/);

    // The alerts read model follows the log: wait for it rather than for a position.
    const alert = await vi.waitFor(
      async () => {
        const found = (await openAlerts(system.sql)).find((a) => a.type === 'calendar_invalid_grant' && a.user_id === tutor.userId);
        if (!found) throw new Error('no alert yet');
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(alert).toMatchObject({ severity: 'high' });

    // The next Google sign-in links fresh tokens; the next status check records the access back.
    await linkTokens(tutor, 'g1', fake.addUser(tutor.email));
    expect(await status(tutor)).toMatchObject({ accessible: true, needsReauthorisation: false });
    expect(await typesOf(tutorStreamId(tutor.tutorId))).toContain('TutorCalendarAccessRestored');
    await vi.waitFor(async () => expect((await openAlerts(system.sql)).find((a) => a.id === alert.id)).toBeUndefined(), {
      timeout: 10_000,
      interval: 50,
    });
  });

  it('without tokens the tutor must authorise Google', async () => {
    const other = await approvedTutor(system, 'g2');
    expect(await status(other)).toMatchObject({ accessible: false, isConnected: false, needsReauthorisation: true, provider: 'google' });
    expect(await typesOf(tutorStreamId(other.tutorId))).not.toContain('TutorCalendarAccessLost');
  });

  it('without tokens, reaches the calendar the tutor shared with the service account (their address)', async () => {
    const port = new GoogleCalendar({
      oauthClient,
      serviceAccount: { email: serviceAccountEmail, privateKey: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
      rootUrl: fake.rootUrl,
      tokenUrl: fake.tokenUrl,
    });
    const shared = await approvedTutor(system, 'g3');
    fake.addUser(shared.email);
    const deps = { store: system.store, calendar: port, clock: system.clock };
    expect((await tutorCalendarTarget(deps, shared.tutorId)).target).toEqual({
      ownerId: shared.tutorId,
      calendarId: shared.email,
      credentials: { kind: 'serviceAccount' },
    });
    const { calendar } = await openTutorCalendar(deps, shared.tutorId);
    expect(await calendar.status()).toMatchObject({ accessible: false, reason: 'not_found' });
    fake.share(shared.email, serviceAccountEmail, 'writer');
    expect(await calendar.status()).toMatchObject({ accessible: true, email: shared.email, reason: null });
  });
});
