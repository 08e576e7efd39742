/**
 * npm run bench:sagas [-- --json] [-- --rate <messages per second>]
 * The contact mail saga under load, on a fresh database of the local PostgreSQL (DATABASE_URL, else
 * TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres), dropped at the end.
 *
 * Each contact message makes two contact-mail jobs (confirmation and support notice); every figure
 * counts jobs. Two phases, 1,000 messages (2,000 jobs) each, through the real command handler:
 *  1. backlog: a projector-mode system turns the messages into jobs with no worker running; an
 *     all-mode system then boots and drains them. Jobs/s = jobs / (first claim → last completion),
 *     from pg-boss's started_on and completed_on. (`jobs` and `jobsPerSecond` in the JSON.)
 *  2. live: with that system running, 1,000 more messages arrive at a steady `--rate` (default 50
 *     a second, 100 jobs/s; 0 = as fast as 8 writers can append). Pickup latency = the handler's
 *     start (in-process) − the job's created_on. (`pickupP50Ms`, `pickupP99Ms`.)
 * Mail goes through the outbox mailer behind a counter: duplicates = deliveries beyond one per mail
 * id (the id derives from message and kind) plus mail ids beyond two per message, over both phases.
 * Then, for comparison, the job queue alone drains as many jobs with a handler that does nothing.
 */
import { availableParallelism, loadavg } from 'node:os';
import { loadConfig } from '../../src/adapters/config/config.ts';
import { connect, type Sql } from '../../src/adapters/db/db.ts';
import { JobQueue } from '../../src/adapters/jobs/jobQueue.ts';
import type { Mailer, OutgoingMail } from '../../src/adapters/mail/mailer.ts';
import { OutboxMailer } from '../../src/adapters/mail/outboxMailer.ts';
import { receiveContactMessage } from '../../src/commands/contact/receiveContactMessage.ts';
import { commandContext } from '../../src/commands/kit/commandContext.ts';
import { CONTACT_MAIL_QUEUE } from '../../src/sagas/contact/contactMailSaga.ts';
import { createSystem, type System } from '../../src/system.ts';
import { freshBenchDatabase } from './benchDatabase.ts';

const MESSAGES = 1000;
const JOBS_PER_MESSAGE = 2;
const WRITERS = 8;
const TIMEOUT_MS = 180_000;
const NOOP_QUEUE = 'bench-noop';

const json = process.argv.includes('--json');
const rateArg = process.argv.indexOf('--rate');
const RATE = rateArg === -1 ? 50 : Number(process.argv[rateArg + 1]);
if (!Number.isFinite(RATE) || RATE < 0) throw new Error('--rate takes a number of messages per second (0: as fast as possible)');
const load = loadavg();
const say = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);

/**
 * The system's outbox mailer (its pool and vault, as `createSystem` wires it), counting every
 * delivery per mail id. Workers start inside `createSystem`: a send waits for the outbox, given
 * as soon as the system is returned.
 */
class CountingMailer implements Mailer {
  readonly kind = 'outbox' as const;
  readonly deliveries = new Map<string, number>();
  private outbox: Promise<OutboxMailer>;
  use: (outbox: OutboxMailer) => void = () => {};
  constructor() {
    this.outbox = new Promise((resolve) => {
      this.use = resolve;
    });
  }
  async send(mail: OutgoingMail): Promise<void> {
    await (await this.outbox).send(mail);
    this.deliveries.set(mail.id, (this.deliveries.get(mail.id) ?? 0) + 1);
  }
}

const contactMessage = (i: number) => ({
  name: `Bench ${i}`,
  email: `bench+${i}@example.com`,
  subject: `Benchmark ${i}`,
  message: 'Do you tutor calculus?',
});

/** Messages `from`…`from + count - 1`, `rate` a second (0: as fast as `WRITERS` writers append). */
async function appendMessages(system: System, from: number, count: number, rate = 0): Promise<void> {
  if (rate === 0) {
    let next = from;
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (next < from + count)
          await receiveContactMessage(system.store, contactMessage(next++), commandContext({ now: system.clock.now() }));
      }),
    );
    return;
  }
  const start = performance.now();
  const inFlight = new Set<Promise<unknown>>();
  for (let k = 0; k < count; k++) {
    const wait = start + (k * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const append: Promise<unknown> = receiveContactMessage(
      system.store,
      contactMessage(from + k),
      commandContext({ now: system.clock.now() }),
    ).finally(() => inFlight.delete(append));
    inFlight.add(append);
  }
  await Promise.all(inFlight);
}

