import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFor, cookieOf, registration, signedUpStudent } from '../../../../tests/support/accounts.ts';
import { createTestSystem, type TestSystem } from '../../../../tests/support/system.ts';
import { seedDemoAccounts } from '../../../commands/accounts/seedDemo.ts';
import { buildApp } from '../../app.ts';

// Every call here comes from one address: the per-address limits are tested in accountLimits.test.ts.
let system: TestSystem;
let app: FastifyInstance;
beforeAll(async () => {
  system = await createTestSystem('all', { RATE_LIMITS: 'off' });
  app = await buildApp(system, { logger: false });
});
afterAll(async () => {
  await app?.close();
  await system?.dispose();
});

const post = (url: string, payload: unknown, cookie?: string) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers: cookie ? { cookie } : {} });

describe('registration, verification and sign-in', () => {
  it('registers a student, refuses sign-in until the mailed code is entered, then signs in', async () => {
    const body = registration('a1');
    const res = await post('/api/register', body);
    expect(res.statusCode).toBe(201);
    const user = res.json() as Record<string, unknown>;
    expect(user).toMatchObject({
      username: 'usera1',
      email: 'usera1@example.com',
      role: 'student',
      emailVerified: false,
      termsAcceptedVersion: '1.0',
    });
    expect(user.termsAcceptedAt).toBeTruthy();
    expect(user.student).toMatchObject({ grade: 'Grade 11', isUniversityStudent: false });
    expect(JSON.stringify(user)).not.toMatch(/password|argon2/i);
    expect(res.headers['set-cookie']).toBeUndefined();

    const early = await post('/api/login', { username: 'usera1', password: 'secret123' });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ message: 'Please verify your email before logging in' });

    const code = await codeFor(system.sql, body.email, 'verification code');
    const wrong = await post('/api/verify-email', { email: body.email, code: code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ ok: false, error: 'Invalid verification code' });
    const ok = await post('/api/verify-email', { email: body.email, code });
    expect(ok.json()).toEqual({ ok: true, message: 'Email verified successfully! You can now log in to your account.' });

    const byEmail = await post('/api/login', { username: 'USERA1@example.com', password: 'secret123' });
    expect(byEmail.statusCode).toBe(200);
    const cookieHeader = String(byEmail.headers['set-cookie']);
    expect(cookieHeader).toMatch(/HttpOnly/);
    expect(cookieHeader).toMatch(/SameSite=Lax/);
    const cookie = cookieOf(byEmail);
    const me = await app.inject({ method: 'GET', url: '/api/user', headers: { cookie } });
    expect(me.json()).toMatchObject({ username: 'usera1', emailVerified: true, role: 'student' });

    await post('/api/logout', {}, cookie);
    const after = await app.inject({ method: 'GET', url: '/api/user', headers: { cookie } });
    expect(after.statusCode).toBe(401);
  });

  it('answers a wrong password and an unknown user alike', async () => {
    await signedUpStudent(app, system.sql, 'a2');
    const wrong = await post('/api/login', { username: 'usera2', password: 'nope-nope' });
    const unknown = await post('/api/login', { username: 'nobody-here', password: 'nope-nope' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ message: 'Invalid username or password' });
  });

  it('gives a new session id at every sign-in', async () => {
    const { cookie } = await signedUpStudent(app, system.sql, 'a3');
    const again = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'usera3', password: 'secret123' },
      headers: { cookie },
    });
    const next = cookieOf(again);
    expect(next).not.toBe(cookie);
    expect((await app.inject({ method: 'GET', url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/user', headers: { cookie: next } })).statusCode).toBe(200);
  });

  it('lets exactly one of 20 concurrent registrations of one username succeed', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post('/api/register', registration(`c${i}`, { username: 'same-name' }))),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json()).toEqual({ message: 'Username already exists' });
    const [row] = await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM users WHERE lower(username) = 'same-name'`;
    expect(Number(row?.n)).toBe(1);
    // A loser never kept a claim on its e-mail: the address can still register.
    const loser = codes.indexOf(409);
    expect((await post('/api/register', registration(`c${loser}`, { username: `other-name-c${loser}` }))).statusCode).toBe(201);
  });

  it('refuses a taken e-mail and releases the username it had claimed', async () => {
    await post('/api/register', registration('d1'));
    const clash = await post('/api/register', registration('d2', { email: 'userd1@example.com' }));
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ message: 'Email already registered' });
    expect((await post('/api/register', registration('d2'))).statusCode).toBe(201);
  });

  it('limits failed sign-ins per account: the sixth attempt is refused even with the right password', async () => {
    await signedUpStudent(app, system.sql, 'r1');
    for (let i = 0; i < 5; i++) expect((await post('/api/login', { username: 'userr1', password: `wrong-${i}` })).statusCode).toBe(401);
    const blocked = await post('/api/login', { username: 'userr1', password: 'secret123' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ message: 'Too many failed sign-in attempts. Please try again in 15 minutes.' });
    const events =
      await system.sql`SELECT type FROM es_events WHERE type IN ('SignInFailed', 'SignedIn') AND stream_id IN (SELECT 'userActivity-' || id FROM users WHERE username = 'userr1')`;
    expect(events.filter((e) => e.type === 'SignInFailed').length).toBe(6);
  });
});

describe('verification codes', () => {
  it('sends a new verification code at most once a minute', async () => {
    const body = registration('v1');
    await post('/api/register', body);
    const first = await post('/api/resend-verification', { email: body.email });
    expect(first.statusCode).toBe(429);
    expect(first.json()).toMatchObject({ ok: false, error: 'Please wait 60 seconds before requesting another code.' });
    const unknown = await post('/api/resend-verification', { email: 'nobody-v1@example.com' });
    expect(unknown.json()).toEqual({ ok: true, message: 'New verification code sent! Please check your email.' });
  });
});

describe('no account enumeration through verification', () => {
  it('answers a verified address exactly as an unknown one, on resend and on verify', async () => {
    const { email, userId } = await signedUpStudent(app, system.sql, 'v2');
    const events = async () =>
      Number((await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events WHERE stream_id = ${`user-${userId}`}`)[0]?.n);
    const before = await events();
    for (const address of [email, email.toUpperCase()]) {
      const verifiedResend = await post('/api/resend-verification', { email: address });
      const unknownResend = await post('/api/resend-verification', { email: 'nobody-v2@example.com' });
      expect(verifiedResend.statusCode).toBe(200);
      expect(verifiedResend.statusCode).toBe(unknownResend.statusCode);
      expect(verifiedResend.json()).toEqual(unknownResend.json());

      const verifiedVerify = await post('/api/verify-email', { email: address, code: '123456' });
      const unknownVerify = await post('/api/verify-email', { email: 'nobody-v2@example.com', code: '123456' });
      expect(verifiedVerify.statusCode).toBe(400);
      expect(verifiedVerify.statusCode).toBe(unknownVerify.statusCode);
      expect(verifiedVerify.json()).toEqual(unknownVerify.json());
      expect(verifiedVerify.json()).toEqual({ ok: false, error: 'Invalid verification code', message: 'Invalid verification code' });
    }
    // Nothing was issued to the verified account.
    expect(await events()).toBe(before);
  });
});

