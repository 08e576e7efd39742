import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFor, registration } from '../../../../tests/support/accounts.ts';
import { createTestSystem, type TestSystem } from '../../../../tests/support/system.ts';
import { loadConfig } from '../../../adapters/config/config.ts';
import { registerAccount } from '../../../commands/accounts/registerUser.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { buildApp } from '../../app.ts';

/** Small per-address limits so the tests reach them quickly; the per-account limit is the default 5/15m. */
const limits = {
  SIGN_IN_IP_LIMIT: '6/15m',
  REGISTER_IP_LIMIT: '3/1h',
  CONTACT_IP_LIMIT: '2/1h',
  RESEND_VERIFICATION_IP_LIMIT: '2/15m',
  PASSWORD_RESET_IP_LIMIT: '2/15m',
};
const TOO_MANY_SIGN_INS = 'Too many failed sign-in attempts. Please try again in 15 minutes.';

let system: TestSystem;
/** TRUST_PROXY unset: the socket's peer is the client. */
let app: FastifyInstance;
/** TRUST_PROXY=10.0.0.1: that proxy's X-Forwarded-For names the client. */
let proxied: FastifyInstance;
/** RATE_LIMITS=off. */
let unlimited: FastifyInstance;

beforeAll(async () => {
  system = await createTestSystem('all', limits);
  app = await buildApp(system, { logger: false });
  const trusting = { ...system.config, TRUST_PROXY: loadConfig({ TRUST_PROXY: '10.0.0.1' }).TRUST_PROXY };
  proxied = await buildApp({ ...system, config: trusting }, { logger: false });
  unlimited = await buildApp({ ...system, config: { ...system.config, RATE_LIMITS: 'off' } }, { logger: false });
});
afterAll(async () => {
  await Promise.all([app?.close(), proxied?.close(), unlimited?.close()]);
  await system?.dispose();
});

/** A verified student made without HTTP, so the registration limit is not spent on set-up. */
async function verifiedStudent(n: string): Promise<{ userId: string; username: string; email: string; password: string }> {
  const person = { username: `lim${n}`, email: `lim${n}@example.com`, password: 'secret123' };
  const { userId, position } = await registerAccount(
    system.accounts,
    {
      ...person,
      firstName: 'Lim',
      lastName: n,
      role: 'student',
      phone: null,
      authProvider: 'local',
      googleId: null,
      emailVerified: true,
      termsAccepted: { version: '1.0', ip: null },
      student: { grade: 'Grade 10', isUniversityStudent: false },
    },
    commandContext({ now: system.clock.now() }),
  );
  await waitForProjections(system.sql, ['users', 'students'], position, 10_000);
  return { userId, ...person };
}

const login = (on: FastifyInstance, username: string, password: string, remoteAddress = '127.0.0.1', headers = {}) =>
  on.inject({ method: 'POST', url: '/api/login', payload: { username, password }, remoteAddress, headers });

const failures = async (userId: string) =>
  (
    await system.sql<{ reason: string }[]>`
      SELECT data->>'reason' AS reason FROM es_events WHERE type = 'SignInFailed' AND data->>'userId' = ${userId}`
  ).map((r) => r.reason);

const contact = { name: 'Ann Lee', email: 'ann@example.com', phone: '', subject: 'Pricing', message: 'Do you tutor calculus?' };

