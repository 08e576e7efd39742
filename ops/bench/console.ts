/**
 * npm run bench:console [-- --json] [-- --events <n>] [-- --requests <n>] [-- --clients <n>]
 * The operations console's reads over a large log (issue 12's benchmark), over real HTTP, on a
 * fresh database of the local PostgreSQL (DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres), dropped at the end.
 *
 * The whole system runs in this process as `npm start` wires it (sandbox calendar). The corpus:
 * 24 tutors (rates set by an admin, half of them changed mid-period) and 240 students (with a
 * course each, the tutor chosen) made by the command handlers;
 * 25 completed sessions per tutor inside the last closed billing period (hour claimed on the
 * tutor's schedule, credit reserved then consumed, booked then completed, notes sealed by the
 * store); one course whose stream holds exactly 1,000 events (history); and the rest, up to
 * `--events` (default 1,000,000) events in the store, as credit ledgers: a session's credit reserved
 * and released again (booked, then cancelled in time), appended 1,000 events at a time, 8 appends in
 * flight, through `system.store.append`. Every projection (and reactor) then catches up before
 * anything is measured.
 *
 * Each route gets a warm-up, then `--requests` (default 200) sequential requests and as many again
 * from `--clients` (default 4) concurrent clients, signed in as an admin; the p95 covers both.
 * - audit log first page: `GET /api/admin/audit-log` filtered by a random entity's id, a random
 *   actor's id or an event type (a common and a rare one);
 * - history: `GET /api/admin/entities/course/{id}/events` of the 1,000-event course (its state at
 *   a middle revision is measured beside it);
 * - payout preview: `GET /api/admin/payouts?period=` of the period with the sessions.
 * Then every projection is rebuilt from zero as the console asks for it, its progress read as
 * GET /api/admin/projections reads it (`measureRebuildProgressGap`, ops/bench/rebuildProgress.ts):
 * the largest gap between two changes of the reported figures.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { systemClock } from '../../src/adapters/clock/clock.ts';
import { loadConfig } from '../../src/adapters/config/config.ts';
import type { NewEvent } from '../../src/adapters/eventstore/eventStore.ts';
import { claimEnrollment, confirmEnrollment } from '../../src/commands/accounts/enrollment.ts';
import { registerAccount } from '../../src/commands/accounts/registerUser.ts';
import { createStaffAccount } from '../../src/commands/accounts/seedDemo.ts';
import { courseHandlers, courseIdForPurchase, enrollCourse } from '../../src/commands/courses/courseHandlers.ts';
import { commandContext } from '../../src/commands/kit/commandContext.ts';
import { toNewEvents } from '../../src/commands/kit/handleCommand.ts';
import { stepOf } from '../../src/commands/kit/processStep.ts';
import { packageIdOf, seedPackages } from '../../src/commands/packages/seedPackages.ts';
import { seedSubjectCatalog } from '../../src/commands/subjects/seedCatalog.ts';
import { changeTutorRate } from '../../src/commands/tutors/changeTutorRate.ts';
import { tutorHandlers } from '../../src/commands/tutors/tutorHandlers.ts';
import { type CourseEvent, courseStreamId } from '../../src/domain/courses/course.ts';
import { billingPeriodOf, PAYOUT_TIME_ZONE, type Span } from '../../src/domain/payouts/billingPeriod.ts';
import { packageFrequencies } from '../../src/domain/pricing/pricing.ts';
import { type SessionEvent, sessionStreamId } from '../../src/domain/sessions/session.ts';
import { type TutorScheduleEvent, tutorScheduleStreamId } from '../../src/domain/sessions/tutorSchedule.ts';
import { buildApp } from '../../src/http/app.ts';
import { type KnownProjection, waitForProjections } from '../../src/projections/runner/projectionRunner.ts';
import { listSubjects } from '../../src/projections/subjects/queries.ts';
import { createSystem, type System } from '../../src/system.ts';
import { freshBenchDatabase, wholeNumberArg } from './benchDatabase.ts';
import { measureRebuildProgressGap } from './rebuildProgress.ts';

const TUTORS = 24;
const STUDENTS = 240;
const SESSIONS_PER_TUTOR = 25;
const HISTORY_EVENTS = 1000;
const EVENTS_PER_APPEND = 1000;
const APPENDS_IN_FLIGHT = 8;
const CREDITS = 200;
const WARM_UP = 20;
const EVENTS = wholeNumberArg('--events', 1_000_000);
const REQUESTS = wholeNumberArg('--requests', 200);
const CLIENTS = wholeNumberArg('--clients', 4);
const json = process.argv.includes('--json');
const loadAtStart = loadavg();
const say = (line: string) => process.stderr.write(`${line}\n`);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const seconds = (since: number) => (performance.now() - since) / 1000;
const f = (n: number) => Math.round(n).toLocaleString('en-US');
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)] as T;

interface Tutor {
  id: string;
  students: Student[];
}
interface Student {
  userId: string;
  studentId: string;
  courseId: string;
  tutorId: string;
  /** Revision of the course stream's last event (the next append expects it). */
  courseRevision: number;
}
interface Corpus {
  tutors: Tutor[];
  students: Student[];
  historyCourse: Student;
  sessionIds: string[];
  period: Span;
  subject: { id: string; name: string };
  packageId: string;
}