describe('common passwords', () => {
  const TOO_COMMON = 'This password is too common. Please choose another.';

  it('refuses them at registration, whatever their case, and keeps the spec rules first', async () => {
    for (const password of ['password1', 'Password1', 'qwerty123', 'iloveyou']) {
      const res = await post('/api/register', registration('cp1', { password }));
      expect(res.statusCode, password).toBe(400);
      expect(res.json()).toMatchObject({ message: TOO_COMMON, field: 'password' });
    }
    const short = await post('/api/register', registration('cp1', { password: '12345' }));
    expect(short.json()).toMatchObject({ message: 'Password must be at least 6 characters long', field: 'password' });
    expect((await post('/api/register', registration('cp1', { password: 'lantern-harbour-7' }))).statusCode).toBe(201);
  });

  it('refuses them at password reset without using up the code', async () => {
    const { email } = await signedUpStudent(app, system.sql, 'cp2');
    await post('/api/auth/request-password-reset', { email });
    const code = await codeFor(system.sql, email, 'password reset code');
    const common = await post('/api/auth/reset-password', { email, code, newPassword: 'football' });
    expect(common.statusCode).toBe(400);
    expect(common.json()).toMatchObject({ message: TOO_COMMON, field: 'newPassword' });
    const ok = await post('/api/auth/reset-password', { email, code, newPassword: 'lantern-harbour-8' });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses them for a secondary login', async () => {
    const { cookie } = await signedUpStudent(app, system.sql, 'cp3');
    const common = await post('/api/student/secondary-login', { secondaryUsername: 'viewer-cp3', password: 'abc123' }, cookie);
    expect(common.statusCode).toBe(400);
    expect(common.json()).toMatchObject({ message: TOO_COMMON, field: 'password' });
    expect(
      (await post('/api/student/secondary-login', { secondaryUsername: 'viewer-cp3', password: 'viewonly1' }, cookie)).statusCode,
    ).toBe(200);
  });
});

