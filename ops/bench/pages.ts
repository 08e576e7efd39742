/**
 * npm run bench:pages [-- --json] [-- --runs <n>] [-- --ui <dir>] [-- --port <n>] [-- --pages home,login,student] [-- --save <dir>]
 * Page speed as Lighthouse scores it on a phone (its default, mobile configuration: a Moto G
 * class screen, simulated slow 4G and 4x CPU slowdown), performance category only, for the home
 * page, /login and /student (signed in as the demo student), each run `--runs` times (default 3)
 * and reported as the median run (by score).
 *
 * Builds nothing: serves the UI already built in `--ui` (default UI_DIR, else dist/ui; build it
 * with `npm run build:ui`, or `npx vite build --config ui/vite.config.ts --outDir <dir>`) with the
 * real server (the whole system, as `npm start` wires it) on a fresh database of the local
 * PostgreSQL (ops/bench/benchDatabase.ts), dropped at the end. Chromium: CHROME_PATH, else
 * /usr/bin/chromium.
 *
 * Figures per page: score (0–100), FCP, LCP, TBT (ms), CLS, and the JavaScript the page
 * transferred (kB on the wire, as compressed, headers included), and Lighthouse's benchmarkIndex
 * of the machine: the simulated throttling scales what it observed, so a CPU shared with other
 * work lowers TBT-bound scores; read scores with a low benchmarkIndex as a floor. `--save` writes each run's full Lighthouse report
 * (JSON, for its diagnostics) into a directory.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { loadConfig } from '../../src/adapters/config/config.ts';
import { seedDemoAccounts } from '../../src/commands/accounts/seedDemo.ts';
import { seedPackages } from '../../src/commands/packages/seedPackages.ts';
import { seedSubjectCatalog } from '../../src/commands/subjects/seedCatalog.ts';
import { buildApp } from '../../src/http/app.ts';
import { createSystem } from '../../src/system.ts';
import { freshBenchDatabase, wholeNumberArg } from './benchDatabase.ts';

const json = process.argv.includes('--json');
const RUNS = wholeNumberArg('--runs', 3);
const PORT = wholeNumberArg('--port', 3427);
const argOf = (name: string) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};
const uiDir = path.resolve(argOf('--ui') ?? process.env.UI_DIR ?? 'dist/ui');
const saveDir = argOf('--save');
const only = argOf('--pages')?.split(',');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const say = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);

interface Run {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsKb: number;
  jsRequests: number;
  /** Lighthouse's measure of this machine's CPU speed at the run (a quiet laptop ≈ 1,000–2,000; under ~500 the scores are not trustworthy). */
  benchmarkIndex: number;
}

if (!existsSync(path.join(uiDir, 'index.html'))) throw new Error(`no built UI in ${uiDir}: run npm run build:ui first`);

const load = loadavg();
const db = await freshBenchDatabase();
const system = await createSystem(
  loadConfig({ DATABASE_URL: db.url, PORT: String(PORT), LOG_LEVEL: 'warn', NODE_ENV: 'development', UI_DIR: uiDir }),
  'all',
);
const results: Record<string, { runs: Run[]; median: Run }> = {};
let chrome: chromeLauncher.LaunchedChrome | undefined;
let app: Awaited<ReturnType<typeof buildApp>> | undefined;
try {
  // The demo student (a parent, a student), the catalogue and the packages, as a fresh install has them.
  await seedDemoAccounts(system.accounts, system.clock);
  await seedSubjectCatalog(system);
  await seedPackages(system);
  await system.projections.catchUp(['users', 'students', 'subjects']);
  const [student] = await system.sql<{ id: string }[]>`SELECT id FROM users WHERE username = 'demo.student'`;
  if (!student) throw new Error('the demo student did not reach the users read model');
  const cookie = `tm_session=${(await system.signIns.create(student.id, 'student')).token}`;

  app = await buildApp(system, { logger: false });
  await app.listen({ port: PORT, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${PORT}`;
  chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });

  const pages: { name: string; path: string; headers?: Record<string, string> }[] = [
    { name: 'home', path: '/' },
    { name: 'login', path: '/login' },
    { name: 'student', path: '/student', headers: { cookie } },
  ];
  if (saveDir) mkdirSync(saveDir, { recursive: true });
  for (const page of pages.filter((p) => !only || only.includes(p.name))) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(
        `${origin}${page.path}`,
        {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance'],
          ...(page.headers ? { extraHeaders: page.headers } : {}),
        },
        undefined,
      );
      const lhr = result?.lhr;
      if (!lhr) throw new Error(`Lighthouse gave no result for ${page.path}`);
      if (saveDir) writeFileSync(path.join(saveDir, `${page.name}-${i + 1}.json`), JSON.stringify(lhr));
      if (lhr.runtimeError) throw new Error(`Lighthouse on ${page.path}: ${lhr.runtimeError.message}`);
      const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const requests =
        (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ??
        [];
      const scripts = requests.filter((r) => r.resourceType === 'Script');
      const run: Run = {
        score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        fcpMs: Math.round(numeric('first-contentful-paint')),
        lcpMs: Math.round(numeric('largest-contentful-paint')),
        tbtMs: Math.round(numeric('total-blocking-time')),
        cls: Math.round(numeric('cumulative-layout-shift') * 1000) / 1000,
        jsKb: Math.round(scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0) / 102.4) / 10,
        jsRequests: scripts.length,
        benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
      };
      if (lhr.finalDisplayedUrl !== `${origin}${page.path}`) say(`  (${page.path} ended on ${lhr.finalDisplayedUrl})`);
      say(`  ${page.name} run ${i + 1}: score ${run.score} (benchmarkIndex ${run.benchmarkIndex})`);
      runs.push(run);
    }
    const median = [...runs].sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)] as Run;
    results[page.name] = { runs, median };
  }
} finally {
  await chrome?.kill();
  await app?.close();
  await system.close();
  await db.drop();
}

const report = {
  benchmark: 'pages',
  lighthouse: 'mobile (default config), performance only',
  runsPerPage: RUNS,
  loadAverageAtStart: load.map((l) => Math.round(l * 100) / 100),
  pages: results,
};
if (json) console.log(JSON.stringify(report, null, 2));
else {
  say(`\nLighthouse mobile, median of ${RUNS} (load average at start ${report.loadAverageAtStart.join(' ')})`);
  say('page      score   FCP ms   LCP ms   TBT ms    CLS    JS kB (requests)  benchmarkIndex');
  for (const [name, { median: m }] of Object.entries(results))
    say(
      `${name.padEnd(9)} ${String(m.score).padStart(5)} ${String(m.fcpMs).padStart(8)} ${String(m.lcpMs).padStart(8)} ${String(m.tbtMs).padStart(8)} ${m.cls.toFixed(3).padStart(6)}   ${m.jsKb.toFixed(1).padStart(6)} (${m.jsRequests})  ${m.benchmarkIndex}`,
    );
}
process.exit(0);