// The benchmark runs at the real time.
const ctx = () => commandContext({ actorRole: 'system', now: systemClock.now() });

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i] as T, i);
      }
    }),
  );
}

async function caughtUp(system: System, names: readonly KnownProjection[], timeoutMs = 120_000) {
  if (!(await waitForProjections(system.sql, names, await system.store.committedPosition(), timeoutMs)))
    throw new Error(`${names.join(', ')} did not catch up`);
}

async function lastRevision(system: System, streamId: string): Promise<number> {
  const events = await system.store.readStream(streamId);
  return events.at(-1)?.revision ?? -1;
}

/**
 * Tutors as onboarding leaves them, each with an hourly rate set by an admin before `period`;
 * every other tutor's rate changes in the middle of it (the rate in force at each start is paid).
 */
async function arrangeTutors(
  system: System,
  adminId: string,
  subjectId: string,
  catalog: { id: string; name: string }[],
  period: Span,
): Promise<Tutor[]> {
  const handlers = tutorHandlers(system.store);
  const { tutors: profiles } = handlers;
  const asAdmin = () => commandContext({ actorId: adminId, actorRole: 'admin', now: system.clock.now() });
  const middle = new Date((period.start.getTime() + period.end.getTime()) / 2);
  const everyDay = Array.from({ length: 7 }, (_, dayOfWeek) => ({ dayOfWeek, startTime: '06:00', endTime: '22:00' }));
  const tutors: Tutor[] = [];
  await inParallel(
    Array.from({ length: TUTORS }, (_, i) => i),
    4,
    async (i) => {
      const n = `${i}-${randomBytes(3).toString('hex')}`;
      const { userId: tutorId } = await registerAccount(
        system.accounts,
        {
          phone: null,
          emailVerified: true,
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
      const asTutor = () => commandContext({ actorId: tutorId, actorRole: 'tutor', now: system.clock.now() });
      await profiles.handle(
        tutorId,
        { type: 'CreateTutorProfile', data: { tutorId, userId: tutorId, applicationId: `bench-${n}` } },
        ctx(),
      );
      await profiles.handle(tutorId, { type: 'EditTutorProfile', data: { tutorId, bio: 'Benchmark tutor.', experience: 5 } }, asTutor());
      await profiles.handle(
        tutorId,
        { type: 'SetQualifications', data: { tutorId, qualifications: [{ subjectId, maxGradeLevel: 'university' }], catalog } },
        asTutor(),
      );
      await profiles.handle(tutorId, { type: 'SetWeeklyHours', data: { tutorId, availability: everyDay, timeZone: 'UTC' } }, asTutor());
      await profiles.handle(tutorId, { type: 'CompleteOnboarding', data: { tutorId, calendarConnected: true } }, asTutor());
      const since = new Date(period.start.getTime() - 90 * 86_400_000);
      await changeTutorRate(
        handlers,
        { tutorId, hourlyRateCents: 4000 + 125 * i, effectiveFrom: since, reason: 'Starting rate' },
        asAdmin(),
      );
      if (i % 2 === 1)
        await changeTutorRate(
          handlers,
          { tutorId, hourlyRateCents: 4500 + 125 * i, effectiveFrom: middle, reason: 'Yearly review' },
          asAdmin(),
        );
      tutors[i] = { id: tutorId, students: [] };
    },
  );
  return tutors;
}

/** One student with a paid, started course of `tutor`, through the same handlers a purchase uses. */
async function arrangeStudent(system: System, i: number, tutor: Tutor, subjectId: string, packageId: string): Promise<Student> {
  const n = `${i}-${randomBytes(3).toString('hex')}`;
  const { userId, studentId } = await registerAccount(
    system.accounts,
    {
      phone: null,
      emailVerified: true,
      username: `bench-student-${n}`,
      email: `bench-student-${n}@example.com`,
      // Google sign-in: no password to hash, which would dominate arranging 240 students.
      password: null,
      role: 'student',
      firstName: 'Bench',
      lastName: `Student ${i}`,
      authProvider: 'google',
      googleId: `bench-google-student-${n}`,
      termsAccepted: { version: '1.0', ip: null },
      student: { grade: 'Grade 10', isUniversityStudent: false },
    },
    ctx(),
  );
  if (!studentId) throw new Error('no student profile');
  const courses = courseHandlers(system.store);
  const purchaseId = `bench-purchase-${n}`;
  const courseId = courseIdForPurchase(purchaseId);
  await claimEnrollment(system.accounts.handlers, { studentId, subjectId, purchaseId, gradeTierId: 'grade_10_under' }, ctx());
  await enrollCourse(courses, { courseId, studentId, subjectId, packageId, purchaseId, credits: CREDITS }, ctx());
  await confirmEnrollment(system.accounts.handlers, { studentId, purchaseId, courseId }, ctx());
  await courses.courses.handle(courseId, { type: 'ChooseCourseTutor', data: { courseId, tutorId: tutor.id, tutorQualified: true } }, ctx());
  await courses.courses.handle(courseId, { type: 'ActivateCourse', data: { courseId } }, ctx());
  return { userId, studentId, courseId, tutorId: tutor.id, courseRevision: await lastRevision(system, courseStreamId(courseId)) };
}

const asStudent = (s: Student, now: Date) => commandContext({ actorId: s.userId, actorRole: 'student', now });

/**
 * 25 completed sessions per tutor in `period`, one hour each on the period's days (09:00 and
 * 10:00 Toronto, whole days inside the period): what a booking and a completion record on the
 * tutor's schedule, the course's ledger and the session's own stream.
 */
async function recordSessions(system: System, tutors: Tutor[], period: Span, subject: { id: string; name: string }): Promise<string[]> {
  const days = Math.round((period.end.getTime() - period.start.getTime()) / 86_400_000);
  const sessionIds: string[] = [];
  await inParallel(tutors, 4, async (tutor) => {
    const claims: NewEvent[] = [];
    for (let k = 0; k < SESSIONS_PER_TUTOR; k++) {
      const student = tutor.students[k % tutor.students.length] as Student;
      const sessionId = randomUUID();
      sessionIds.push(sessionId);
      const start = new Date(period.start.getTime() + (k % days) * 86_400_000 + (9 + Math.floor(k / days)) * 3_600_000);
      const end = new Date(start.getTime() + 3_600_000);
      const bookedAt = new Date(start.getTime() - 3 * 86_400_000);
      const completedAt = new Date(end.getTime() + 5 * 60_000);
      // One request books (claim, credit, session) and another completes: each step its own command id, as the handlers derive them.
      const booking = stepOf(asStudent(student, bookedAt));
      const completion = stepOf(commandContext({ actorId: tutor.id, actorRole: 'tutor', now: completedAt }));
      const hour = { tutorId: tutor.id, sessionId, start: start.toISOString(), end: end.toISOString() };
      const claim: TutorScheduleEvent = {
        type: 'TutorHourClaimed',
        data: { ...hour, courseId: student.courseId, at: bookedAt.toISOString() },
      };
      claims.push(...toNewEvents([claim], booking('claim')));
      const reserved: CourseEvent = {
        type: 'CourseCreditReserved',
        data: { courseId: student.courseId, sessionId, at: bookedAt.toISOString() },
      };
      const consumed: CourseEvent = {
        type: 'CourseCreditConsumed',
        data: { courseId: student.courseId, sessionId, at: completedAt.toISOString() },
      };
      const booked: SessionEvent = {
        type: 'SessionBooked',
        data: {
          ...hour,
          studentId: student.studentId,
          studentUserId: student.userId,
          courseId: student.courseId,
          subjectId: subject.id,
          subjectName: subject.name,
          durationMinutes: 60,
          notes: 'Quadratics: factoring and the discriminant',
          bookedBy: student.userId,
          bookedByRole: 'student',
          tutorTimeZone: 'UTC',
          studentTimeZone: PAYOUT_TIME_ZONE,
          at: bookedAt.toISOString(),
        },
      };
      const completed: SessionEvent = {
        type: 'SessionCompleted',
        data: {
          sessionId,
          tutorId: tutor.id,
          studentId: student.studentId,
          studentUserId: student.userId,
          courseId: student.courseId,
          completedBy: tutor.id,
          notes: 'Factored six quadratics; practise completing the square before next time.',
          at: completedAt.toISOString(),
        },
      };
      await system.store.append(
        courseStreamId(student.courseId),
        [...toNewEvents([reserved], booking('credit')), ...toNewEvents([consumed], completion('credit'))],
        { exact: student.courseRevision },
      );
      student.courseRevision += 2;
      await system.store.append(
        sessionStreamId(sessionId),
        [...toNewEvents([booked], booking('session')), ...toNewEvents([completed], completion('session'))],
        'no_stream',
      );
    }
    await system.store.append(tutorScheduleStreamId(tutor.id), claims, 'any');
  });
  return sessionIds;
}

/** A session's credit reserved by a booking and released by a cancellation in time, some day in the past year. */
function reservedAndReleased(student: Student): NewEvent[] {
  const sessionId = randomUUID();
  const bookedAt = new Date(Date.now() - Math.floor(Math.random() * 365 * 86_400_000));
  const cancelledAt = new Date(bookedAt.getTime() + 3_600_000);
  const reserved: CourseEvent = {
    type: 'CourseCreditReserved',
    data: { courseId: student.courseId, sessionId, at: bookedAt.toISOString() },
  };
  const released: CourseEvent = {
    type: 'CourseCreditReleased',
    data: { courseId: student.courseId, sessionId, at: cancelledAt.toISOString() },
  };
  const correlationId = randomUUID();
  return [
    ...toNewEvents([reserved], commandContext({ actorId: student.userId, actorRole: 'student', now: bookedAt, correlationId })),
    ...toNewEvents([released], commandContext({ actorId: student.userId, actorRole: 'student', now: cancelledAt, correlationId })),
  ];
}

/** `count` ledger events: reserve/release pairs, after a repurchase's credits when `count` is odd. */
function ledgerEvents(student: Student, count: number, packageId: string): NewEvent[] {
  const events: NewEvent[] = [];
  if (count % 2 === 1) {
    const added: CourseEvent = {
      type: 'CourseCreditsAdded',
      data: {
        courseId: student.courseId,
        packageId,
        purchaseId: `bench-repurchase-${randomUUID()}`,
        credits: 10,
        at: new Date().toISOString(),
      },
    };
    events.push(...toNewEvents([added], ctx()));
  }
  while (events.length + 2 <= count) events.push(...reservedAndReleased(student));
  return events;
}

/** The history course's stream to exactly HISTORY_EVENTS events. */
async function fillHistoryCourse(system: System, student: Student, packageId: string) {
  const events = ledgerEvents(student, HISTORY_EVENTS - (student.courseRevision + 1), packageId);
  await system.store.append(courseStreamId(student.courseId), events, { exact: student.courseRevision });
  student.courseRevision += events.length;
}

/** The bulk: `total` ledger events, EVENTS_PER_APPEND per append, APPENDS_IN_FLIGHT appends at once (each writer owns its courses). */
async function fillLedgers(system: System, students: Student[], total: number, packageId: string): Promise<number> {
  let left = total;
  let written = 0;
  let lastReport = performance.now();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: APPENDS_IN_FLIGHT }, async (_, w) => {
      const mine = students.filter((_s, i) => i % APPENDS_IN_FLIGHT === w);
      for (let k = 0; left > 0; k++) {
        const student = mine[k % mine.length] as Student;
        const n = Math.min(EVENTS_PER_APPEND, left);
        left -= n;
        const events = ledgerEvents(student, n, packageId);
        await system.store.append(courseStreamId(student.courseId), events, { exact: student.courseRevision });
        student.courseRevision += events.length;
        written += events.length;
        if (performance.now() - lastReport > 5000) {
          lastReport = performance.now();
          say(`  ${f(written)} of ${f(total)} ledger events (${f(written / seconds(started))}/s)`);
        }
      }
    }),
  );
  return written;
}