describe('password reset', () => {
  it('answers the same for unknown addresses, resets with the mailed code and ends old sessions', async () => {
    const { cookie, email } = await signedUpStudent(app, system.sql, 'p1');
    const unknown = await post('/api/auth/request-password-reset', { email: 'nobody@example.com' });
    const known = await post('/api/auth/request-password-reset', { email });
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    const code = await codeFor(system.sql, email, 'password reset code');
    const short = await post('/api/auth/reset-password', { email, code, newPassword: '12345' });
    expect(short.statusCode).toBe(400);
    expect((short.json() as { message: string }).message).toBe('Password must be at least 6 characters long');
    const wrong = await post('/api/auth/reset-password', {
      email,
      code: code === '000000' ? '111111' : '000000',
      newPassword: 'new-secret',
    });
    expect(wrong.json()).toEqual({ message: 'Invalid or expired reset code' });
    const ok = await post('/api/auth/reset-password', { email, code, newPassword: 'new-secret' });
    expect(ok.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
    expect((await post('/api/login', { username: 'userp1', password: 'secret123' })).statusCode).toBe(401);
    expect((await post('/api/login', { username: 'userp1', password: 'new-secret' })).statusCode).toBe(200);
  });
});

describe('terms, role and time zone', () => {
  it('accepts terms, refuses every role but student, and takes only IANA time zones', async () => {
    const { cookie } = await signedUpStudent(app, system.sql, 't1');
    const terms = await post('/api/accept-terms', { termsAcceptedVersion: '1.0' }, cookie);
    expect(terms.json()).toMatchObject({ ok: true });
    for (const role of ['admin', 'tutor', 'finance', 'parent']) {
      const res = await post('/api/user/update-role', { role }, cookie);
      expect(res.statusCode).toBe(403);
    }
    const me = await app.inject({ method: 'GET', url: '/api/user', headers: { cookie } });
    expect((me.json() as { role: string }).role).toBe('student');
    expect((await post('/api/user/update-role', { role: 'student' }, cookie)).statusCode).toBe(200);
    const bad = await app.inject({
      method: 'PATCH',
      url: '/api/user/timezone',
      payload: { timezone: 'Mars/Olympus' },
      headers: { cookie },
    });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { message: string }).message).toContain('Unknown time zone');
    const good = await app.inject({
      method: 'PATCH',
      url: '/api/user/timezone',
      payload: { timezone: 'Europe/Paris' },
      headers: { cookie },
    });
    expect(good.json()).toEqual({ ok: true, timezone: 'Europe/Paris', chosen: false });
    expect(((await app.inject({ method: 'GET', url: '/api/user', headers: { cookie } })).json() as { timezone: string }).timezone).toBe(
      'Europe/Paris',
    );
  });
});

