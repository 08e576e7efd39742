/**
 * npm run bench:booking [-- --json] [-- --requests <n>] [-- --clients <n>]
 * Booking over real HTTP, on a fresh database of the local PostgreSQL (DATABASE_URL, else
 * TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres), dropped at the end.
 *
 * The whole system runs in this process as `npm start` wires it (sandbox calendar): 20 approved
 * tutors with weekly hours every day 06:00–22:00 UTC, 200 signed-in students each with a course
 * of 100 credits with one of the tutors (10 students per tutor). Then `--clients` (default 50)
 * concurrent HTTP clients send `--requests` (default 3,000) `POST /api/book-session`, each as a
 * random student of a random tutor: 70 % for that tutor's next unclaimed hour (uncontested), 30 %
 * for the hour most recently handed out for that tutor (contested: another student is booking or
 * has booked it, so most of these end in a 409).
 *
 * Figures: bookingsPerSecond = sessions booked (201) per second of the run; p50Ms/p99Ms = the
 * latency of every booking request (201 or 409); lagP99Ms = from the SessionBooked event's commit
 * (its recorded_at) to the moment the answer reached the client — the route answers only once the
 * sessions read model shows the session, so this is the projection lag as a user sees it;
 * doubleBookings = tutor hours holding more than one SessionBooked, read from the event store.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
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

const TUTORS = 20;
const STUDENTS = 200;
const CREDITS = 100;
const CONTESTED_SHARE = 0.3;
const REQUESTS = wholeNumberArg('--requests', 3000);
const CLIENTS = wholeNumberArg('--clients', 50);
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

const ctx = () => commandContext({ actorRole: 'system' });
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
  await seedSubjectCatalog(system.store);
  await seedPackages(system.store);
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
    const asTutor = () => commandContext({ actorId: tutorId, actorRole: 'tutor' });
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

async function run(base: string, tutors: Tutor[]): Promise<{ outcomes: Outcome[]; seconds: number }> {
  const outcomes: Outcome[] = [];
  let sent = 0;
  const http = httpLoad(base, CLIENTS);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)] as T;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (sent < REQUESTS) {
        sent++;
        const tutor = pick(tutors);
        const contested = tutor.next > 0 && Math.random() < CONTESTED_SHARE;
        const hour = contested ? (tutor.hours[tutor.next - 1] as string) : (tutor.hours[tutor.next++ % tutor.hours.length] as string);
        const student = pick(tutor.students);
        const t0 = performance.now();
        const res = await http.post(
          '/api/book-session',
          { cookie: student.cookie, 'idempotency-key': randomUUID(), origin: base },
          {
            tutorId: tutor.id,
            studentCourseId: student.courseId,
            date: hour,
            duration: 60,
            notes: '',
          },
        );
        const body = res.body as { id?: string; message?: string };
        const answeredAt = Date.now();
        outcomes.push({
          status: res.status,
          ms: performance.now() - t0,
          answeredAt,
          sessionId: res.status === 201 ? (body.id ?? null) : null,
        });
        if (res.status !== 201 && res.status !== 409) say(`unexpected ${res.status}: ${JSON.stringify(body)}`);
      }
    }),
  );
  http.close();
  return { outcomes, seconds: (performance.now() - started) / 1000 };
}

const db = await freshBenchDatabase();
const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', NODE_ENV: 'development', RATE_LIMITS: 'off' });
let system: System | null = null;
let app: Awaited<ReturnType<typeof buildApp>> | null = null;

try {
  system = await createSystem(config, 'all');
  say(`arranging ${TUTORS} tutors and ${STUDENTS} students with courses…`);
  const tutors = await arrange(system);
  app = await buildApp(system, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  say(`booking: ${REQUESTS} requests from ${CLIENTS} clients…`);
  const nodeBefore = process.cpuUsage();
  const postgresBefore = await db.postgresCpuMs();
  const { outcomes, seconds } = await run(base, tutors);
  const nodeCpu = process.cpuUsage(nodeBefore);
  const postgresAfter = await db.postgresCpuMs();
  const cpuPerRequest = {
    node: (nodeCpu.user + nodeCpu.system) / 1000 / outcomes.length,
    postgres: postgresBefore === null || postgresAfter === null ? null : (postgresAfter - postgresBefore) / outcomes.length,
  };

  const booked = outcomes.filter((o) => o.status === 201);
  const refused = outcomes.filter((o) => o.status === 409);
  const latencies = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const committed = new Map(
    (
      await system.sql<{ session_id: string; recorded_at: Date }[]>`
        SELECT data->>'sessionId' AS session_id, recorded_at FROM es_events WHERE type = 'SessionBooked'`
    ).map((r) => [r.session_id, r.recorded_at.getTime()]),
  );
  const lags = booked
    .flatMap((o) => (o.sessionId && committed.has(o.sessionId) ? [o.answeredAt - (committed.get(o.sessionId) as number)] : []))
    .sort((a, b) => a - b);
  const [doubles] = await system.sql<{ n: string }[]>`
    SELECT count(*) AS n FROM (
      SELECT data->>'tutorId', data->>'start' FROM es_events WHERE type = 'SessionBooked'
      GROUP BY 1, 2 HAVING count(*) > 1) AS held_twice`;

  const figures = {
    bookingsPerSecond: Math.round(booked.length / seconds),
    p50Ms: Math.round(percentile(latencies, 50)),
    p99Ms: Math.round(percentile(latencies, 99)),
    lagP99Ms: Math.round(percentile(lags, 99)),
    doubleBookings: Number(doubles?.n ?? 0),
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } else {
    const f = (n: number) => Math.round(n).toLocaleString('en-US');
    const rows: [string, string, string][] = [
      [
        `booking requests (${f(CLIENTS)} clients, ${f(TUTORS)} tutors, ${Math.round(CONTESTED_SHARE * 100)} % contested)`,
        f(outcomes.length),
        '',
      ],
      [
        'booked (201) / refused, hour taken (409) / other',
        `${f(booked.length)} / ${f(refused.length)} / ${f(outcomes.length - booked.length - refused.length)}`,
        '',
      ],
      ['requests answered per second', f(outcomes.length / seconds), ''],
      ['sessions booked per second', f(figures.bookingsPerSecond), '≥ 1,000'],
      ['latency p50, ms (201 and 409)', f(figures.p50Ms), ''],
      ['latency p99, ms', f(figures.p99Ms), '≤ 50'],
      ['projection lag p99, ms (commit → answer, read model showing it)', f(figures.lagP99Ms), '≤ 100'],
      ['double bookings (hours with two sessions, from the event store)', f(figures.doubleBookings), '0'],
      [
        'CPU per request, ms: Node (this process) / PostgreSQL (its backends)',
        `${cpuPerRequest.node.toFixed(1)} / ${cpuPerRequest.postgres === null ? 'n/a' : cpuPerRequest.postgres.toFixed(1)}`,
        '',
      ],
    ];
    console.log(`\nload average at the start: ${load.map((l) => l.toFixed(1)).join(', ')} (${availableParallelism()} cores)`);
    console.log('\n| measure | figure | target |\n|---|---:|---:|');
    for (const [m, v, t] of rows) console.log(`| ${m} | ${v} | ${t} |`);
  }
} finally {
  await app?.close().catch(() => {});
  await system?.close().catch(() => {});
  await db.drop();
}
