import { existsSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../tests/support/system.ts';
import type { Mailer } from '../adapters/mail/mailer.ts';
import { createStaffAccount } from '../commands/accounts/seedDemo.ts';
import { buildApp } from './app.ts';

let system: TestSystem;
let app: FastifyInstance;
let production: FastifyInstance;

beforeAll(async () => {
  system = await createTestSystem('all');
  app = await buildApp(system, { logger: false });
  production = await buildApp(
    { ...system, config: { ...system.config, NODE_ENV: 'production', PUBLIC_URL: 'https://topmark.example' } },
    { logger: false },
  );
});
afterAll(async () => {
  await Promise.all([app?.close(), production?.close()]);
  await system?.dispose();
});

const contact = { name: 'Ann Lee', email: 'ann@example.com', phone: '', subject: 'Pricing', message: 'Do you tutor calculus?' };
const received = async () =>
  Number((await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events WHERE type = 'ContactMessageReceived'`)[0]?.n);

/** The CSP's directives by name. */
const directives = (header: unknown) =>
  new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name as string, values]),
  );

describe('security headers', () => {
  it('sends a CSP the built UI passes, no framing, nosniff and a referrer policy, on pages and on the API', async () => {
    for (const url of ['/', '/login', '/api/health', '/api/user']) {
      const res = await app.inject({ method: 'GET', url });
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      expect(csp.get('script-src'), url).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('serves a UI page with nothing inline that script-src would block', () => {
    const file = existsSync('dist/ui/index.html') ? 'dist/ui/index.html' : 'ui/index.html';
    const html = readFileSync(file, 'utf8');
    for (const script of html.match(/<script\b[^>]*>/g) ?? []) expect(script, file).toMatch(/\bsrc=/);
    expect(html).not.toMatch(/\son[a-z]+=/i); // no inline event handlers
  });

  it('sends HSTS only in production', async () => {
    const res = await production.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(directives(res.headers['content-security-policy']).get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('serves the API docs (Swagger UI) under the same CSP', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs/static/index.html' });
    const res = page.statusCode === 302 ? await app.inject({ method: 'GET', url: String(page.headers.location) }) : page;
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger-ui');
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    const bundle = await app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
  });
});

describe('cross-site writes', () => {
  const post = (on: FastifyInstance, headers: Record<string, string>, payload: object = contact) =>
    on.inject({ method: 'POST', url: '/api/contact', payload, headers });

  it('refuses a state-changing request from another origin with 403, before anything happens', async () => {
    const before = await received();
    for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'null', 'file://', 'not a url']) {
      const res = await post(app, { origin });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json()).toEqual({ message: 'Requests from other sites are not allowed' });
    }
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await app.inject({ method, url: '/api/user/delete', headers: { origin: 'https://evil.example' } });
      expect(res.statusCode, method).toBe(403);
    }
    // Even a body that would not parse is refused for its origin first.
    const broken = await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: '{"name":',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(403);
    expect(await received()).toBe(before);
  });

  it("accepts the site's own origin (PUBLIC_URL's, or the Host's), and requests without Origin", async () => {
    const before = await received();
    expect((await post(app, { origin: 'http://localhost:80' })).statusCode).toBe(201); // inject's Host
    expect((await post(app, { origin: new URL(system.config.PUBLIC_URL).origin })).statusCode).toBe(201);
    expect((await post(app, {})).statusCode).toBe(201);
    expect((await post(production, { origin: 'https://topmark.example' })).statusCode).toBe(201);
    expect(await received()).toBe(before + 4);
    // Reads are not writes: a foreign origin may GET.
    expect((await app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://evil.example' } })).statusCode).toBe(200);
  });

  it('takes a loopback origin (the Vite dev server) as its own outside production only', async () => {
    expect((await post(app, { origin: 'http://localhost:5173' }, {})).statusCode).toBe(400); // through to validation
    expect((await post(production, { origin: 'http://localhost:5173' }, {})).statusCode).toBe(403);
  });
});

describe('operators only (issue 23 §6)', () => {
  const HEALTH_TOKEN = 'health-token-for-the-monitor-0123456789';
  const health = (on: FastifyInstance, headers: Record<string, string> = {}) => on.inject({ method: 'GET', url: '/api/health', headers });
  const detailed = (body: Record<string, unknown>) => ['database', 'eventStore', 'projections', 'queues', 'mail'].every((k) => k in body);

  it('answers anonymous /api/health with the status only; an admin, or the monitor with HEALTH_TOKEN, gets the details', async () => {
    const anonymous = await health(app);
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual({ status: expect.stringMatching(/^(ok|degraded)$/) });
    expect(anonymous.headers['cache-control']).toBe('no-store');

    const staff = await createStaffAccount(system.accounts, system.clock, {
      username: 'health-admin',
      email: 'health-admin@example.com',
      firstName: 'Hal',
      lastName: 'Admin',
      password: 'Health-admin-2026!',
      role: 'admin',
    });
    const admin = await health(app, { cookie: `tm_session=${(await system.signIns.create(staff.userId, 'admin')).token}` });
    expect(admin.statusCode).toBe(200);
    expect(detailed(admin.json())).toBe(true);
    expect(admin.json().projections.length).toBeGreaterThan(0);

    const monitored = await buildApp({ ...system, config: { ...system.config, HEALTH_TOKEN } }, { logger: false });
    try {
      const withToken = await health(monitored, { authorization: `Bearer ${HEALTH_TOKEN}` });
      expect(detailed(withToken.json())).toBe(true);
      for (const authorization of [`Bearer ${HEALTH_TOKEN}x`, 'Bearer ', HEALTH_TOKEN, `Basic ${HEALTH_TOKEN}`]) {
        expect(Object.keys((await health(monitored, { authorization })).json()), authorization).toEqual(['status']);
      }
      // Without HEALTH_TOKEN set, no bearer opens the details.
      expect(Object.keys((await health(app, { authorization: 'Bearer ' })).json())).toEqual(['status']);
    } finally {
      await monitored.close();
    }
  });

  it('publishes only the routes the public may call in production’s /api/docs; every route outside production', async () => {
    const paths = async (on: FastifyInstance) => {
      const res = await on.inject({ method: 'GET', url: '/api/docs/json' });
      expect(res.statusCode).toBe(200);
      return Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
    };
    const published = await paths(production);
    expect(published).toEqual(expect.arrayContaining(['/api/health', '/api/contact']));
    const declared = new Map(production.declaredRoutes.map((r) => [r.url.replace(/:(\w+)/g, '{$1}'), r.roles]));
    for (const path of published) expect(declared.get(path), path).toBe('public');
    expect(published.some((p) => p.startsWith('/api/admin'))).toBe(false);
    expect((await paths(app)).some((p) => p.startsWith('/api/admin'))).toBe(true);
  });
});

describe('the dev mailbox', () => {
  const mailbox = (on: FastifyInstance, host?: string) =>
    on.inject({ method: 'GET', url: '/api/dev/mailbox', ...(host === undefined ? {} : { headers: { host } }) });
  const variant = async (change: Partial<TestSystem['config']>, mailer?: Mailer) => {
    const other = await buildApp(
      { ...system, config: { ...system.config, ...change }, mailer: mailer ?? system.mailer },
      { logger: false },
    );
    try {
      return (await mailbox(other)).statusCode;
    } finally {
      await other.close();
    }
  };

  it('exists only with the outbox mailer, outside production, on a loopback address', async () => {
    expect((await mailbox(app)).statusCode).toBe(200);
    expect(await variant({ HOST: 'localhost' })).toBe(200);
    expect(await variant({ HOST: '0.0.0.0' })).toBe(404);
    expect(await variant({ HOST: '192.168.1.20' })).toBe(404);
    expect(await variant({ NODE_ENV: 'production' })).toBe(404);
    const smtp: Mailer = { kind: 'smtp', send: async () => {} };
    expect(await variant({}, smtp)).toBe(404);
    expect(app.declaredRoutes.some((r) => r.url === '/api/dev/mailbox')).toBe(true);
    expect(production.declaredRoutes.some((r) => r.url === '/api/dev/mailbox')).toBe(false);
  });

  it('answers only a loopback Host: another name (DNS rebinding, a proxy passing it through) finds nothing', async () => {
    for (const host of ['localhost', 'localhost:3000', '127.0.0.1:3000', '[::1]:3000', '[::1]']) {
      expect((await mailbox(app, host)).statusCode, host).toBe(200);
    }
    for (const host of ['evil.example', 'evil.example:3000', 'localhost.evil.example', '127.0.0.1.nip.io', '192.168.1.20:3000']) {
      const res = await mailbox(app, host);
      expect(res.statusCode, host).toBe(404);
      expect(res.body, host).not.toContain('mails');
    }
  });
});