describe('a time zone the person chose (issue 24)', () => {
  const patch = (payload: unknown, cookie: string) =>
    app.inject({ method: 'PATCH', url: '/api/user/timezone', payload: payload as object, headers: { cookie } });
  const meOf = async (cookie: string) =>
    (await app.inject({ method: 'GET', url: '/api/user', headers: { cookie } })).json() as { timezone: string; timezoneChosen: boolean };

  it('survives a later automatic sync with another zone, until the person follows the device again', async () => {
    const { cookie } = await signedUpStudent(app, system.sql, 'tz1');
    expect(await meOf(cookie)).toMatchObject({ timezoneChosen: false });
    const chosen = await patch({ timezone: 'Asia/Tokyo', mode: 'chosen' }, cookie);
    expect(chosen.json()).toEqual({ ok: true, timezone: 'Asia/Tokyo', chosen: true });
    // The next sign-in's sync sends the browser's zone: the chosen one stays, and the answer says so.
    const synced = await patch({ timezone: 'Europe/Paris' }, cookie);
    expect(synced.json()).toEqual({ ok: true, timezone: 'Asia/Tokyo', chosen: true });
    expect(await meOf(cookie)).toMatchObject({ timezone: 'Asia/Tokyo', timezoneChosen: true });

    const device = await patch({ timezone: 'Europe/Paris', mode: 'device' }, cookie);
    expect(device.json()).toEqual({ ok: true, timezone: 'Europe/Paris', chosen: false });
    const followed = await patch({ timezone: 'America/Toronto', mode: 'automatic' }, cookie);
    expect(followed.json()).toEqual({ ok: true, timezone: 'America/Toronto', chosen: false });
    expect(await meOf(cookie)).toMatchObject({ timezone: 'America/Toronto', timezoneChosen: false });
  });

  it('refuses an unknown mode and a view-only login, changing nothing', async () => {
    const { cookie } = await signedUpStudent(app, system.sql, 'tz2');
    const unknown = await patch({ timezone: 'Asia/Tokyo', mode: 'forever' }, cookie);
    expect(unknown.statusCode).toBe(400);
    expect((unknown.json() as { message: string }).message).toBeTruthy();
    expect((await patch({ timezone: 'Mars/Olympus', mode: 'chosen' }, cookie)).statusCode).toBe(400);
    expect(await meOf(cookie)).toMatchObject({ timezoneChosen: false });
    expect((await meOf(cookie)).timezone).not.toBe('Asia/Tokyo');

    await post('/api/student/secondary-login', { secondaryUsername: 'viewer-of-tz2', password: 'viewonly1' }, cookie);
    const secondary = cookieOf(await post('/api/login', { username: 'viewer-of-tz2', password: 'viewonly1' }));
    expect((await patch({ timezone: 'Asia/Tokyo', mode: 'chosen' }, secondary)).statusCode).toBe(403);
    expect(await meOf(cookie)).toMatchObject({ timezoneChosen: false });
  });
});

describe('secondary (view-only) login', () => {
  it('signs a secondary login in as student_secondary, which cannot change the account', async () => {
    const { cookie } = await signedUpStudent(app, system.sql, 's1');
    const set = await post('/api/student/secondary-login', { secondaryUsername: 'parent-of-s1', password: 'viewonly1' }, cookie);
    expect(set.statusCode).toBe(200);
    const login = await post('/api/login', { username: 'parent-of-s1', password: 'viewonly1' });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ role: 'student_secondary', viewOnly: true });
    const secondary = cookieOf(login);
    expect((await app.inject({ method: 'DELETE', url: '/api/user/delete', headers: { cookie: secondary } })).statusCode).toBe(403);
    expect((await post('/api/user/update-role', { role: 'student' }, secondary)).statusCode).toBe(403);
  });
});

describe('parents', () => {
  it("lists only the parent's own students", async () => {
    const credentials = await seedDemoAccounts(system.accounts, system.clock);
    await system.projections.catchUp(['users', 'students']);
    const parent = credentials.find((c) => c.role === 'parent');
    const login = await post('/api/login', { username: parent?.username, password: parent?.password });
    expect(login.statusCode).toBe(200);
    const res = await app.inject({ method: 'GET', url: '/api/parent/students', headers: { cookie: cookieOf(login) } });
    expect(res.json()).toEqual({ students: [expect.objectContaining({ firstName: 'Sam', lastName: 'Student', grade: 'Grade 11' })] });
    const { cookie } = await signedUpStudent(app, system.sql, 'pp1');
    expect((await app.inject({ method: 'GET', url: '/api/parent/students', headers: { cookie } })).statusCode).toBe(403);
  });
});

