import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../tests/support/system.ts';
import { devSubjectOf } from '../adapters/identity/devIdentity.ts';
import { demoTutorAccounts, seedDemoAccounts } from '../commands/accounts/seedDemo.ts';
import { seedPackages } from '../commands/packages/seedPackages.ts';
import { seedSubjectCatalog } from '../commands/subjects/seedCatalog.ts';
import { seedDemoTutors } from '../commands/tutors/seedDemoTutors.ts';
import { billingPeriodOf } from '../domain/payouts/billingPeriod.ts';
import { waitForProjections } from '../projections/runner/projectionRunner.ts';
import { listSubjects } from '../projections/subjects/queries.ts';
import { seedDemoConsole } from './seedDemoConsole.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

const settled = async () => {
  const names = ['users', 'students', 'tutors', 'student_courses', 'sessions', 'purchases', 'alerts', 'payouts'] as const;
  expect(await waitForProjections(system.sql, names, await system.store.committedPosition(), 30_000)).toBe(true);
};

const cookieOf = async (who: { username: string; password: string }) => {
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { username: who.username, password: who.password } });
  return login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
};

describe('the demo console seed', () => {
  it('records a purchase, a declined card, last period’s sessions and next week’s, once', async () => {
    const credentials = await seedDemoAccounts(system.accounts, system.clock);
    await seedSubjectCatalog(system);
    await seedPackages(system);
    await system.projections.catchUp(['subjects', 'packages']);
    await seedDemoTutors(
      { store: system.store, accounts: demoTutorAccounts(system.accounts), clock: system.clock },
      await listSubjects(system.sql),
      {
        calendarConnected: true,
        googleIdOf: devSubjectOf,
      },
    );
    await system.projections.catchUp(['users', 'students', 'tutors']);
    const parent = credentials.find((c) => c.role === 'parent');
    const admin = credentials.find((c) => c.role === 'admin');
    if (!parent || !admin) throw new Error('no demo parent or admin');

    await seedDemoConsole(system, app, { parent, admin });
    await settled();
    const previous = billingPeriodOf(new Date(billingPeriodOf(new Date(), 'America/Toronto').start.getTime() - 1), 'America/Toronto');
    const sessions = await system.sql<{ status: string; start_at: Date; report: string | null }[]>`
      SELECT status, start_at, report FROM sessions ORDER BY start_at`;
    const past = sessions.filter((s) => s.start_at >= previous.start && s.start_at < previous.end);
    expect(past.map((s) => s.status)).toEqual(['completed', 'completed', 'cancelled']);
    expect(past.filter((s) => s.report).length).toBe(2);
    expect(sessions.filter((s) => s.start_at.getTime() > Date.now()).map((s) => s.status)).toEqual(['scheduled']);
    const alertTypes = (await system.sql<{ type: string }[]>`SELECT type FROM alerts ORDER BY type`).map((a) => a.type);
    expect(alertTypes).toEqual(['late_cancellation', 'payment_failed']);
    // Last period is approved: Maya's two completed sessions and the forfeited one at $45.
    const payouts = await app.inject({
      method: 'GET',
      url: `/api/admin/payouts?period=${previous.firstDay}`,
      headers: { cookie: await cookieOf(admin) },
    });
    expect(payouts.json()).toMatchObject({
      status: 'approved',
      total: 135,
      lines: [expect.objectContaining({ sessions: 3, amount: 135 })],
    });
    const purchases = await system.sql<{ status: string }[]>`SELECT status FROM purchases ORDER BY status`;
    expect(purchases.map((p) => p.status)).toEqual(['completed', 'failed']);

    // Seeding again records nothing more.
    await seedDemoConsole(system, app, { parent, admin });
    await settled();
    expect(await system.sql`SELECT 1 FROM sessions`).toHaveLength(sessions.length);
    expect(await system.sql`SELECT 1 FROM purchases`).toHaveLength(2);
    expect(await system.sql`SELECT 1 FROM alerts`).toHaveLength(2);
  });
});