describe('failed sign-ins per account', () => {
  it('lets at most 5 of 30 concurrent wrong passwords be tried, even from 30 addresses; the rest are 429s', async () => {
    const { userId, username, password } = await verifiedStudent('c1');
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => login(app, username, `wrong-${i}`, `198.51.100.${i + 1}`)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401).length).toBe(5);
    expect(codes.filter((c) => c === 429).length).toBe(25);
    for (const r of results.filter((x) => x.statusCode === 429)) expect(r.json()).toEqual({ message: TOO_MANY_SIGN_INS });
    const reasons = await failures(userId);
    expect(reasons.filter((r) => r === 'wrong_password').length).toBeLessThanOrEqual(5);
    // The lock is recorded once, not once per refused attempt.
    expect(reasons.filter((r) => r === 'rate_limited').length).toBe(1);
    // Locked: the right password is refused too.
    expect((await login(app, username, password, '198.51.100.99')).statusCode).toBe(429);
  });

  it('counts per account, whichever login names it (username or e-mail)', async () => {
    const { username, email, password } = await verifiedStudent('c2');
    for (let i = 0; i < 3; i++) expect((await login(app, username, `wrong-${i}`, '198.51.101.1')).statusCode).toBe(401);
    for (let i = 0; i < 2; i++) expect((await login(app, email.toUpperCase(), `wrong-${i}`, '198.51.101.2')).statusCode).toBe(401);
    expect((await login(app, username, password, '198.51.101.3')).statusCode).toBe(429);
    expect((await login(app, email, password, '198.51.101.4')).statusCode).toBe(429);
  });

  it('counts an unknown login by its normalised text', async () => {
    for (const [i, name] of ['Ghost', ' ghost', 'GHOST ', 'ghost', 'gHoSt'].entries()) {
      expect((await login(app, name, 'nope-nope', `198.51.102.${i + 1}`)).statusCode).toBe(401);
    }
    expect((await login(app, 'ghost', 'nope-nope', '198.51.102.9')).statusCode).toBe(429);
    expect((await login(app, 'ghost-two', 'nope-nope', '198.51.102.9')).statusCode).toBe(401);
  });

  it('clears the count when the right password is given', async () => {
    const { username, password } = await verifiedStudent('c3');
    for (let i = 0; i < 4; i++) expect((await login(app, username, `wrong-${i}`, '198.51.103.1')).statusCode).toBe(401);
    expect((await login(app, username, password, '198.51.103.1')).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(app, username, `wrong-${i}`, '198.51.103.2')).statusCode).toBe(401);
    expect((await login(app, username, password, '198.51.103.3')).statusCode).toBe(429);
  });

  it("lets a locked account's owner reset the password, which lifts the lock", async () => {
    const { username, email, password } = await verifiedStudent('c4');
    for (let i = 0; i < 5; i++) await login(app, username, `wrong-${i}`, '198.51.104.1');
    expect((await login(app, username, password, '198.51.104.2')).statusCode).toBe(429);
    const requested = await app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      payload: { email },
      remoteAddress: '198.51.104.3',
    });
    expect(requested.statusCode).toBe(200);
    const code = await codeFor(system.sql, email, 'password reset code');
    const reset = await app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email, code, newPassword: 'lantern-harbour-9' },
      remoteAddress: '198.51.104.3',
    });
    expect(reset.statusCode).toBe(200);
    expect((await login(app, username, 'lantern-harbour-9', '198.51.104.3')).statusCode).toBe(200);
  });

  it('stays on with RATE_LIMITS=off', async () => {
    const { username, password } = await verifiedStudent('c5');
    for (let i = 0; i < 5; i++) expect((await login(unlimited, username, `wrong-${i}`, '198.51.105.1')).statusCode).toBe(401);
    expect((await login(unlimited, username, password, '198.51.105.1')).statusCode).toBe(429);
  });
});

describe('failed sign-ins per address', () => {
  it('limits failures from one address across accounts; another address is not affected', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await login(app, `nobody-${i}`, 'wrong-password', '203.0.113.9')).statusCode);
    expect(codes.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(codes[6]).toBe(429);
    expect((await login(app, 'nobody-x', 'wrong-password', '203.0.113.10')).statusCode).toBe(401);
  });

  it('gives a successful sign-in its slot back', async () => {
    const { username, password } = await verifiedStudent('i1');
    for (let i = 0; i < 5; i++) expect((await login(app, `nobody-i1-${i}`, 'x-x-x-x', '203.0.113.20')).statusCode).toBe(401);
    expect((await login(app, username, password, '203.0.113.20')).statusCode).toBe(200);
    expect((await login(app, 'nobody-i1-5', 'x-x-x-x', '203.0.113.20')).statusCode).toBe(401);
    expect((await login(app, 'nobody-i1-6', 'x-x-x-x', '203.0.113.20')).statusCode).toBe(429);
  });

  it('is off with RATE_LIMITS=off', async () => {
    for (let i = 0; i < 8; i++) expect((await login(unlimited, `nobody-off-${i}`, 'x-x-x-x', '203.0.113.30')).statusCode).toBe(401);
  });
});