describe('bad input never reaches a command', () => {
  const endpoints: [string, Record<string, unknown>][] = [
    ['/api/register', registration('bad')],
    ['/api/login', { username: 'x', password: 'y' }],
    ['/api/verify-email', { email: 'x@example.com', code: '123456' }],
    ['/api/resend-verification', { email: 'x@example.com' }],
    ['/api/auth/request-password-reset', { email: 'x@example.com' }],
    ['/api/auth/reset-password', { email: 'x@example.com', code: '123456', newPassword: 'secret123' }],
  ];
  it.each(endpoints)('%s: missing, wrong-typed, oversized and unexpected fields are 400s', async (url, valid) => {
    const before = Number((await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events WHERE type <> 'AccountMailSent'`)[0]?.n);
    const first = Object.keys(valid)[0] as string;
    const { [first]: _dropped, ...missing } = valid;
    const cases = [missing, { ...valid, [first]: 12345 }, { ...valid, [first]: 'x'.repeat(300_000) }, { ...valid, extra: true }];
    for (const payload of cases) {
      const res = await post(url, payload);
      expect(res.statusCode, `${url} ${JSON.stringify(payload).slice(0, 80)}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    const after = Number((await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events WHERE type <> 'AccountMailSent'`)[0]?.n);
    expect(after).toBe(before);
  });

  it('refuses bad input on signed-in endpoints with 400s and changes nothing', async () => {
    const { cookie } = await signedUpStudent(app, system.sql, 'b1');
    const before = Number((await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events WHERE type <> 'AccountMailSent'`)[0]?.n);
    const calls: [string, string, unknown][] = [
      ['POST', '/api/accept-terms', {}],
      ['POST', '/api/accept-terms', { termsAcceptedVersion: '9.9' }],
      ['POST', '/api/accept-terms', { termsAcceptedVersion: '1.0', extra: 1 }],
      ['POST', '/api/user/update-role', { role: 42 }],
      ['POST', '/api/user/update-role', { role: 'student', admin: true }],
      ['PATCH', '/api/user/timezone', { timezone: 'x'.repeat(500) }],
      ['PATCH', '/api/user/timezone', {}],
      ['POST', '/api/student/secondary-login', { secondaryUsername: 'ab', password: 'viewonly1' }],
      ['POST', '/api/student/secondary-login', { secondaryUsername: 'viewer-b1', password: '123' }],
    ];
    for (const [method, url, payload] of calls) {
      const res = await app.inject({ method: method as 'POST', url, payload: payload as object, headers: { cookie } });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload).slice(0, 60)}`).toBe(400);
      expect((res.json() as { message: string }).message).toBeTruthy();
    }
    const after = Number((await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events WHERE type <> 'AccountMailSent'`)[0]?.n);
    expect(after).toBe(before);
  });

  it('registration reports the spec messages', async () => {
    const noGrade = await post('/api/register', registration('m1', { grade: undefined }));
    expect(noGrade.json()).toMatchObject({ message: 'Grade is required for students', field: 'grade' });
    const noTerms = await post('/api/register', registration('m2', { termsAccepted: false }));
    expect(noTerms.json()).toMatchObject({ field: 'termsAccepted' });
    expect((noTerms.json() as { message: string }).message).toContain('You must accept the terms and conditions');
    const noUser = await post('/api/register', registration('m3', { username: '' }));
    expect((noUser.json() as { message: string }).message).toContain('Username is required');
    const tutor = await post('/api/register', registration('m4', { role: 'tutor' }));
    expect(tutor.statusCode).toBe(400);
    const code = await post('/api/verify-email', { email: 'x@example.com', code: '12ab' });
    expect((code.json() as { message: string }).message).toContain('Please enter a valid 6-digit code');
  });
});
