import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { listOutbox } from '../../../adapters/mail/outboxMailer.ts';
import { RateLimiter } from '../../../adapters/rateLimit/rateLimiter.ts';
import { registerAccount } from '../../../commands/accounts/registerUser.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { helpSentSchema } from '../../../domain/contact/contactApi.ts';
import { HELP_FIELDS_REQUIRED } from '../../../domain/contact/contactMessage.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { HELP_USER_LIMIT } from './contactRoutes.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

interface Account {
  userId: string;
  studentId: string;
  cookie: string;
}

async function account(n: string, role: 'student' | 'parent', parentId: string | null = null): Promise<Account> {
  const { userId, studentId, position } = await registerAccount(
    system.accounts,
    {
      username: `help-${n}`,
      email: `help-${n}@example.com`,
      firstName: role === 'parent' ? 'Pat' : 'Sam',
      lastName: `Lee-${n}`,
      password: 'secret123',
      role,
      phone: null,
      authProvider: 'local',
      googleId: null,
      emailVerified: true,
      termsAccepted: { version: '1.0', ip: null },
      student: role === 'student' ? { grade: 'Grade 11', isUniversityStudent: false } : null,
      parentId,
    },
    commandContext({ now: system.clock.now() }),
  );
  await waitForProjections(system.sql, ['users', 'students'], position, 10_000);
  return { userId, studentId: studentId ?? '', cookie: `tm_session=${(await system.signIns.create(userId, role)).token}` };
}

let addresses = 0;
/** Each call from its own client address unless one is given (the per-address limit is tested on its own). */
const help = (cookie: string | null, payload: unknown, headers: Record<string, string> = {}, remoteAddress?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/contact/help',
    headers: { ...(cookie ? { cookie } : {}), ...headers },
    payload: payload as object,
    remoteAddress: remoteAddress ?? `10.1.${Math.floor(++addresses / 250)}.${addresses % 250}`,
  });