async function arrange(system: System, adminId: string): Promise<Corpus> {
  await seedSubjectCatalog(system);
  await seedPackages(system);
  await caughtUp(system, ['subjects', 'packages']);
  const catalog = (await listSubjects(system.sql)).map((s) => ({ id: s.id, name: s.name }));
  const subject = catalog.find((s) => s.name === 'Math (Grade 10 & Under)');
  if (!subject) throw new Error('the catalogue has no Math (Grade 10 & Under)');
  const packageId = packageIdOf('grade_10_under', (packageFrequencies[0] as { id: string }).id);
  const current = billingPeriodOf(new Date(), PAYOUT_TIME_ZONE);
  const period = billingPeriodOf(new Date(current.start.getTime() - 1), PAYOUT_TIME_ZONE);
  const tutors = await arrangeTutors(system, adminId, subject.id, catalog, period);
  const students: Student[] = [];
  // One more student than the rest: the course whose history is measured, kept out of sessions and the bulk.
  await inParallel(
    Array.from({ length: STUDENTS + 1 }, (_, i) => i),
    6,
    async (i) => {
      students[i] = await arrangeStudent(system, i, tutors[i % TUTORS] as Tutor, subject.id, packageId);
    },
  );
  const historyCourse = students.pop() as Student;
  for (const s of students) tutors.find((t) => t.id === s.tutorId)?.students.push(s);
  const sessionIds = await recordSessions(system, tutors, period, subject);
  await fillHistoryCourse(system, historyCourse, packageId);
  return { tutors, students, historyCourse, sessionIds, period, subject, packageId };
}

