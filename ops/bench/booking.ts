/**
 * npm run bench:booking [-- --json] [-- --clients 1,4] [-- --requests <n>] [-- --rates 10,25,50]
 *   [-- --seconds <n>] [-- --contested <percent>] [-- --tutors <n>]
 * Booking over real HTTP at several load levels, on a fresh database of the local PostgreSQL
 * (DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres),
 * dropped at the end.
 *
 * The whole system runs in this process as `npm start` wires it (sandbox calendar): approved
 * tutors with weekly hours every day 06:00–22:00 UTC (`--tutors`, default 20; more when the levels
 * need more hours),
 * 10 signed-in students per tutor, each with a course of 100 credits with that tutor. The same
 * people serve every level, one level after another:
 * - closed loop, for each of `--clients` (default 1 and 4): that many HTTP clients each send
 *   `POST /api/book-session` and the next one as soon as it is answered, `--requests` (default
 *   500) in all; latency is from the send to the answer;
 * - open loop, for each of `--rates` (default 10, 25, 50 bookings a second): for `--seconds`
 *   (default 30), requests arrive at that mean rate with exponential gaps between them (Poisson)
 *   and are sent on schedule whether or not the earlier ones were answered; latency is from the
 *   scheduled send, so time spent queued (in this process or the server) counts.
 * Each request is a random student of a random tutor, for that tutor's next unclaimed hour or, a
 * `--contested` share of the time (default 0 %: every booking is a booking), for the hour most
 * recently handed out for that tutor (most end in a 409).
 *
 * Figures per level: p50Ms/p99Ms = the latency of every booking request (201 or 409); lagP99Ms =
 * from the SessionBooked event's commit (its recorded_at) to the moment the answer reached the
 * client — the route answers only once the sessions read model shows the session, so this is the
 * projection lag as a user sees it; CPU per booking = this process's CPU time (process.cpuUsage)
 * and that of the database's PostgreSQL backends (/proc, sampled every 250 ms so a closed
 * connection's time is kept) from the level's start until its read models caught up and 1 s more
 * (the sagas and jobs the bookings started; no other level runs then), divided by the sessions
 * booked; statements per booking likewise, from pg_stat_statements when the server loads it, else
 * counted on this process's connections to the server (Query and Execute messages).
 * doubleBookings = tutor hours holding more than one SessionBooked, read from the event store.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { systemClock } from '../../src/adapters/clock/clock.ts';
import { loadConfig } from '../../src/adapters/config/config.ts';
import { claimEnrollment, confirmEnrollment } from '../../src/commands/accounts/enrollment.ts';
import { registerAccount } from '../../src/commands/accounts/registerUser.ts';
import { courseHandlers, courseIdForPurchase, enrollCourse } from '../../src/commands/courses/courseHandlers.ts';
import { commandContext } from '../../src/commands/kit/commandContext.ts';
import { packageIdOf, seedPackages } from '../../src/commands/packages/seedPackages.ts';
import { seedSubjectCatalog } from '../../src/commands/subjects/seedCatalog.ts';
import { tutorHandlers } from '../../src/commands/tutors/tutorHandlers.ts';
import { packageFrequencies } from '../../src/domain/pricing/pricing.ts';
import { buildApp } from '../../src/http/app.ts';
import { type KnownProjection, waitForProjections } from '../../src/projections/runner/projectionRunner.ts';
import { listSubjects } from '../../src/projections/subjects/queries.ts';
import { createSystem, type System } from '../../src/system.ts';
import { freshBenchDatabase, wholeNumberArg } from './benchDatabase.ts';
import { httpLoad } from './httpLoad.ts';
import { countStatementsOnTheWire } from './statementCount.ts';

/** `--name 1,4` from the command line: whole numbers ≥ 1, or none for `none`. */
function listArg(name: string, fallback: number[]): number[] {
  const i = process.argv.indexOf(name);
  if (i === -1) return fallback;
  const text = process.argv[i + 1] ?? '';
  if (text === 'none') return [];
  const values = text.split(',').map(Number);
  if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v < 1))
    throw new Error(`${name} takes whole numbers separated by commas, or none`);
  return values;
}
function percentArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const value = i === -1 ? fallback : Number(process.argv[i + 1]);
  if (!Number.isFinite(value) || value < 0 || value > 100) throw new Error(`${name} takes a percentage, 0 to 100`);
  return value;
}

