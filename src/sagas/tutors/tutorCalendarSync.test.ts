import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeGoogleCalendarServer } from '../../../tests/fakes/fakeGoogleCalendarServer.ts';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor } from '../../../tests/support/tutors.ts';
import {
  type CalendarPort,
  type CalendarTarget,
  calendarEventId,
  type OAuthTokens,
  type TutorCalendar,
  type WatchableCalendar,
} from '../../adapters/calendar/calendarPort.ts';
import { type CalendarWatch, calendarWatches, channelTokens } from '../../adapters/calendar/calendarWatches.ts';
import { GoogleCalendar } from '../../adapters/calendar/google/googleCalendar.ts';
import { commandContext } from '../../commands/kit/commandContext.ts';
import { GOOGLE_CALENDAR_NOTIFICATIONS_PATH, pushAddressOf } from '../../commands/tutors/calendarSync.ts';
import { tutorStreamId } from '../../domain/tutors/tutor.ts';
import { calendarStatusSchema } from '../../domain/tutors/tutorApi.ts';
import { buildApp } from '../../http/app.ts';
import { openAlerts } from '../../projections/operations/alerts/queries.ts';
import { CALENDAR_SWEEP_CRON, TUTOR_CALENDAR_SWEEP_QUEUE, TUTOR_CALENDAR_SYNC_QUEUE } from './tutorCalendarSyncSaga.ts';

/**
 * Calendars that stay in sync by themselves: the whole system (API, reactors, workers) on a fresh
 * database with the Google adapter against the local server speaking Google's wire format, whose
 * push messages reach the app on a real port (PUBLIC_URL is https, as Google requires; the fake
 * routes that address to the local listener).
 */
const oauthClient = { clientId: 'client-123.apps.googleusercontent.com', clientSecret: 'GOCSPX-secret' };
const PUBLIC_URL = 'https://topmark.test';
/** The sync's incremental listing takes this long here, so that two at once would overlap and be seen. */
const LISTING_DELAY_MS = 100;

/** The Google port, with every tutor's incremental listings counted and their overlap measured. */
function countingPort(inner: CalendarPort) {
  const stats = new Map<string, { calls: number; inFlight: number; maxInFlight: number }>();
  const statsOf = (ownerId: string) => {
    const held = stats.get(ownerId) ?? { calls: 0, inFlight: 0, maxInFlight: 0 };
    stats.set(ownerId, held);
    return held;
  };
  const port: CalendarPort = {
    kind: inner.kind,
    serviceAccountEmail: inner.serviceAccountEmail,
    calendar(target: CalendarTarget): TutorCalendar {
      const calendar = inner.calendar(target);
      const watching = calendar.watching as WatchableCalendar;
      return {
        watching: {
          watch: (request) => watching.watch(request),
          stopChannel: (channel) => watching.stopChannel(channel),
          async changesSince(syncToken, options) {
            const s = statsOf(target.ownerId);
            s.calls++;
            s.inFlight++;
            s.maxInFlight = Math.max(s.maxInFlight, s.inFlight);
            try {
              await new Promise((resolve) => setTimeout(resolve, LISTING_DELAY_MS));
              return await watching.changesSince(syncToken, options);
            } finally {
              s.inFlight--;
            }
          },
        },
        status: () => calendar.status(),
        listEvents: (options) => calendar.listEvents(options),
        freeBusy: (window) => calendar.freeBusy(window),
        getEvent: (id) => calendar.getEvent(id),
        createEvent: (id, input, options) => calendar.createEvent(id, input, options),
        updateEvent: (id, patch, options) => calendar.updateEvent(id, patch, options),
        deleteEvent: (id, options) => calendar.deleteEvent(id, options),
      };
    },
  };
  return { port, statsOf };
}

let fake: FakeGoogleCalendarServer;
let system: TestSystem;
let app: FastifyInstance;
let counting: ReturnType<typeof countingPort>;
/** Topmark's adapter, not wired to the revisions: what the tutor does in Google's own UI. */
let googleUi: GoogleCalendar;
/** The sweep's schedule as the worker made it; then taken away, so that only the tests' own sweeps run in their windows. */
let sweepSchedule: { cron: string } | undefined;

