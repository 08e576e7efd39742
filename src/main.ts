import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from './adapters/config/config.ts';
import { takeOverShutdownSignals } from './adapters/db/embeddedPostgres.ts';
import { devSubjectOf } from './adapters/identity/devIdentity.ts';
import { demoTutorAccounts, seedDemoAccounts } from './commands/accounts/seedDemo.ts';
import { seedPackages } from './commands/packages/seedPackages.ts';
import { seedSubjectCatalog } from './commands/subjects/seedCatalog.ts';
import { seedDemoTutors } from './commands/tutors/seedDemoTutors.ts';
import { seedDemoConsole } from './demo/seedDemoConsole.ts';
import { buildApp } from './http/app.ts';
import { waitForProjections } from './projections/runner/projectionRunner.ts';
import { listSubjects } from './projections/subjects/queries.ts';
import { createSystem, type Mode } from './system.ts';

const modes: Mode[] = ['all', 'api', 'projector', 'worker'];
const arg = process.argv.find((a) => a.startsWith('--mode='))?.slice('--mode='.length) ?? process.env.MODE ?? 'all';
if (!modes.includes(arg as Mode)) {
  console.error(`Unknown mode ${arg}: use one of ${modes.join(', ')}`);
  process.exit(2);
}
const mode = arg as Mode;
const config = loadConfig();
const system = await createSystem(config, mode);
const app = mode === 'all' || mode === 'api' ? await buildApp(system) : null;
// The subject catalogue and grade tiers, through their commands at every start: idempotent (fixed command ids).
if (app) await seedSubjectCatalog(system, (message) => system.log.warn(message));
if (app) await seedPackages(system, (message) => system.log.warn(message));

// The embedded default seeds demo accounts once per data directory and shows them at every start.
let demoAccounts = '';
if (!config.DATABASE_URL && mode === 'all') {
  const file = path.join(config.DATA_DIR, 'demo-accounts.txt');
  if (!existsSync(file)) {
    const existing = await system.store.listStreams({ category: 'user', limit: 1 });
    if (existing.length === 0) {
      const credentials = await seedDemoAccounts(system.accounts, system.clock);
      // Demo tutors choose from the seeded catalogue, so its read model must have caught up.
      await waitForProjections(system.sql, ['subjects'], await system.store.committedPosition(), 30_000);
      const tutors = await seedDemoTutors(
        { store: system.store, accounts: demoTutorAccounts(system.accounts), clock: system.clock },
        await listSubjects(system.sql),
        {
          calendarConnected: system.calendar.kind === 'sandbox',
          googleIdOf: devSubjectOf,
        },
      );
      const parent = credentials.find((c) => c.role === 'parent');
      const admin = credentials.find((c) => c.role === 'admin');
      if (app && parent && admin) {
        await system.projections.catchUp(['users', 'students', 'tutors', 'packages']);
        await seedDemoConsole(system, app, { parent, admin }).catch((error: unknown) =>
          system.log.warn({ err: error }, 'the demo history could not be recorded; the demo accounts work without it'),
        );
      }
      const lines = [
        ...credentials.map((c) => `${c.role.padEnd(8)} ${c.username.padEnd(18)} ${c.password}`),
        ...tutors.map((t) => `${t.role.padEnd(8)} ${t.username.padEnd(18)} Tutor Login → Google (dev sign-in) as ${t.email}`),
      ];
      writeFileSync(file, lines.join('\n'), { mode: 0o600 });
    }
  }
  if (existsSync(file)) demoAccounts = readFileSync(file, 'utf8');
}

if (app) {
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
  console.log(`\nTopmark is running at ${url}\n`);
  if (demoAccounts) {
    console.log(`Demo accounts (role, username, password), kept in ${path.join(config.DATA_DIR, 'demo-accounts.txt')}:\n${demoAccounts}\n`);
    console.log(`Admin sign-in: ${url}/admin-login   Others: ${url}/login\n`);
  }
  if (system.mailer.kind === 'outbox')
    console.log(`No SMTP_URL: mail goes to the outbox, readable at ${url}/dev/mailbox or with npm run -s ops -- mail:list\n`);
} else {
  system.log.info(`Topmark ${mode} process running`);
}

if (!config.DATABASE_URL) takeOverShutdownSignals();
let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    system.log.info(`${signal}: shutting down`);
    await app?.close();
    await system.close();
    process.exit(0);
  });
}