describe('per-address limits on mail-sending routes', () => {
  const call = (on: FastifyInstance, url: string, payload: object, remoteAddress: string, headers: Record<string, string> = {}) =>
    on.inject({ method: 'POST', url, payload, remoteAddress, headers });

  it('limits registrations, with a clear 429 and Retry-After; invalid requests do not count', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await call(app, '/api/register', registration(`r${i}`, { grade: undefined }), '192.0.2.10')).statusCode).toBe(400);
    }
    for (let i = 0; i < 3; i++) expect((await call(app, '/api/register', registration(`r${i}`), '192.0.2.10')).statusCode).toBe(201);
    const refused = await call(app, '/api/register', registration('r3'), '192.0.2.10');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: 'Too many accounts were created from your network. Please try again in 1 hour.' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect((await call(app, '/api/register', registration('r3'), '192.0.2.11')).statusCode).toBe(201);
  });

  it('limits contact messages, verification resends and reset requests', async () => {
    const cases: [string, (i: number) => object, string][] = [
      ['/api/contact', () => contact, 'Too many messages were sent from your network. Please try again in 1 hour.'],
      [
        '/api/resend-verification',
        (i) => ({ email: `nobody-${i}@example.com` }),
        'Too many code requests from your network. Please try again in 15 minutes.',
      ],
      [
        '/api/auth/request-password-reset',
        (i) => ({ email: `nobody-${i}@example.com` }),
        'Too many reset requests from your network. Please try again in 15 minutes.',
      ],
    ];
    for (const [url, body, message] of cases) {
      expect((await call(app, url, body(0), '192.0.2.12')).statusCode, url).toBeLessThan(300);
      expect((await call(app, url, body(1), '192.0.2.12')).statusCode, url).toBeLessThan(300);
      const refused = await call(app, url, body(2), '192.0.2.12');
      expect(refused.statusCode, url).toBe(429);
      expect(refused.json()).toEqual({ message });
      expect((await call(app, url, body(3), '192.0.2.13')).statusCode, url).toBeLessThan(300);
    }
  });

  it('is not bypassed by a spoofed X-Forwarded-For when TRUST_PROXY is unset', async () => {
    const spoofed = (i: number) => ({ 'x-forwarded-for': `100.64.${i}.${i + 1}` });
    expect((await call(app, '/api/contact', contact, '192.0.2.20', spoofed(1))).statusCode).toBe(201);
    expect((await call(app, '/api/contact', contact, '192.0.2.20', spoofed(2))).statusCode).toBe(201);
    expect((await call(app, '/api/contact', contact, '192.0.2.20', spoofed(3))).statusCode).toBe(429);
    // Nor the sign-in limit.
    for (let i = 0; i < 6; i++) await login(app, `nobody-xff-${i}`, 'x-x-x-x', '192.0.2.21', spoofed(i));
    expect((await login(app, 'nobody-xff-6', 'x-x-x-x', '192.0.2.21', spoofed(99))).statusCode).toBe(429);
  });

  it('honours X-Forwarded-For from the proxy TRUST_PROXY names, and only from it', async () => {
    const via = (client: string) => ({ 'x-forwarded-for': client });
    expect((await call(proxied, '/api/contact', contact, '10.0.0.1', via('192.0.2.30'))).statusCode).toBe(201);
    expect((await call(proxied, '/api/contact', contact, '10.0.0.1', via('192.0.2.30'))).statusCode).toBe(201);
    expect((await call(proxied, '/api/contact', contact, '10.0.0.1', via('192.0.2.30'))).statusCode).toBe(429);
    // Another client behind the same proxy has its own allowance.
    expect((await call(proxied, '/api/contact', contact, '10.0.0.1', via('192.0.2.31'))).statusCode).toBe(201);
    // A peer that is not the proxy cannot choose its address.
    expect((await call(proxied, '/api/contact', contact, '192.0.2.32', via('192.0.2.90'))).statusCode).toBe(201);
    expect((await call(proxied, '/api/contact', contact, '192.0.2.32', via('192.0.2.91'))).statusCode).toBe(201);
    expect((await call(proxied, '/api/contact', contact, '192.0.2.32', via('192.0.2.92'))).statusCode).toBe(429);
  });

  it('are all off with RATE_LIMITS=off', async () => {
    for (let i = 0; i < 4; i++) expect((await call(unlimited, '/api/contact', contact, '192.0.2.40')).statusCode).toBe(201);
    for (let i = 0; i < 4; i++) {
      expect((await call(unlimited, '/api/register', registration(`off${i}`), '192.0.2.40')).statusCode).toBe(201);
    }
  });
});

describe('limit settings', () => {
  it('reads N/window limits, TRUST_PROXY and RATE_LIMITS, and refuses what it cannot read', () => {
    const base = { DATABASE_URL: 'unused' };
    const defaults = loadConfig(base);
    expect(defaults.TRUST_PROXY).toBe(false);
    expect(defaults.RATE_LIMITS).toBe('on');
    expect(defaults.SIGN_IN_ACCOUNT_LIMIT).toEqual({ limit: 5, windowSeconds: 900 });
    expect(defaults.SIGN_IN_IP_LIMIT).toEqual({ limit: 20, windowSeconds: 900 });
    expect(loadConfig({ ...base, REGISTER_IP_LIMIT: '50/1d' }).REGISTER_IP_LIMIT).toEqual({ limit: 50, windowSeconds: 86_400 });
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.1, 172.16.0.0/12,loopback, ::1' }).TRUST_PROXY).toEqual([
      '10.0.0.1',
      '172.16.0.0/12',
      'loopback',
      '::1',
    ]);
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'proxy.internal' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ ...base, CONTACT_IP_LIMIT: '5 per hour' })).toThrow(/CONTACT_IP_LIMIT/);
    expect(() => loadConfig({ ...base, CONTACT_IP_LIMIT: '0/1h' })).toThrow(/CONTACT_IP_LIMIT/);
    expect(() => loadConfig({ ...base, RATE_LIMITS: 'no' })).toThrow(/RATE_LIMITS/);
  });
});