beforeAll(async () => {
  fake = await FakeGoogleCalendarServer.start({ ...oauthClient });
  googleUi = new GoogleCalendar({ oauthClient, rootUrl: fake.rootUrl, tokenUrl: fake.tokenUrl });
  counting = countingPort(new GoogleCalendar({ oauthClient, rootUrl: fake.rootUrl, tokenUrl: fake.tokenUrl }));
  system = await createTestSystem('all', { PUBLIC_URL }, { calendar: counting.port });
  app = await buildApp(system, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  fake.routePushes(PUBLIC_URL, `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
  sweepSchedule = (await system.jobs.schedules()).find((s) => s.queue === TUTOR_CALENDAR_SWEEP_QUEUE);
  await system.jobs.boss.unschedule(TUTOR_CALENDAR_SWEEP_QUEUE);
});
afterAll(async () => {
  await fake?.close();
  await app?.close();
  await system?.dispose();
});

interface WatchedTutor extends ApprovedTutor {
  /** The tutor's own Google calendar, edited as in Google's UI (no revision raised by Topmark). */
  ui: TutorCalendar;
}

/** What Google sign-in records: the tutor's tokens, sealed on the user stream. */
async function linkTokens(tutor: ApprovedTutor, tokens: OAuthTokens) {
  await system.accounts.handlers.users.handle(
    tutor.userId,
    {
      type: 'LinkGoogleAccount',
      data: {
        userId: tutor.userId,
        googleId: `google-${tutor.userId}`,
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

const watchOf = async (tutorId: string) => (await calendarWatches(system.sql).find(tutorId)) as CalendarWatch;
const revisionOf = (tutorId: string) => system.calendarRevisions.of(tutorId);
const unfinishedJobs = async (tutorId: string) => {
  const [row] = await system.sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pgboss.job
    WHERE name = ${TUTOR_CALENDAR_SYNC_QUEUE} AND singleton_key = ${tutorId} AND state IN ('created', 'retry', 'active')`;
  return row!.n;
};
const jobsOf = async (tutorId: string) => {
  const [row] = await system.sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${TUTOR_CALENDAR_SYNC_QUEUE} AND singleton_key = ${tutorId}`;
  return row!.n;
};
/** No sync of the tutor queued or running. */
const settled = (tutorId: string) =>
  vi.waitFor(async () => expect(await unfinishedJobs(tutorId)).toBe(0), { timeout: 15_000, interval: 50 });
/** The stored token has every change: Google has nothing newer for it. */
async function expectTokenCurrent(tutor: WatchedTutor) {
  const { syncToken } = await watchOf(tutor.tutorId);
  expect(syncToken).not.toBeNull();
  const from = new Date().toISOString();
  expect(await (tutor.ui.watching as WatchableCalendar).changesSince(syncToken, { from })).toMatchObject({ changed: 0, fullSync: false });
}
const busyEvent = (ui: TutorCalendar, day = 10) =>
  ui.createEvent(calendarEventId('google-ui', randomUUID()), {
    summary: 'Dentist',
    start: { dateTime: `2031-03-${day}T15:00:00Z` },
    end: { dateTime: `2031-03-${day}T16:00:00Z` },
    transparency: 'opaque',
  });
const sweep = () => system.jobs.send({ queue: TUTOR_CALENDAR_SWEEP_QUEUE, id: randomUUID(), data: {} });
const push = (headers: Record<string, string>) => app.inject({ method: 'POST', url: GOOGLE_CALENDAR_NOTIFICATIONS_PATH, headers });

/** An approved tutor who signed in with Google: watched once the reactor's job has run (a channel, a first full sync). */
async function watchedTutor(n: string): Promise<WatchedTutor> {
  const tutor = await approvedTutor(system, `${n}-${randomUUID().slice(0, 8)}`);
  const tokens = fake.addUser(tutor.email);
  await linkTokens(tutor, tokens);
  await vi.waitFor(
    async () => {
      const watch = await watchOf(tutor.tutorId);
      expect(watch?.channelId).toBeTruthy();
      expect(watch?.syncToken).toBeTruthy();
    },
    { timeout: 15_000, interval: 50 },
  );
  await settled(tutor.tutorId);
  const ui = googleUi.calendar({ ownerId: `ui-${tutor.tutorId}`, calendarId: 'primary', credentials: { kind: 'oauth', tokens } });
  return { ...tutor, ui };
}

describe('Google calendar changes reach every process within seconds', () => {
  it('an event the tutor adds in Google is pushed to the webhook, the sync job runs and the calendar revision moves', async () => {
    const tutor = await watchedTutor('push');
    const watch = await watchOf(tutor.tutorId);
    expect(watch.channelAddress).toBe(`${PUBLIC_URL}${GOOGLE_CALENDAR_NOTIFICATIONS_PATH}`);
    expect(fake.liveChannels(tutor.email).map((c) => c.id)).toEqual([watch.channelId]);
    const before = await revisionOf(tutor.tutorId);
    const started = Date.now();

    await busyEvent(tutor.ui);
    await vi.waitFor(async () => expect(await revisionOf(tutor.tutorId)).toBeGreaterThan(before), { timeout: 5_000, interval: 20 });
    expect(Date.now() - started).toBeLessThan(5_000);
    // It came by the push: Google's message was accepted and no sweep ran.
    const delivered = fake.pushes.filter((p) => p.channelId === watch.channelId && p.state === 'exists');
    expect(delivered.map((p) => p.status)).toEqual([200]);
    await settled(tutor.tutorId);
    await expectTokenCurrent(tutor);
    expect((await watchOf(tutor.tutorId)).lastError).toBeNull();
  });

  it('a forged or unknown channel, or a wrong token, is refused and changes nothing', async () => {
    const tutor = await watchedTutor('forged');
    const watch = await watchOf(tutor.tutorId);
    const channelId = watch.channelId as string;
    const token = await channelTokens(system.sql).tokenFor(channelId);
    const revision = await revisionOf(tutor.tutorId);
    const jobs = await jobsOf(tutor.tutorId);
    const google = (id: string, t: string | null, extra: Record<string, string> = {}) => ({
      'x-goog-channel-id': id,
      ...(t === null ? {} : { 'x-goog-channel-token': t }),
      'x-goog-resource-id': watch.resourceId as string,
      'x-goog-resource-state': 'exists',
      'x-goog-message-number': '7',
      ...extra,
    });

    expect((await push({})).statusCode).toBe(401);
    expect((await push(google(randomUUID(), 'made-up'))).statusCode).toBe(401);
    expect((await push(google(channelId, null))).statusCode).toBe(401);
    expect((await push(google(channelId, `${token}x`))).statusCode).toBe(401);
    expect((await push(google(channelId, token.slice(0, -1)))).statusCode).toBe(401);
    // A token of ours for a channel that is not live (never made, or replaced): unknown.
    const stranger = randomUUID();
    const unknown = await push(google(stranger, await channelTokens(system.sql).tokenFor(stranger)));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Unknown notification channel' });
    expect((await push(google(channelId, token, { 'x-goog-resource-id': 'another-resource' }))).statusCode).toBe(404);
    // The channel's first message: accepted, nothing to do.
    expect((await push(google(channelId, token, { 'x-goog-resource-state': 'sync' }))).statusCode).toBe(200);

    expect(await jobsOf(tutor.tutorId)).toBe(jobs);
    expect(await revisionOf(tutor.tutorId)).toBe(revision);
    // The real thing, for contrast: the same message with the right token queues a sync.
    const accepted = await push(google(channelId, token));
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ received: true });
    expect(await jobsOf(tutor.tutorId)).toBe(jobs + 1);
    await settled(tutor.tutorId);
  });

  it('a burst of 20 pushes makes one sync at a time, and no change is lost', async () => {
    const tutor = await watchedTutor('burst');
    const { channelId } = await watchOf(tutor.tutorId);
    const stats = counting.statsOf(tutor.tutorId);
    const callsBefore = stats.calls;
    const jobsBefore = await jobsOf(tutor.tutorId);
    const pushesBefore = fake.pushes.length;
    const before = await revisionOf(tutor.tutorId);

    await Promise.all(Array.from({ length: 20 }, (_, i) => busyEvent(tutor.ui, 10 + i)));
    await fake.pushesSettled();
    const burst = fake.pushes.slice(pushesBefore).filter((p) => p.channelId === channelId);
    expect(burst).toHaveLength(20);
    expect(burst.every((p) => p.status === 200)).toBe(true);
    await settled(tutor.tutorId);

    expect(stats.maxInFlight).toBe(1);
    const syncs = stats.calls - callsBefore;
    expect(syncs).toBeGreaterThanOrEqual(1);
    expect(syncs).toBeLessThan(20);
    expect(await jobsOf(tutor.tutorId)).toBe(jobsBefore + syncs);
    expect(await revisionOf(tutor.tutorId)).toBeGreaterThan(before);
    await expectTokenCurrent(tutor);
  });

  it('a sync token Google expired (410 GONE) falls back to a full sync and a new token', async () => {
    const tutor = await watchedTutor('gone');
    const stale = (await watchOf(tutor.tutorId)).syncToken;
    const before = await revisionOf(tutor.tutorId);
    fake.expireSyncTokens(tutor.email);
    fake.requests.length = 0;

    await busyEvent(tutor.ui);
    await vi.waitFor(async () => expect(await revisionOf(tutor.tutorId)).toBeGreaterThan(before), { timeout: 5_000, interval: 20 });
    await settled(tutor.tutorId);
    const lists = fake
      .calendarRequests()
      .filter((r) => r.method === 'GET' && r.path.endsWith('/events') && r.authorization !== null)
      .map((r) => r.query);
    const refused = lists.findIndex((q) => q.syncToken === stale);
    expect(refused).toBeGreaterThanOrEqual(0);
    expect(lists[refused + 1]).toMatchObject({ singleEvents: 'false' });
    expect(lists[refused + 1]!.syncToken).toBeUndefined();
    expect(lists[refused + 1]!.timeMin).toBeDefined();
    const fresh = await watchOf(tutor.tutorId);
    expect(fresh.syncToken).not.toBe(stale);
    expect(fresh.lastError).toBeNull();
    await expectTokenCurrent(tutor);
  });

  it('a channel near its expiry is renewed by the 5-minute job: the new one live, the old one stopped', async () => {
    expect(sweepSchedule?.cron).toBe(CALENDAR_SWEEP_CRON);
    expect(CALENDAR_SWEEP_CRON).toBe('*/5 * * * *');

    const tutor = await watchedTutor('renew');
    const old = await watchOf(tutor.tutorId);
    const oldToken = await channelTokens(system.sql).tokenFor(old.channelId as string);
    await system.sql`UPDATE calendar_watches SET channel_expires_at = now() + interval '2 hours' WHERE tutor_id = ${tutor.tutorId}`;

    await sweep();
    await vi.waitFor(async () => expect((await watchOf(tutor.tutorId)).channelId).not.toBe(old.channelId), {
      timeout: 10_000,
      interval: 50,
    });
    await settled(tutor.tutorId);
    const renewed = await watchOf(tutor.tutorId);
    expect(renewed.channelExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect(fake.channel(old.channelId as string)?.stopped).toBe(true);
    expect(fake.liveChannels(tutor.email).map((c) => c.id)).toEqual([renewed.channelId]);
    // Messages of the old channel are no longer accepted; the new one carries the next change.
    const late = await push({
      'x-goog-channel-id': old.channelId as string,
      'x-goog-channel-token': oldToken,
      'x-goog-resource-id': old.resourceId as string,
      'x-goog-resource-state': 'exists',
    });
    expect(late.statusCode).toBe(404);
    const before = await revisionOf(tutor.tutorId);
    await busyEvent(tutor.ui);
    await vi.waitFor(async () => expect(await revisionOf(tutor.tutorId)).toBeGreaterThan(before), { timeout: 5_000, interval: 20 });
    expect(fake.pushes.filter((p) => p.channelId === renewed.channelId && p.state === 'exists').map((p) => p.status)).toEqual([200]);
    await settled(tutor.tutorId);
  });

  it('the 5-minute job notices a change whose push was lost', async () => {
    const tutor = await watchedTutor('lost-push');
    const before = await revisionOf(tutor.tutorId);
    fake.dropPushes = true;
    try {
      await busyEvent(tutor.ui);
    } finally {
      fake.dropPushes = false;
    }
    expect(fake.pushes.at(-1)).toMatchObject({ state: 'exists', dropped: true });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await revisionOf(tutor.tutorId)).toBe(before);

    await sweep();
    await vi.waitFor(async () => expect(await revisionOf(tutor.tutorId)).toBeGreaterThan(before), { timeout: 10_000, interval: 50 });
    await settled(tutor.tutorId);
    await expectTokenCurrent(tutor);
  });

  it('a grant revoked during sync is recorded at once, alerted once, raises the revision so no stale calendar is served; signing in again resumes the watch', async () => {
    const tutor = await watchedTutor('revoked');
    const before = await revisionOf(tutor.tutorId);
    const { channelId } = await watchOf(tutor.tutorId);
    fake.revoke(tutor.email);
    const started = Date.now();

    // Several triggers (the sweep, a second sweep, a push of the channel Google still had): one loss recorded.
    await sweep();
    await vi.waitFor(async () => expect((await watchOf(tutor.tutorId)).lastErrorReason).toBe('invalid_grant'), {
      timeout: 10_000,
      interval: 50,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    await settled(tutor.tutorId);
    await sweep();
    await vi.waitFor(async () => expect(await jobsOf(tutor.tutorId)).toBeGreaterThanOrEqual(3));
    await settled(tutor.tutorId);

    const lost = (await system.store.readStream(tutorStreamId(tutor.tutorId))).filter((e) => e.type === 'TutorCalendarAccessLost');
    expect(lost).toHaveLength(1);
    expect(lost[0]!.data).toMatchObject({ reason: 'invalid_grant' });
    // A lost grant ends a job, it does not fail it into retries: no run failed. (Its attempt
    // count is not asserted: on a starved machine a heartbeat can lapse and a run be repeated,
    // which the single recorded loss and the single alert below must survive.)
    const attempts = await system.sql<{ retry_count: number; state: string }[]>`
      SELECT retry_count, state::text AS state FROM pgboss.job WHERE name = ${TUTOR_CALENDAR_SYNC_QUEUE} AND singleton_key = ${tutor.tutorId}`;
    // (A trigger arriving after the wait may have queued one more run: only runs that ended are judged.)
    expect(attempts.filter((a) => a.state === 'failed' || a.state === 'retry')).toEqual([]);
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    const after = await revisionOf(tutor.tutorId);
    expect(after).toBe(before + 1);
    const watch = await watchOf(tutor.tutorId);
    expect(watch).toMatchObject({ channelId: null, syncToken: null, lastErrorReason: 'invalid_grant' });
    const alerts = await vi.waitFor(
      async () => {
        const found = (await openAlerts(system.sql)).filter((a) => a.type === 'calendar_invalid_grant' && a.user_id === tutor.userId);
        expect(found).toHaveLength(1);
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(alerts).toHaveLength(1);
    // The dashboard's banner asks to authorise Google again.
    const status = await app.inject({
      method: 'GET',
      url: `/api/tutor/${tutor.tutorId}/calendar-status`,
      headers: { cookie: tutor.cookie },
    });
    expect(calendarStatusSchema.parse(status.json())).toMatchObject({ accessible: false, needsReauthorisation: true });
    // The old channel's messages are refused now.
    const stale = await push({
      'x-goog-channel-id': channelId as string,
      'x-goog-channel-token': await channelTokens(system.sql).tokenFor(channelId as string),
      'x-goog-resource-id': 'whatever',
      'x-goog-resource-state': 'exists',
    });
    expect(stale.statusCode).toBe(404);

    // The tutor signs in with Google again: the watch resumes by itself, the alert is resolved.
    await linkTokens(tutor, fake.grant(tutor.email));
    await vi.waitFor(
      async () => {
        const resumed = await watchOf(tutor.tutorId);
        expect(resumed.channelId).toBeTruthy();
        expect(resumed.syncToken).toBeTruthy();
        expect(resumed.lastError).toBeNull();
      },
      { timeout: 10_000, interval: 50 },
    );
    await settled(tutor.tutorId);
    expect(await revisionOf(tutor.tutorId)).toBeGreaterThan(after);
    expect((await system.store.readStream(tutorStreamId(tutor.tutorId))).map((e) => e.type)).toContain('TutorCalendarAccessRestored');
    expect(fake.liveChannels(tutor.email)).toHaveLength(1);
    await vi.waitFor(
      async () =>
        expect((await openAlerts(system.sql)).filter((a) => a.type === 'calendar_invalid_grant' && a.user_id === tutor.userId)).toEqual([]),
      { timeout: 10_000, interval: 50 },
    );
  });
});

describe('push address', () => {
  it('is PUBLIC_URL’s notifications path only when it is https (Google delivers nowhere else)', () => {
    expect(pushAddressOf('https://topmark.example/')).toBe('https://topmark.example/api/google/calendar/notifications');
    expect(pushAddressOf('https://topmark.example')).toBe('https://topmark.example/api/google/calendar/notifications');
    expect(pushAddressOf('http://127.0.0.1:3000')).toBeNull();
    expect(pushAddressOf('not a url')).toBeNull();
  });
});
