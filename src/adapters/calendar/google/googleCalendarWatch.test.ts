import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeGoogleCalendarServer } from '../../../../tests/fakes/fakeGoogleCalendarServer.ts';
import {
  type CalendarError,
  type CalendarTarget,
  calendarEventId,
  type OAuthTokens,
  type TutorCalendar,
  type WatchableCalendar,
} from '../calendarPort.ts';
import { GoogleCalendar } from './googleCalendar.ts';

/**
 * Push notifications and incremental sync through the real @googleapis/calendar client, against the
 * local server speaking Google's wire format, with a local receiver standing for Topmark's webhook.
 */
const oauthClient = { clientId: 'client-123.apps.googleusercontent.com', clientSecret: 'GOCSPX-secret' };
const PUBLIC = 'https://topmark.example';
const ADDRESS = `${PUBLIC}/api/google/calendar/notifications`;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let fake: FakeGoogleCalendarServer;
let port: GoogleCalendar;
let receiver: Server;
const received: Received[] = [];

beforeAll(async () => {
  fake = await FakeGoogleCalendarServer.start({ ...oauthClient });
  port = new GoogleCalendar({ oauthClient, rootUrl: fake.rootUrl, tokenUrl: fake.tokenUrl });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  fake.routePushes(PUBLIC, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await fake?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

const oauthTarget = (email: string, tokens: OAuthTokens): CalendarTarget => ({
  ownerId: email,
  calendarId: 'primary',
  credentials: { kind: 'oauth', tokens },
});
const connect = () => {
  const email = `tutor-${randomUUID()}@example.com`;
  const calendar = port.calendar(oauthTarget(email, fake.addUser(email)));
  return { email, calendar, watching: calendar.watching as WatchableCalendar };
};
const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as CalendarError | null;
const busy = (calendar: TutorCalendar, n: number) =>
  calendar.createEvent(calendarEventId('busy', randomUUID()), {
    summary: `Dentist ${n}`,
    start: { dateTime: `2030-01-0${n}T15:00:00Z` },
    end: { dateTime: `2030-01-0${n}T16:00:00Z` },
  });
const messagesOf = (channelId: string) => received.filter((m) => m.headers['x-goog-channel-id'] === channelId);
const from = '2029-12-01T00:00:00Z';

describe('google calendar: change notifications', () => {
  it('events.watch makes a channel: a sync message at once, then one numbered exists message per change, headers only', async () => {
    const { email, calendar, watching } = connect();
    const id = randomUUID();
    const asked = new Date(Date.now() + 7 * 86_400_000);
    const channel = await watching.watch({ id, token: 'secret-token', address: ADDRESS, expiresAt: asked });
    expect(channel.id).toBe(id);
    expect(channel.resourceId).toMatch(/^[\w-]+$/);
    expect(channel.expiresAt?.getTime()).toBe(asked.getTime());
    const watchRequest = fake.calendarRequests().find((r) => r.path.endsWith('/events/watch'))!;
    expect(watchRequest.path).toBe(`/calendar/v3/calendars/primary/events/watch`);
    expect(watchRequest.body).toEqual({
      id,
      token: 'secret-token',
      type: 'web_hook',
      address: ADDRESS,
      expiration: String(asked.getTime()),
    });

    await vi.waitFor(() => expect(messagesOf(id)).toHaveLength(1));
    await busy(calendar, 1);
    await busy(calendar, 2);
    await vi.waitFor(() => expect(messagesOf(id)).toHaveLength(3));
    const [sync, first, second] = messagesOf(id);
    expect(sync!.headers).toMatchObject({
      'x-goog-channel-id': id,
      'x-goog-channel-token': 'secret-token',
      'x-goog-channel-expiration': asked.toUTCString(),
      'x-goog-resource-id': channel.resourceId,
      'x-goog-resource-uri': `https://www.googleapis.com/calendar/v3/calendars/${encodeURIComponent(email)}/events?alt=json`,
      'x-goog-resource-state': 'sync',
      'x-goog-message-number': '1',
    });
    expect(first!.headers).toMatchObject({ 'x-goog-resource-state': 'exists', 'x-goog-message-number': '2' });
    expect(second!.headers).toMatchObject({ 'x-goog-resource-state': 'exists', 'x-goog-message-number': '3' });
    expect([sync!.body, first!.body, second!.body]).toEqual(['', '', '']);
  });

  it('channels.stop ends the messages; stopping again is fine', async () => {
    const { calendar, watching } = connect();
    const channel = await watching.watch({ id: randomUUID(), token: 't', address: ADDRESS, expiresAt: new Date(Date.now() + 3_600_000) });
    await watching.stopChannel(channel);
    expect(fake.channel(channel.id)?.stopped).toBe(true);
    await busy(calendar, 3);
    await fake.pushesSettled();
    expect(messagesOf(channel.id).map((m) => m.headers['x-goog-resource-state'])).toEqual(['sync']);
    await expect(watching.stopChannel(channel)).resolves.toBeUndefined();
    const stops = fake.calendarRequests().filter((r) => r.path === '/calendar/v3/channels/stop');
    expect(stops.at(-1)!.body).toEqual({ id: channel.id, resourceId: channel.resourceId });
  });

  it('Google refuses an address that is not https, and a channel id used before', async () => {
    const { watching } = connect();
    const insecure = await failure(
      watching.watch({ id: randomUUID(), token: 't', address: 'http://topmark.example/hook', expiresAt: new Date(Date.now() + 60_000) }),
    );
    expect(insecure).toMatchObject({ reason: 'invalid' });
    expect(insecure?.message).toMatch(/WebHook callback must be HTTPS/);
    const id = randomUUID();
    await watching.watch({ id, token: 't', address: ADDRESS, expiresAt: new Date(Date.now() + 60_000) });
    expect(await failure(watching.watch({ id, token: 't', address: ADDRESS, expiresAt: new Date(Date.now() + 60_000) }))).toMatchObject({
      reason: 'invalid',
    });
  });

  it('a revoked grant stops the channel and every call is invalid_grant', async () => {
    const { email, calendar, watching } = connect();
    const channel = await watching.watch({ id: randomUUID(), token: 't', address: ADDRESS, expiresAt: new Date(Date.now() + 60_000) });
    fake.revoke(email);
    expect(fake.channel(channel.id)?.stopped).toBe(true);
    expect(await failure(watching.changesSince(null, { from }))).toMatchObject({ reason: 'invalid_grant', needsReauthorisation: true });
    expect(await failure(calendar.status())).toBeNull();
    expect((await calendar.status()).reason).toBe('invalid_grant');
  });
});

describe('google calendar: incremental sync', () => {
  it('a full sync gives a token; the next listing with it has only what changed since, deletions included', async () => {
    const { calendar, watching } = connect();
    await busy(calendar, 1);
    await busy(calendar, 2);
    await busy(calendar, 3);
    await busy(calendar, 4);
    // The fake pages by 3: the token comes with the last page.
    const full = await watching.changesSince(null, { from });
    expect(full).toMatchObject({ changed: 4, fullSync: true });
    const lists = fake.calendarRequests().filter((r) => r.method === 'GET' && r.path.endsWith('/events'));
    expect(lists.at(-2)!.query).toMatchObject({ timeMin: from, singleEvents: 'false' });
    expect(lists.at(-1)!.query.pageToken).toBeDefined();

    expect(await watching.changesSince(full.syncToken, { from })).toEqual({ changed: 0, syncToken: full.syncToken, fullSync: false });
    const created = await busy(calendar, 5);
    const after = await watching.changesSince(full.syncToken, { from });
    expect(after).toMatchObject({ changed: 1, fullSync: false });
    expect(after.syncToken).not.toBe(full.syncToken);
    const incremental = fake
      .calendarRequests()
      .filter((r) => r.method === 'GET' && r.path.endsWith('/events'))
      .at(-1)!;
    expect(incremental.query).toMatchObject({ syncToken: full.syncToken, singleEvents: 'false' });
    expect(incremental.query.timeMin).toBeUndefined();

    await calendar.deleteEvent(created.id);
    expect(await watching.changesSince(after.syncToken, { from })).toMatchObject({ changed: 1, fullSync: false });
  });

  it('a token Google expired (410 GONE) is followed by a full sync and a new token', async () => {
    const { email, calendar, watching } = connect();
    await busy(calendar, 1);
    const first = await watching.changesSince(null, { from });
    fake.expireSyncTokens(email);
    await busy(calendar, 2);
    const again = await watching.changesSince(first.syncToken, { from });
    expect(again).toMatchObject({ changed: 2, fullSync: true });
    const lists = fake.calendarRequests().filter((r) => r.method === 'GET' && r.path.endsWith('/events'));
    expect(lists.at(-2)!.query.syncToken).toBe(first.syncToken);
    expect(lists.at(-1)!.query.syncToken).toBeUndefined();
    expect(await watching.changesSince(again.syncToken, { from })).toMatchObject({ changed: 0, fullSync: false });
  });

  it('the sandbox calendar has nothing to watch', async () => {
    const { SandboxCalendar } = await import('../sandbox/sandboxCalendar.ts');
    const sandbox = new SandboxCalendar(null as never).calendar({ ownerId: 'x', calendarId: 'primary', credentials: { kind: 'none' } });
    expect(sandbox.watching).toBeNull();
  });
});