const CLIENT_LEVELS = listArg('--clients', [1, 4]);
const RATES = listArg('--rates', [10, 25, 50]);
const REQUESTS = wholeNumberArg('--requests', 500);
const SECONDS = wholeNumberArg('--seconds', 30);
const CONTESTED_SHARE = percentArg('--contested', 0) / 100;
/** After a level: the read models caught up, then this long for its sagas and jobs. */
const SETTLE_MS = 1000;
const HOURS_PER_TUTOR = 28 * 16;
/** Hours the levels may claim (open loop: the mean arrivals and a margin). */
const DEMAND = CLIENT_LEVELS.length * REQUESTS + RATES.reduce((sum, rate) => sum + Math.ceil(rate * SECONDS * 1.2) + 20, 0);
/** Enough tutors that, picked at random, none is asked for more than half its hours on average. */
const TUTORS = Math.max(wholeNumberArg('--tutors', 20), Math.ceil(DEMAND / (HOURS_PER_TUTOR / 2)));
const STUDENTS = TUTORS * 10;
const CREDITS = 100;
/** Targets of issue 26, by level. */
const TARGETS: Record<string, { p99Ms?: number; lagP99Ms?: number }> = {
  'closed 1': { p99Ms: 30, lagP99Ms: 10 },
  'closed 4': { p99Ms: 60, lagP99Ms: 20 },
  'open 25': { p99Ms: 100 },
};
const json = process.argv.includes('--json');
const load = loadavg();
const say = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

interface Tutor {
  id: string;
  /** Bookable hours, oldest first; `next` is the first not yet handed out. */
  hours: string[];
  next: number;
  students: Student[];
}
interface Student {
  cookie: string;
  courseId: string;
}

// The benchmark runs at the real time.
const ctx = () => commandContext({ actorRole: 'system', now: systemClock.now() });
const base = { phone: null, emailVerified: true } as const;

async function caughtUp(system: System, names: readonly KnownProjection[]) {
  if (!(await waitForProjections(system.sql, names, await system.store.committedPosition(), 120_000)))
    throw new Error(`${names.join(', ')} did not catch up`);
}

/** Every hour 06:00–21:00 UTC from tomorrow for 28 days: inside the tutors' hours and the 30-day window. */
function bookableHours(): string[] {
  const day = new Date();
  day.setUTCHours(0, 0, 0, 0);
  const hours: string[] = [];
  for (let d = 1; d <= 28; d++)
    for (let h = 6; h < 22; h++) hours.push(new Date(day.getTime() + d * 86_400_000 + h * 3_600_000).toISOString());
  return hours;
}