/** Waits (≤ 2 min) until no job that is due is waiting or running: the sessions' calendar jobs have run. */
async function jobsSettled(system: System) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const [row] = await system.sql<{ n: string }[]>`
      SELECT count(*) AS n FROM pgboss.job WHERE state IN ('created', 'retry', 'active') AND start_after <= now()`;
    if (Number(row?.n ?? 0) === 0) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  say('  jobs still due after 2 minutes; measuring anyway');
}

interface RouteFigures {
  sequential: number[];
  concurrent: number[];
  failures: Map<string, number>;
}

/** Warm-up, then REQUESTS one after another, then REQUESTS from CLIENTS clients at once. */
async function measure(label: string, cookie: string, nextUrl: () => string): Promise<RouteFigures> {
  const failures = new Map<string, number>();
  const once = async () => {
    const t0 = performance.now();
    const res = await fetch(nextUrl(), { headers: { cookie } });
    const body = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) {
      const key = `${res.status} ${body.slice(0, 120)}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
    }
    return ms;
  };
  say(`${label}: warm-up, ${REQUESTS} sequential, ${REQUESTS} from ${CLIENTS} clients…`);
  for (let i = 0; i < WARM_UP; i++) await once();
  failures.clear();
  const sequential: number[] = [];
  for (let i = 0; i < REQUESTS; i++) sequential.push(await once());
  const concurrent: number[] = [];
  let sent = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (sent < REQUESTS) {
        sent++;
        concurrent.push(await once());
      }
    }),
  );
  for (const [failure, n] of failures) say(`  ${n} × ${failure}`);
  return { sequential, concurrent, failures };
}

const p95 = (ms: number[]) =>
  percentile(
    [...ms].sort((a, b) => a - b),
    95,
  );
/** A route that never answered 200 is not there (yet): no figure rather than the speed of its 404. */
const p95OfRoute = (r: RouteFigures) => {
  const failed = [...r.failures.values()].reduce((a, b) => a + b, 0);
  return failed >= r.sequential.length + r.concurrent.length ? null : Math.round(p95([...r.sequential, ...r.concurrent]));
};

const db = await freshBenchDatabase();
const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', NODE_ENV: 'development', RATE_LIMITS: 'off' });
let system: System | null = null;
let app: Awaited<ReturnType<typeof buildApp>> | null = null;

try {
  system = await createSystem(config, 'all');
  say(`arranging ${TUTORS} tutors, ${STUDENTS + 1} students with courses, ${f(TUTORS * SESSIONS_PER_TUTOR)} completed sessions…`);
  const { userId: adminId } = await createStaffAccount(system.accounts, system.clock, {
    username: `bench-admin-${randomBytes(3).toString('hex')}`,
    email: `bench-admin-${randomBytes(3).toString('hex')}@example.com`,
    firstName: 'Bench',
    lastName: 'Admin',
    password: 'bench-password-1',
    role: 'admin',
  });
  await caughtUp(system, ['users']);
  let t0 = performance.now();
  const corpus = await arrange(system, adminId);
  say(`  arranged in ${seconds(t0).toFixed(1)} s`);
  const arranged = await system.store.countAfter('');
  say(`filling the store to ${f(EVENTS)} events (${f(arranged)} so far)…`);
  t0 = performance.now();
  const filled = await fillLedgers(system, corpus.students, Math.max(0, EVENTS - arranged), corpus.packageId);
  const fillSeconds = seconds(t0);
  say(`  ${f(filled)} events in ${fillSeconds.toFixed(1)} s: ${f(filled / fillSeconds)} events/s`);
  t0 = performance.now();
  // Every projector and reactor of the system: each has a checkpoint.
  const names = [...system.projections.projectors, ...system.reactors.projectors].map((p) => p.name as KnownProjection);
  await caughtUp(system, names, 30 * 60_000);
  const catchUpSeconds = seconds(t0);
  say(`  projections and reactors caught up ${catchUpSeconds.toFixed(1)} s after the last append`);
  await jobsSettled(system);

  const cookie = `tm_session=${(await system.signIns.create(adminId, 'admin')).token}`;
  app = await buildApp(system, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const loadAtMeasure = loadavg();
  const events = await system.store.countAfter('');

  const entities = [
    ...corpus.students.map((s) => s.courseId),
    ...corpus.students.map((s) => s.userId),
    ...corpus.sessionIds,
    ...corpus.tutors.map((t) => t.id),
  ];
  const actors = [...corpus.students.map((s) => s.userId), ...corpus.tutors.map((t) => t.id)];
  const types = ['CourseCreditReserved', 'SessionCompleted', 'CourseEnrolled', 'TutorProfileCreated'];
  const auditFilters = [
    () => `entityId=${encodeURIComponent(pick(entities))}`,
    () => `actorId=${encodeURIComponent(pick(actors))}`,
    () => `type=${pick(types)}`,
  ];
  // What is measured is a real answer: the whole history in one page, a line per tutor with money.
  const sample = async (path: string) => (await (await fetch(`${base}${path}`, { headers: { cookie } })).json().catch(() => ({}))) as never;
  const historySample: { events?: unknown[] } = await sample(`/api/admin/entities/course/${corpus.historyCourse.courseId}/events`);
  const payoutSample: { lines?: unknown[]; total?: number } = await sample(`/api/admin/payouts?period=${corpus.period.firstDay}`);
  say(
    `history answers ${historySample.events?.length ?? 'no'} events; the payout preview ${payoutSample.lines?.length ?? 'no'} lines, total $${payoutSample.total ?? '?'}`,
  );
  const audit = await measure('audit log, first page with a filter', cookie, () => `${base}/api/admin/audit-log?${pick(auditFilters)()}`);
  const historyUrl = `${base}/api/admin/entities/course/${corpus.historyCourse.courseId}`;
  const history = await measure(`history of a ${f(HISTORY_EVENTS)}-event course`, cookie, () => `${historyUrl}/events`);
  const middle = await measure('its state at a middle revision', cookie, () => `${historyUrl}/state?revision=${HISTORY_EVENTS / 2}`);
  const payouts = await measure('payout period preview', cookie, () => `${base}/api/admin/payouts?period=${corpus.period.firstDay}`);
  say(`rebuilding every projection over ${f(events)} events…`);
  const rebuild = await measureRebuildProgressGap(system);
  say(
    `  ${f(rebuild.updates)} progress updates in ${f(rebuild.totalMs)} ms; heartbeat gap ${f(rebuild.heartbeatMaxGapMs)} ms; the largest gap ended with ${rebuild.worstGap}`,
  );

  const figures = {
    events,
    auditFirstPageP95Ms: p95OfRoute(audit),
    historyP95Ms: p95OfRoute(history),
    payoutPreviewP95Ms: p95OfRoute(payouts),
    rebuildProgressMaxGapMs: rebuild.maxGapMs,
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } else {
    const ms = (r: RouteFigures, which: 'sequential' | 'concurrent' | 'both') => {
      if (p95OfRoute(r) === null) return 'route missing';
      const xs = which === 'both' ? [...r.sequential, ...r.concurrent] : r[which];
      return f(p95(xs));
    };
    const route = (label: string, r: RouteFigures, target: string): [string, string, string][] => [
      [`${label}: p95 ms (sequential / ${CLIENTS} clients)`, `${ms(r, 'sequential')} / ${ms(r, 'concurrent')}`, ''],
      [`${label}: p95 ms, all ${f(r.sequential.length + r.concurrent.length)} requests`, ms(r, 'both'), target],
    ];
    const rows: [string, string, string][] = [
      ['events in the store', f(events), '1,000,000'],
      [`bulk fill, events/s (${f(EVENTS_PER_APPEND)} per append, ${APPENDS_IN_FLIGHT} in flight)`, f(filled / fillSeconds), ''],
      ['projections caught up after the last append, s', catchUpSeconds.toFixed(1), ''],
      ...route('audit log first page, filtered', audit, '≤ 200'),
      ...route(`history of a ${f(HISTORY_EVENTS)}-event course`, history, '≤ 200'),
      ...route('its state at a middle revision', middle, ''),
      ...route(`payout preview (${f(corpus.sessionIds.length)} sessions, ${TUTORS} tutors)`, payouts, '≤ 200'),
      [`full rebuild (${(rebuild.totalMs / 1000).toFixed(1)} s): largest gap between progress updates, ms`, f(rebuild.maxGapMs), '≤ 1,000'],
    ];
    const l = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
    console.log(`\nload average at the start: ${l(loadAtStart)}; when measuring: ${l(loadAtMeasure)} (${availableParallelism()} cores)`);
    console.log('\n| measure | figure | target |\n|---|---:|---:|');
    for (const [m, v, t] of rows) console.log(`| ${m} | ${v} | ${t} |`);
  }
} finally {
  await app?.close().catch(() => {});
  await system?.close().catch(() => {});
  await db.drop();
}
