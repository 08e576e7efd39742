/**
 * The server the browser tests drive: the whole product (projectors, sagas, API, built UI) on a
 * fresh database of the test PostgreSQL server, listening on E2E_PORT.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import postgres from 'postgres';
import { loadConfig } from '../../src/adapters/config/config.ts';
import { startEmbeddedPostgres } from '../../src/adapters/db/embeddedPostgres.ts';
import { devSubjectOf } from '../../src/adapters/identity/devIdentity.ts';
import { createStaffAccount, demoTutorAccounts, seedDemoAccounts } from '../../src/commands/accounts/seedDemo.ts';
import { seedPackages } from '../../src/commands/packages/seedPackages.ts';
import { seedSubjectCatalog } from '../../src/commands/subjects/seedCatalog.ts';
import { seedDemoTutors } from '../../src/commands/tutors/seedDemoTutors.ts';
import { buildApp } from '../../src/http/app.ts';
import { waitForProjections } from '../../src/projections/runner/projectionRunner.ts';
import { listSubjects } from '../../src/projections/subjects/queries.ts';
import { createSystem } from '../../src/system.ts';
import { adminUrl, createTestDatabase } from '../support/database.ts';
import { DEMO_ACCOUNTS_FILE } from './demoAccounts.ts';
import { movableServerClock } from './movableClock.ts';
import { seedPayoutPeriod } from './payoutsSeed.ts';

const port = Number(process.env.E2E_PORT ?? 3199);
// The server's clock, moved by the browser tests (helpers.ts, moveServerClock) through a loopback port.
const clock = movableServerClock(port + 1);

const probe = postgres(adminUrl(), { max: 1, connect_timeout: 3, onnotice: () => {} });
try {
  await probe`select 1`;
} catch {
  const db = await startEmbeddedPostgres('.tmp/e2e-pg');
  process.env.TEST_DATABASE_URL = db.url;
} finally {
  await probe.end({ timeout: 1 }).catch(() => {});
}
const db = await createTestDatabase('e2e');
// E2E_UI_DIR: a UI build of one's own, when several people rebuild dist/ui in one checkout while specs run.
const uiDir = process.env.E2E_UI_DIR ? { UI_DIR: process.env.E2E_UI_DIR } : {};
const system = await createSystem(
  loadConfig({ DATABASE_URL: db.url, PORT: String(port), LOG_LEVEL: 'warn', NODE_ENV: 'test', ...uiDir }),
  'all',
  { clock },
);
// The admin the admin sign-in journey uses.
const admin = await createStaffAccount(system.accounts, system.clock, {
  username: 'e2e.admin',
  email: 'e2e.admin@example.com',
  firstName: 'Erin',
  lastName: 'Admin',
  password: 'admin-pass-1',
  role: 'admin',
});
await waitForProjections(system.sql, ['users'], admin.position, 10_000);
// The finance user the payouts journey uses.
const finance = await createStaffAccount(system.accounts, system.clock, {
  username: 'e2e.finance',
  email: 'e2e.finance@example.com',
  firstName: 'Fin',
  lastName: 'Ance',
  password: 'finance-pass-1',
  role: 'finance',
});
await waitForProjections(system.sql, ['users'], finance.position, 10_000);
// The demo accounts a fresh install gets (a parent with one student, Sam): their generated
// passwords go to a file the tests read (tests/e2e/helpers.ts, demoAccount).
const demo = await seedDemoAccounts(system.accounts, system.clock);
// The catalogue and the two demo tutors, as `npm start` seeds them on a fresh install.
await seedSubjectCatalog(system);
await seedPackages(system);
await system.projections.catchUp(['subjects']);
await seedDemoTutors(
  { store: system.store, accounts: demoTutorAccounts(system.accounts), clock: system.clock },
  await listSubjects(system.sql),
  {
    calendarConnected: system.calendar.kind === 'sandbox',
    googleIdOf: devSubjectOf,
  },
);
await system.projections.catchUp(['tutors']);
// The hours saga writes the demo tutors' weekly hours to their calendars as "Topmark Hours", where the slots come from.
for (const deadline = Date.now() + 60_000; ; ) {
  const [row] = await system.sql<{ n: number }[]>`
    SELECT count(DISTINCT owner_id)::int AS n FROM sandbox_calendar_events WHERE lower(summary) = 'topmark hours' AND status <> 'cancelled'`;
  if ((row?.n ?? 0) >= 2) break;
  if (Date.now() > deadline) throw new Error('the demo tutors’ hours did not reach their calendars');
  await new Promise((r) => setTimeout(r, 100));
}
await seedPayoutPeriod(system);
await system.projections.catchUp(['users', 'students']);
mkdirSync('.tmp', { recursive: true });
writeFileSync(DEMO_ACCOUNTS_FILE, JSON.stringify(demo));
const app = await buildApp(system, { logger: false });
await app.listen({ port, host: '127.0.0.1' });
console.log(`e2e server on http://127.0.0.1:${port}`);
const shutdown = async () => {
  await app.close();
  await system.close();
  await db.drop();
  process.exit(0);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