async function arrange(system: System): Promise<Tutor[]> {
  await seedSubjectCatalog(system);
  await seedPackages(system);
  await caughtUp(system, ['subjects', 'packages']);
  const catalog = await listSubjects(system.sql);
  const math = catalog.find((s) => s.name === 'Math (Grade 10 & Under)');
  if (!math) throw new Error('the catalogue has no Math (Grade 10 & Under)');
  const packageId = packageIdOf('grade_10_under', (packageFrequencies[0] as { id: string }).id);
  const hours = bookableHours();
  const tutors: Tutor[] = [];
  const { tutors: profiles } = tutorHandlers(system.store);
  const everyDay = Array.from({ length: 7 }, (_, dayOfWeek) => ({ dayOfWeek, startTime: '06:00', endTime: '22:00' }));
  for (let i = 0; i < TUTORS; i++) {
    const n = `${i}-${randomBytes(3).toString('hex')}`;
    const { userId } = await registerAccount(
      system.accounts,
      {
        ...base,
        username: `bench-tutor-${n}`,
        email: `bench-tutor-${n}@example.com`,
        password: null,
        role: 'tutor',
        firstName: 'Bench',
        lastName: `Tutor ${i}`,
        authProvider: 'google',
        googleId: `bench-google-${n}`,
        termsAccepted: null,
      },
      ctx(),
    );
    const tutorId = userId;
    const asTutor = () => commandContext({ actorId: tutorId, actorRole: 'tutor', now: system.clock.now() });
    await profiles.handle(tutorId, { type: 'CreateTutorProfile', data: { tutorId, userId, applicationId: `bench-${n}` } }, ctx());
    await profiles.handle(tutorId, { type: 'EditTutorProfile', data: { tutorId, bio: 'Benchmark tutor.', experience: 5 } }, asTutor());
    await profiles.handle(
      tutorId,
      {
        type: 'SetQualifications',
        data: {
          tutorId,
          qualifications: [{ subjectId: math.id, maxGradeLevel: 'university' }],
          catalog: catalog.map((s) => ({ id: s.id, name: s.name })),
        },
      },
      asTutor(),
    );
    await profiles.handle(tutorId, { type: 'SetWeeklyHours', data: { tutorId, availability: everyDay, timeZone: 'UTC' } }, asTutor());
    await profiles.handle(tutorId, { type: 'CompleteOnboarding', data: { tutorId, calendarConnected: true } }, asTutor());
    tutors.push({ id: tutorId, hours: [...hours], next: 0, students: [] });
  }
  const courses = courseHandlers(system.store);
  for (let i = 0; i < STUDENTS; i++) {
    const n = `${i}-${randomBytes(3).toString('hex')}`;
    const { userId, studentId } = await registerAccount(
      system.accounts,
      {
        ...base,
        username: `bench-student-${n}`,
        email: `bench-student-${n}@example.com`,
        password: 'bench-password-1',
        role: 'student',
        firstName: 'Bench',
        lastName: `Student ${i}`,
        authProvider: 'local',
        googleId: null,
        termsAccepted: { version: '1.0', ip: null },
        student: { grade: 'Grade 10', isUniversityStudent: false },
      },
      ctx(),
    );
    if (!studentId) throw new Error('no student profile');
    const tutor = tutors[i % TUTORS] as Tutor;
    const purchaseId = `bench-purchase-${n}`;
    const courseId = courseIdForPurchase(purchaseId);
    await claimEnrollment(system.accounts.handlers, { studentId, subjectId: math.id, purchaseId, gradeTierId: 'grade_10_under' }, ctx());
    await enrollCourse(courses, { courseId, studentId, subjectId: math.id, packageId, purchaseId, credits: CREDITS }, ctx());
    await confirmEnrollment(system.accounts.handlers, { studentId, purchaseId, courseId }, ctx());
    await courses.courses.handle(
      courseId,
      { type: 'ChooseCourseTutor', data: { courseId, tutorId: tutor.id, tutorQualified: true } },
      ctx(),
    );
    tutor.students.push({ cookie: `tm_session=${(await system.signIns.create(userId, 'student')).token}`, courseId });
  }
  await caughtUp(system, ['users', 'students', 'tutors', 'student_courses', 'subjects']);
  return tutors;
}

interface Outcome {
  status: number;
  ms: number;
  answeredAt: number;
  sessionId: string | null;
}

type Http = ReturnType<typeof httpLoad>;
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)] as T;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A tutor with an unclaimed hour left; throws if no tutor has one (the setup is sized so none runs out). */
function tutorWithHours(tutors: Tutor[]): Tutor {
  const first = pick(tutors);
  if (first.next < first.hours.length) return first;
  const left = tutors.filter((t) => t.next < t.hours.length);
  if (left.length === 0) throw new Error('the tutors ran out of bookable hours');
  return pick(left);
}