interface JobRow {
  id: string;
  state: string;
  created_on: Date;
  started_on: Date | null;
  completed_on: Date | null;
}
const jobRows = (sql: Sql, queue = CONTACT_MAIL_QUEUE) =>
  sql<JobRow[]>`SELECT id, state, created_on, started_on, completed_on FROM pgboss.job WHERE name = ${queue}`;

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const count = async (sql: Sql, state?: string, queue = CONTACT_MAIL_QUEUE) =>
  Number(
    (
      await sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pgboss.job
        WHERE name = ${queue} AND (${state ?? null}::text IS NULL OR state::text = ${state ?? null})`
    )[0]?.n,
  );

/** First claim → last completion of `rows`, as jobs per second. */
function drainRate(rows: JobRow[]): number {
  const firstClaim = Math.min(...rows.map((r) => ms(r.started_on as Date)));
  const lastCompletion = Math.max(...rows.map((r) => ms(r.completed_on as Date)));
  return rows.length / ((lastCompletion - firstClaim) / 1000);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const ms = (d: Date) => d.getTime();

const db = await freshBenchDatabase();
const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', NODE_ENV: 'development' });
const sql = connect(db.url, { max: 10 });
let producer: System | null = null;
let system: System | null = null;

try {
  // 1. backlog: jobs enqueued while no worker runs, then drained by a booting system
  say(`backlog: ${MESSAGES} messages, no worker running…`);
  producer = await createSystem(config, 'projector');
  await appendMessages(producer, 0, MESSAGES);
  await until('the backlog to be enqueued', async () => (await count(sql)) === MESSAGES * JOBS_PER_MESSAGE);
  await producer.close();
  producer = null;
  const backlogIds = new Set((await jobRows(sql)).map((r) => r.id));

  say('backlog: booting the system (mode all) and draining…');
  const mailer = new CountingMailer();
  system = await createSystem(config, 'all', { mailer });
  mailer.use(new OutboxMailer(system.sql, () => {}, system.vault));
  const started = new Map<string, number>();
  system.jobs.onJobStart((s) => {
    if (s.queue === CONTACT_MAIL_QUEUE && !started.has(s.id)) started.set(s.id, s.at);
  });
  await until('the backlog to drain', async () => (await count(sql, 'completed')) === MESSAGES * JOBS_PER_MESSAGE);
  const backlog = (await jobRows(sql)).filter((r) => backlogIds.has(r.id));
  const jobsPerSecond = drainRate(backlog);

  // 2. live: messages arriving while the system runs
  say(`live: ${MESSAGES} more messages, ${RATE ? `${RATE} a second` : `as fast as ${WRITERS} writers append`}…`);
  const appendStarted = performance.now();
  await appendMessages(system, MESSAGES, MESSAGES, RATE);
  const appendSeconds = (performance.now() - appendStarted) / 1000;
  await until('the live jobs to complete', async () => (await count(sql, 'completed')) === 2 * MESSAGES * JOBS_PER_MESSAGE);
  const live = (await jobRows(sql)).filter((r) => !backlogIds.has(r.id));
  const pickups = live.map((r) => (started.get(r.id) as number) - ms(r.created_on)).sort((a, b) => a - b);
  const liveSeconds = (Math.max(...live.map((r) => ms(r.completed_on as Date))) - Math.min(...live.map((r) => ms(r.created_on)))) / 1000;

  // duplicates: one delivery per mail id, two mail ids per message
  await new Promise((r) => setTimeout(r, 1000));
  const expectedMails = 2 * MESSAGES * JOBS_PER_MESSAGE;
  const deliveries = [...mailer.deliveries.values()];
  const repeated = deliveries.reduce((sum, n) => sum + n - 1, 0);
  const duplicates = repeated + Math.max(0, mailer.deliveries.size - expectedMails);
  const [outbox] = await sql<
    { rows: number; ids: number }[]
  >`SELECT count(*)::int AS rows, count(DISTINCT id)::int AS ids FROM mail_outbox`;
  const [retried] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${CONTACT_MAIL_QUEUE} AND retry_count > 0`;
  if (outbox?.rows !== expectedMails || mailer.deliveries.size !== expectedMails) {
    throw new Error(`expected ${expectedMails} mails, the outbox holds ${outbox?.rows} and the mailer saw ${mailer.deliveries.size} ids`);
  }
  await system.close();
  system = null;

  // 3. the queue alone: the same number of jobs, same defaults, a handler that does nothing
  say('the job queue alone, no-op handler…');
  const bare = new JobQueue(db.url);
  await bare.start([{ name: NOOP_QUEUE }]);
  await bare.boss.insert(
    NOOP_QUEUE,
    backlog.map((_, i) => ({ data: { i } })),
  );
  await bare.work(NOOP_QUEUE, async () => {});
  await until('the no-op jobs to complete', async () => (await count(sql, 'completed', NOOP_QUEUE)) === backlog.length);
  const noopPerSecond = drainRate(await jobRows(sql, NOOP_QUEUE));
  await bare.stop();

  const figures = {
    jobs: backlog.length,
    jobsPerSecond: Math.round(jobsPerSecond),
    pickupP50Ms: Math.round(percentile(pickups, 50)),
    pickupP99Ms: Math.round(percentile(pickups, 99)),
    duplicates,
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } else {
    const f = (n: number) => Math.round(n).toLocaleString('en-US');
    const rows: [string, string, string][] = [
      [`backlog drained: contact-mail jobs (${f(MESSAGES)} messages × 2)`, f(figures.jobs), ''],
      ['backlog drain, jobs/s (first claim → last completion)', f(figures.jobsPerSecond), '≥ 300'],
      [
        `live: messages arriving ${RATE ? `${f(RATE)}/s` : `as fast as ${WRITERS} writers append`} (appended in ${appendSeconds.toFixed(1)} s): jobs/s, first created → last completed`,
        f(live.length / liveSeconds),
        '',
      ],
      ['live pickup latency p50, ms (created → handler starts)', f(figures.pickupP50Ms), '≤ 100'],
      ['live pickup latency p99, ms', f(figures.pickupP99Ms), '≤ 1,000'],
      [`duplicate mails (of ${f(expectedMails)} delivered)`, f(figures.duplicates), '0'],
      ['jobs retried (a handler failed)', f(retried?.n ?? 0), ''],
      [`the job queue alone: ${f(backlog.length)} jobs with a no-op handler, jobs/s`, f(noopPerSecond), ''],
    ];
    console.log(`\nload average at the start: ${load.map((l) => l.toFixed(1)).join(', ')} (${availableParallelism()} cores)`);
    console.log('\n| measure | figure | target |\n|---|---:|---:|');
    for (const [m, v, t] of rows) console.log(`| ${m} | ${v} | ${t} |`);
  }
} finally {
  await producer?.close().catch(() => {});
  await system?.close().catch(() => {});
  await sql.end({ timeout: 5 });
  await db.drop();
}