const received = async () =>
  Number((await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events WHERE type = 'ContactMessageReceived'`)[0]?.n);

async function eventually<T>(read: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

let parent: Account;
let child: Account;
let otherChild: Account;
let viewOnly: string;

beforeAll(async () => {
  parent = await account('parent', 'parent');
  child = await account('child', 'student', parent.userId);
  otherChild = await account('other', 'student');
  viewOnly = `tm_session=${(await system.signIns.create(child.userId, 'student_secondary', child.studentId)).token}`;
});

describe('POST /api/contact/help', () => {
  it('records the message sealed, mails support (sealed in the outbox) and confirms to the sender', async () => {
    const secret = 'My booking for Thursday disappeared';
    const res = await help(child.cookie, { subject: 'Booking problem', message: secret, name: 'Sam Lee', studentId: child.studentId });
    expect(res.statusCode, res.body).toBe(201);
    const { id } = helpSentSchema.parse(res.json());

    // The event's personal fields are sealed in the log: the message text is not readable there.
    const [event] = await system.sql<{ data: unknown }[]>`
      SELECT data FROM es_events WHERE type = 'ContactMessageReceived' AND stream_id = ${`contact-${id}`}`;
    expect(JSON.stringify(event?.data)).not.toContain(secret);
    expect(JSON.stringify(event?.data)).not.toContain('help-child@example.com');
    expect(event?.data).toMatchObject({ channel: 'help', studentId: child.studentId, senderUserId: child.userId });
    const [row] = await system.sql`SELECT name, email, subject, sender_user_id FROM contact_messages WHERE id = ${id}`;
    expect(row).toEqual({ name: 'Sam Lee', email: 'help-child@example.com', subject: 'Booking problem', sender_user_id: child.userId });

    // Support gets a "Help request" through the contact saga; the outbox keeps it sealed.
    const support = await eventually(async () =>
      (await listOutbox(system.sql, { to: system.config.SUPPORT_EMAIL })).find((m) => m.subject === 'Help request: Booking problem'),
    );
    expect(support.text).toContain(secret);
    expect(support.text).toContain(child.studentId);
    const stored = await system.sql<{ subject: string; body: string }[]>`SELECT subject, body FROM mail_outbox WHERE id = ${support.id}`;
    expect(stored[0]?.body).not.toContain(secret);
    expect(stored[0]?.subject).not.toContain('Booking problem');
    const confirmation = await eventually(async () =>
      (await listOutbox(system.sql, { to: 'help-child@example.com' })).find((m) => m.subject === 'We received your message'),
    );
    expect(confirmation.text).toContain('Booking problem');
  });

  it("a parent writes about their child; a view-only login about its own student; the account's name when none is given", async () => {
    const fromParent = await help(parent.cookie, { subject: 'Invoice', message: 'Please send the receipt.', studentId: child.studentId });
    expect(fromParent.statusCode, fromParent.body).toBe(201);
    const [row] = await system.sql`SELECT name, email FROM contact_messages WHERE id = ${fromParent.json().id}`;
    expect(row).toEqual({ name: 'Pat Lee-parent', email: 'help-parent@example.com' });

    const fromViewOnly = await help(viewOnly, { subject: 'Question', message: 'When is my next session?', name: '', studentId: null });
    expect(fromViewOnly.statusCode, fromViewOnly.body).toBe(201);
    const [event] = await system.sql<{ data: { studentId: string } }[]>`
      SELECT data FROM es_events WHERE stream_id = ${`contact-${fromViewOnly.json().id}`} AND type = 'ContactMessageReceived'`;
    expect(event?.data.studentId).toBe(child.studentId);
  });

  it("refuses someone else's student (403) and an unknown one (404), recording nothing", async () => {
    const before = await received();
    const body = { subject: 'Hi', message: 'Hello' };
    expect((await help(parent.cookie, { ...body, studentId: otherChild.studentId })).statusCode).toBe(403);
    expect((await help(child.cookie, { ...body, studentId: otherChild.studentId })).statusCode).toBe(403);
    expect((await help(viewOnly, { ...body, studentId: otherChild.studentId })).statusCode).toBe(403);
    expect((await help(parent.cookie, { ...body, studentId: 'nobody' })).statusCode).toBe(404);
    expect(await received()).toBe(before);
  });

  it.each([
    ['a missing subject', { message: 'Hello' }, 'subject', HELP_FIELDS_REQUIRED],
    ['an empty subject', { subject: '  ', message: 'Hello' }, 'subject', HELP_FIELDS_REQUIRED],
    ['a missing message', { subject: 'Hi' }, 'message', HELP_FIELDS_REQUIRED],
    ['a blank message', { subject: 'Hi', message: ' \n ' }, 'message', HELP_FIELDS_REQUIRED],
    ['a 1 MB message', { subject: 'Hi', message: 'x'.repeat(1_000_000) }, '', ''],
    ['an oversized message', { subject: 'Hi', message: 'x'.repeat(5001) }, 'message', 'Message is too long'],
    ['an oversized subject', { subject: 'x'.repeat(201), message: 'Hello' }, 'subject', 'Subject is too long'],
    ['a NUL byte', { subject: 'Hi', message: 'a\u0000b' }, 'message', 'Message contains characters that cannot be stored'],
    ['a lone surrogate', { subject: 'x\uD800', message: 'Hello' }, 'subject', 'Subject contains characters that cannot be stored'],
    ['an unexpected field', { subject: 'Hi', message: 'Hello', email: 'spoof@example.com' }, '', ''],
  ])('refuses %s with a 4xx and records nothing', async (_label, payload, field, message) => {
    const before = await received();
    const res = await help(child.cookie, payload);
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    if (field) expect(res.json()).toMatchObject({ field, message });
    expect(await received()).toBe(before);
  });

  it("is erased with the sender's account: the read model row, the log's sealed fields and the kept mail", async () => {
    const leaver = await account('leaver', 'student');
    const secret = 'Please call me back about my account';
    const sent = await help(leaver.cookie, { subject: 'Leaving soon', message: secret });
    expect(sent.statusCode, sent.body).toBe(201);
    const { id } = sent.json() as { id: string };
    const support = await eventually(async () =>
      (await listOutbox(system.sql, { to: system.config.SUPPORT_EMAIL })).find((m) => m.subject === 'Help request: Leaving soon'),
    );
    const deleted = await app.inject({ method: 'DELETE', url: '/api/user/delete', headers: { cookie: leaver.cookie } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await system.sql`SELECT 1 FROM contact_messages WHERE id = ${id}`).toHaveLength(0);
    const kept = (await listOutbox(system.sql)).find((m) => m.id === support.id);
    expect(kept?.text).not.toContain(secret);
  });

  it('is for signed-in students, parents and view-only logins only', async () => {
    expect((await help(null, { subject: 'Hi', message: 'Hello' })).statusCode).toBe(401);
    const tutor = `tm_session=${(await system.signIns.create('some-tutor', 'tutor')).token}`;
    expect((await help(tutor, { subject: 'Hi', message: 'Hello' })).statusCode).toBe(403);
  });

  it('answers a repeated Idempotency-Key once, and limits the messages per account whatever the address', async () => {
    const spammer = await account('spammer', 'student');
    const headers = { 'idempotency-key': 'help-once-123' };
    const first = await help(spammer.cookie, { subject: 'Once', message: 'Only once' }, headers);
    const again = await help(spammer.cookie, { subject: 'Once', message: 'Only once' }, headers);
    expect(first.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    for (let i = 1; i < HELP_USER_LIMIT.limit; i++) {
      expect((await help(spammer.cookie, { subject: `More ${i}`, message: 'Again' })).statusCode).toBe(201);
    }
    const before = await received();
    const refused = await help(spammer.cookie, { subject: 'Too many', message: 'Again' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(
      /^Too many help messages were sent from this account\. Please try again in \d+ (minutes?|hours?)\.$/,
    );
    expect(await received()).toBe(before);
    const { count } = await system.accounts.rateLimiter.count(RateLimiter.key('help-user', spammer.userId), HELP_USER_LIMIT);
    expect(count).toBe(HELP_USER_LIMIT.limit + 1);
  });

  it('limits the messages per client address, across accounts', async () => {
    const a = await account('ip-a', 'student');
    const b = await account('ip-b', 'student');
    const limit = system.config.CONTACT_IP_LIMIT.limit;
    for (let i = 0; i < limit; i++) {
      const res = await help(i % 2 ? a.cookie : b.cookie, { subject: `Hi ${i}`, message: 'Hello' }, {}, '10.9.9.9');
      expect(res.statusCode, res.body).toBe(201);
    }
    const refused = await help(a.cookie, { subject: 'One more', message: 'Hello' }, {}, '10.9.9.9');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many messages were sent from your network/);
  });
});