/** One booking request; resolves when answered, with the answer's time (ms since the epoch and performance.now). */
async function book(http: Http, base: string, tutors: Tutor[]): Promise<Omit<Outcome, 'ms'> & { at: number }> {
  const contested = Math.random() < CONTESTED_SHARE ? tutors.filter((t) => t.next > 0) : [];
  const tutor = contested.length > 0 ? pick(contested) : tutorWithHours(tutors);
  const hour = contested.length > 0 ? (tutor.hours[tutor.next - 1] as string) : (tutor.hours[tutor.next++] as string);
  const student = pick(tutor.students);
  const res = await http
    .post(
      '/api/book-session',
      { cookie: student.cookie, 'idempotency-key': randomUUID(), origin: base },
      { tutorId: tutor.id, studentCourseId: student.courseId, date: hour, duration: 60, notes: '' },
    )
    .catch((error: Error) => ({ status: 0, body: { message: error.message } }));
  const at = performance.now();
  const body = res.body as { id?: string; message?: string };
  if (res.status !== 201 && res.status !== 409) say(`unexpected ${res.status}: ${JSON.stringify(body)}`);
  return { status: res.status, at, answeredAt: Date.now(), sessionId: res.status === 201 ? (body.id ?? null) : null };
}

/** Closed loop: `clients` clients, each sending its next request when the last is answered. */
async function closedLoop(base: string, tutors: Tutor[], clients: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const http = httpLoad(base, clients);
  let sent = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (sent < REQUESTS) {
        sent++;
        const t0 = performance.now();
        const answer = await book(http, base, tutors);
        outcomes.push({ ...answer, ms: answer.at - t0 });
      }
    }),
  );
  http.close();
  return outcomes;
}

/**
 * Open loop: for SECONDS, arrivals at `rate` a second on average, exponential gaps (Poisson); each
 * is sent at its scheduled time whatever is still in flight, and timed from that time.
 */
async function openLoop(base: string, tutors: Tutor[], rate: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const http = httpLoad(base, 1024);
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  const end = start + SECONDS * 1000;
  for (let scheduled = start; ; ) {
    scheduled += (-Math.log(1 - Math.random()) * 1000) / rate;
    if (scheduled >= end) break;
    const wait = scheduled - performance.now();
    if (wait > 0) await sleep(wait);
    const at = scheduled;
    inFlight.push(book(http, base, tutors).then((answer) => void outcomes.push({ ...answer, ms: answer.at - at })));
  }
  await Promise.all(inFlight);
  http.close();
  return outcomes;
}

/** PostgreSQL CPU per backend, sampled through the run so a connection closed between samples keeps its time. */
function postgresCpuSampler(db: Awaited<ReturnType<typeof freshBenchDatabase>>) {
  const seen = new Map<number, number>();
  let local = true;
  let last: Promise<void> = Promise.resolve();
  const sample = () => {
    last = last.then(async () => {
      const now = await db.postgresCpuByBackend().catch(() => new Map<number, number>());
      if (now === null) local = false;
      for (const [pid, ms] of now ?? []) seen.set(pid, Math.max(ms, seen.get(pid) ?? 0));
    });
    return last;
  };
  const timer = setInterval(() => void sample(), 250);
  return {
    async snapshot(): Promise<Map<number, number>> {
      await sample();
      return new Map(seen);
    },
    /** CPU ms of the database's backends since `before`, or null when the server is not local. */
    async since(before: Map<number, number>): Promise<number | null> {
      await sample();
      if (!local) return null;
      let ms = 0;
      for (const [pid, now] of seen) ms += now - (before.get(pid) ?? 0);
      return ms;
    },
    stop: async () => {
      clearInterval(timer);
      await last;
    },
  };
}

interface Level {
  kind: 'closed' | 'open';
  clients: number | null;
  rate: number | null;
  outcomes: Outcome[];
  seconds: number;
  cpuNodeMs: number;
  cpuPgMs: number | null;
  statements: number | null;
}

const db = await freshBenchDatabase();
// Stopped early (Ctrl-C, a timeout): the database is dropped all the same.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void db.drop().finally(() => process.exit(130)));
const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', NODE_ENV: 'development', RATE_LIMITS: 'off' });
const dbUrl = new URL(db.url);
const wire = countStatementsOnTheWire(Number(dbUrl.port || 5432), dbUrl.pathname.slice(1));
let system: System | null = null;
let app: Awaited<ReturnType<typeof buildApp>> | null = null;
const pgCpu = postgresCpuSampler(db);

