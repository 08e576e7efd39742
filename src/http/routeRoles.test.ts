import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../tests/support/system.ts';
import { registerAccount } from '../commands/accounts/registerUser.ts';
import { createStaffAccount } from '../commands/accounts/seedDemo.ts';
import { commandContext } from '../commands/kit/commandContext.ts';
import { waitForProjections } from '../projections/runner/projectionRunner.ts';
import { buildApp } from './app.ts';

let system: TestSystem;
let app: FastifyInstance;
const cookies = new Map<string, string>();
const roles = ['admin', 'finance', 'tutor', 'parent', 'student', 'student_secondary'] as const;

beforeAll(async () => {
  system = await createTestSystem('all');
  app = await buildApp(system, { logger: false });
  for (const role of roles) {
    const base = { username: `walk-${role}`, email: `walk-${role}@example.com`, firstName: 'Walk', lastName: role, password: 'secret123' };
    const { userId, studentId, position } =
      role === 'admin' || role === 'finance'
        ? await createStaffAccount(system.accounts, system.clock, { ...base, role })
        : await registerAccount(
            system.accounts,
            {
              ...base,
              role: role === 'student_secondary' ? 'student' : role,
              phone: null,
              authProvider: 'local',
              googleId: null,
              emailVerified: true,
              termsAccepted: { version: '1.0', ip: null },
              student: role === 'student' || role === 'student_secondary' ? { grade: 'Grade 10', isUniversityStudent: false } : null,
            },
            commandContext({ now: system.clock.now() }),
          );
    await waitForProjections(system.sql, ['users', 'students'], position, 5000);
    const { token } = await system.signIns.create(userId, role, role === 'student_secondary' ? studentId : null);
    cookies.set(role, `tm_session=${token}`);
  }
});
afterAll(async () => {
  await app.close();
  await system.dispose();
});

/** Calls that end the caller's own session or account are checked for refusal only. */
const selfEnding = new Set(['DELETE /api/user/delete', 'POST /api/logout']);

describe('every API route enforces its declared roles on the server', () => {
  it('declares roles for every route', () => {
    expect(app.declaredRoutes.length).toBeGreaterThan(10);
    for (const r of app.declaredRoutes) expect(r.roles, `${r.method} ${r.url}`).toBeTruthy();
  });

  it('the console: finance reads purchases, only admins quote and make refunds', () => {
    const rolesOf = (method: string, url: string) => app.declaredRoutes.find((r) => r.method === method && r.url === url)?.roles;
    expect(rolesOf('GET', '/api/admin/purchases')).toEqual(['admin', 'finance']);
    expect(rolesOf('GET', '/api/admin/purchases/:id/refund')).toEqual(['admin']);
    expect(rolesOf('POST', '/api/admin/purchases/:id/refund')).toEqual(['admin']);
  });

  it('keeps the audit log and its feed to admins (finance staff see purchases and payouts only)', () => {
    const audit = ['/api/admin/audit-log', '/api/admin/audit-log.csv', '/api/admin/recent-activity'];
    expect(app.declaredRoutes.filter((r) => audit.includes(r.url)).map((r) => [r.method, r.url, r.roles])).toEqual(
      audit.map((url) => ['GET', url, ['admin']]),
    );
  });

  it('refuses anonymous callers with 401 and other roles with 403, and lets the declared roles through', async () => {
    const checked: string[] = [];
    for (const route of app.declaredRoutes) {
      if (route.roles === 'public') continue;
      const url = route.url.replace(/:[A-Za-z]+/g, 'x');
      const call = (cookie?: string) =>
        app.inject({
          method: route.method as 'GET',
          url,
          headers: cookie ? { cookie } : {},
          ...(route.method === 'GET' ? {} : { payload: {} }),
        });
      const anonymous = await call();
      expect(anonymous.statusCode, `anonymous ${route.method} ${route.url}`).toBe(401);
      for (const role of roles) {
        const allowed = route.roles.includes(role);
        if (allowed && selfEnding.has(`${route.method} ${route.url}`)) continue;
        const res = await call(cookies.get(role));
        if (allowed)
          expect([401, 403], `${role} ${route.method} ${route.url} → ${res.statusCode} ${res.body}`).not.toContain(res.statusCode);
        else expect(res.statusCode, `${role} ${route.method} ${route.url}`).toBe(403);
        checked.push(`${role} ${route.method} ${route.url}`);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(25);
  });

  it('lets finance run payouts (and nothing of the walk above says otherwise) but not change a tutor rate', () => {
    const rolesOf = (method: string, url: string) => app.declaredRoutes.find((r) => r.method === method && r.url === url)?.roles;
    for (const [method, url] of [
      ['GET', '/api/admin/payouts'],
      ['GET', '/api/admin/payouts/:periodStart.csv'],
      ['POST', '/api/admin/payouts/:periodStart/approve'],
      ['POST', '/api/admin/payouts/:periodStart/mark-paid'],
    ] as const) {
      expect(rolesOf(method, url), `${method} ${url}`).toEqual(['admin', 'finance']);
    }
    expect(rolesOf('PUT', '/api/admin/tutors/:tutorId/rate')).toEqual(['admin']);
  });

  it('walks the console routes for admins only (finance sees purchases and payouts only)', () => {
    const adminOnly = [
      'GET /api/admin/users',
      'POST /api/admin/users/:id/deactivate',
      'POST /api/admin/users/:id/reactivate',
      'GET /api/admin/sessions',
      'POST /api/admin/sessions/:id/cancel',
    ];
    const declared = new Map(app.declaredRoutes.map((r) => [`${r.method} ${r.url}`, r.roles]));
    for (const route of adminOnly) expect(declared.get(route), route).toEqual(['admin']);
  });

  it('keeps entity histories (personal data, every entity) to admins: finance and everyone else are refused', () => {
    const history = [
      'GET /api/admin/entities/:kind/:id/events',
      'GET /api/admin/entities/:kind/:id/state',
      'GET /api/admin/correlations/:correlationId/events',
    ];
    const declared = new Map(app.declaredRoutes.map((r) => [`${r.method} ${r.url}`, r.roles]));
    for (const route of history) expect(declared.get(route), route).toEqual(['admin']);
  });
});