try {
  const statementsCountedBy = (await db.statementsRun()) === null ? 'wire' : 'pg_stat_statements';
  const statementsSoFar = async () => (statementsCountedBy === 'wire' ? wire.count() : await db.statementsRun());
  system = await createSystem(config, 'all');
  const sys = system;
  say(`arranging ${TUTORS} tutors and ${STUDENTS} students with courses…`);
  const tutors = await arrange(sys);
  app = await buildApp(sys, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const projections = (await sys.sql<{ name: KnownProjection }[]>`SELECT name FROM projection_checkpoints`).map((r) => r.name);
  const settle = async () => {
    await caughtUp(sys, projections);
    await sleep(SETTLE_MS);
  };
  await settle();

  // The system's own background work with no bookings (job queue polls, safety-net reads), per
  // second: the per-booking figures include it for the level's duration and its settling.
  const idleNode = process.cpuUsage();
  const idlePg = await pgCpu.snapshot();
  const idleStatements = await statementsSoFar();
  const idleStarted = performance.now();
  await sleep(2000);
  const idleSeconds = (performance.now() - idleStarted) / 1000;
  const idleNodeUsed = process.cpuUsage(idleNode);
  const idlePgMs = await pgCpu.since(idlePg);
  const idleStatementsAfter = await statementsSoFar();
  const perSecond = (n: number | null) => (n === null ? null : Math.round((n / idleSeconds) * 10) / 10);
  const idle = {
    cpuNodeMsPerSecond: perSecond((idleNodeUsed.user + idleNodeUsed.system) / 1000),
    cpuPgMsPerSecond: perSecond(idlePgMs),
    statementsPerSecond: perSecond(idleStatements === null || idleStatementsAfter === null ? null : idleStatementsAfter - idleStatements),
  };

  const levels: Level[] = [];
  const measure = async (kind: Level['kind'], size: number, go: () => Promise<Outcome[]>) => {
    say(
      kind === 'closed' ? `closed loop: ${REQUESTS} requests from ${size} client(s)…` : `open loop: ${size} bookings/s for ${SECONDS} s…`,
    );
    const nodeBefore = process.cpuUsage();
    const pgBefore = await pgCpu.snapshot();
    const statementsBefore = await statementsSoFar();
    const started = performance.now();
    const outcomes = await go();
    const seconds = (performance.now() - started) / 1000;
    await settle();
    const node = process.cpuUsage(nodeBefore);
    const cpuPgMs = await pgCpu.since(pgBefore);
    const statementsAfter = await statementsSoFar();
    levels.push({
      kind,
      clients: kind === 'closed' ? size : null,
      rate: kind === 'open' ? size : null,
      outcomes,
      seconds,
      cpuNodeMs: (node.user + node.system) / 1000,
      cpuPgMs,
      statements: statementsBefore === null || statementsAfter === null ? null : statementsAfter - statementsBefore,
    });
  };
  for (const clients of CLIENT_LEVELS) await measure('closed', clients, () => closedLoop(base, tutors, clients));
  for (const rate of RATES) await measure('open', rate, () => openLoop(base, tutors, rate));

  const committed = new Map(
    (
      await sys.sql<{ session_id: string; recorded_at: Date }[]>`
        SELECT data->>'sessionId' AS session_id, recorded_at FROM es_events WHERE type = 'SessionBooked'`
    ).map((r) => [r.session_id, r.recorded_at.getTime()]),
  );
  const [doubles] = await sys.sql<{ n: string }[]>`
    SELECT count(*) AS n FROM (
      SELECT data->>'tutorId', data->>'start' FROM es_events WHERE type = 'SessionBooked'
      GROUP BY 1, 2 HAVING count(*) > 1) AS held_twice`;

  const perBooking = (total: number | null, booked: number) =>
    total === null || booked === 0 ? null : Math.round((total / booked) * 10) / 10;
  const figures = levels.map((level) => {
    const booked = level.outcomes.filter((o) => o.status === 201);
    const latencies = level.outcomes.map((o) => o.ms).sort((a, b) => a - b);
    const lags = booked
      .flatMap((o) => (o.sessionId && committed.has(o.sessionId) ? [o.answeredAt - (committed.get(o.sessionId) as number)] : []))
      .sort((a, b) => a - b);
    return {
      kind: level.kind,
      clients: level.clients,
      rate: level.rate,
      requests: level.outcomes.length,
      answered: level.outcomes.filter((o) => o.status !== 0).length,
      booked: booked.length,
      refused: level.outcomes.filter((o) => o.status === 409).length,
      seconds: Math.round(level.seconds * 10) / 10,
      bookingsPerSecond: Math.round((booked.length / level.seconds) * 10) / 10,
      p50Ms: Math.round(percentile(latencies, 50)),
      p99Ms: Math.round(percentile(latencies, 99)),
      lagP99Ms: Math.round(percentile(lags, 99)),
      cpuNodeMsPerBooking: perBooking(level.cpuNodeMs, booked.length),
      cpuPgMsPerBooking: perBooking(level.cpuPgMs, booked.length),
      statementsPerBooking: perBooking(level.statements, booked.length),
    };
  });
  const doubleBookings = Number(doubles?.n ?? 0);
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ levels: figures, doubleBookings, idle, contestedShare: CONTESTED_SHARE, statementsCountedBy, tutors: TUTORS, students: STUDENTS })}\n`,
    );
  } else {
    const f = (n: number | null) => (n === null ? 'n/a' : n.toLocaleString('en-US'));
    const withTarget = (n: number, target: number | undefined) => (target === undefined ? f(n) : `${f(n)} (≤ ${target})`);
    console.log(`\nload average at the start: ${load.map((l) => l.toFixed(1)).join(', ')} (${availableParallelism()} cores)`);
    console.log(
      `${TUTORS} tutors, ${STUDENTS} students; ${Math.round(CONTESTED_SHARE * 100)} % of requests contested` +
        (CONTESTED_SHARE === 0
          ? ' (every request is for a free hour: a booking is a booking)'
          : ' (for an hour just handed out: most end in 409)'),
    );
    console.log(
      `CPU and statements per booking: from a level's start until its read models caught up and ${SETTLE_MS / 1000} s more; ` +
        `statements counted by ${statementsCountedBy === 'wire' ? 'this process on the wire (Query and Execute messages; pg_stat_statements is not loaded)' : 'pg_stat_statements'}`,
    );
    console.log(
      '\n| level | requests | booked / refused / other | booked/s | p50 ms | p99 ms (target) | lag p99 ms (target) | CPU ms per booking: Node / PostgreSQL | statements per booking |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const l of figures) {
      const name = l.kind === 'closed' ? `closed ${l.clients}` : `open ${l.rate}`;
      const label =
        l.kind === 'closed' ? `closed loop, ${l.clients} client${l.clients === 1 ? '' : 's'}` : `open loop, ${l.rate}/s for ${SECONDS} s`;
      const target = TARGETS[name] ?? {};
      console.log(
        `| ${label} | ${f(l.requests)} | ${f(l.booked)} / ${f(l.refused)} / ${f(l.requests - l.booked - l.refused)} | ${f(l.bookingsPerSecond)} | ${f(l.p50Ms)} | ${withTarget(l.p99Ms, target.p99Ms)} | ${withTarget(l.lagP99Ms, target.lagP99Ms)} | ${f(l.cpuNodeMsPerBooking)} / ${f(l.cpuPgMsPerBooking)} | ${f(l.statementsPerBooking)} |`,
      );
    }
    console.log(
      `\nidle (no bookings, 2 s before the levels), per second: CPU ms Node ${f(idle.cpuNodeMsPerSecond)} / PostgreSQL ${f(idle.cpuPgMsPerSecond)}, statements ${f(idle.statementsPerSecond)}`,
    );
    console.log(`double bookings (hours with two sessions, from the event store): ${doubleBookings} (target 0)`);
  }
} finally {
  await pgCpu.stop().catch(() => {});
  wire.stop();
  await app?.close().catch(() => {});
  await system?.close().catch(() => {});
  await db.drop();
}
