import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/adapters/config/config.ts';
import { devSubjectOf } from '../../src/adapters/identity/devIdentity.ts';
import { listOutbox } from '../../src/adapters/mail/outboxMailer.ts';
import { createStaffAccount, demoTutorAccounts } from '../../src/commands/accounts/seedDemo.ts';
import { demoTutors, seedDemoTutors } from '../../src/commands/tutors/seedDemoTutors.ts';
import { TUTOR_SELECTION_PENDING } from '../../src/domain/accounts/studentDecider.ts';
import { SESSION_EVENT_PROPERTY } from '../../src/domain/calendar/calendarHours.ts';
import { projectionListSchema, rebuildAcceptedSchema } from '../../src/domain/operations/projectionApi.ts';
import { tutorRateViewSchema } from '../../src/domain/payouts/payoutApi.ts';
import type { TutorListEntry } from '../../src/domain/tutors/tutorApi.ts';
import { projectors } from '../../src/projections/projectors.ts';
import { waitForProjections } from '../../src/projections/runner/projectionRunner.ts';
import { listSubjects } from '../../src/projections/subjects/queries.ts';
import { createSystem, type System } from '../../src/system.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { type Cluster, startCluster } from './cluster.ts';
import {
  BOOKING_ZONE,
  book,
  type CourseChoice,
  call,
  cancel,
  complete,
  courseCredits,
  createPromoCode,
  eventually,
  type FreeSlot,
  freeSlots,
  payoutsFor,
  purchaseCourse,
  type RegisteredStudent,
  refund,
  registerStudent,
  reschedule,
  selectTutor,
  signInStaff,
  startNextEnrolment,
  studentSessions,
  tutorSignIn,
  tutorsForCourse,
  type User,
} from './journeys.ts';

/**
 * Issue 20: the product as deployed — 2 API processes behind a round-robin proxy, 2 projector and
 * 2 worker processes, one PostgreSQL database — driven over HTTP through the proxy, so each user's
 * consecutive requests land on different processes. A projector and a worker are killed with
 * SIGKILL in the middle of a burst of bookings and replaced. Every answer is checked when it is
 * given; afterwards, no mail or calendar event is missing or doubled, every projection runs with
 * nothing parked, and every read model equals a full rebuild from the log.
 */

const ADMIN = { username: 'shape.admin', password: 'shape-admin-pass-1' };
const FINANCE = { username: 'shape.finance', password: 'shape-finance-pass-1' };
const CALCULUS: CourseChoice = { subjectName: 'Calculus (Grade 11-12)', gradeTier: 'grade_11_12', sessionCount: 4 };
const DATA_MANAGEMENT: CourseChoice = { subjectName: 'Data Management (Grade 11-12)', gradeTier: 'grade_11_12', sessionCount: 4 };
const CROWD = 20;
const HOUR_MS = 3_600_000;
const maya = demoTutors.find((t) => t.key === 'maya') as (typeof demoTutors)[number];

let db: TestDatabase;
let cluster: Cluster;
let seeder: System;
let admin: User;
let mayaId: string;
const registered: RegisteredStudent[] = [];

beforeAll(async () => {
  db = await createTestDatabase('shape');
  cluster = await startCluster({ databaseUrl: db.url });
  // Staff and the two demo tutors come from the commands an operator runs (`ops admin:create`,
  // the demo seed): the product has no HTTP route that makes them. A `cli` system writes them to
  // the same log; the cluster's projectors build their read models.
  seeder = await createSystem(loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', NODE_ENV: 'test' }), 'cli');
  for (const [who, role] of [
    [ADMIN, 'admin'],
    [FINANCE, 'finance'],
  ] as const) {
    await createStaffAccount(seeder.accounts, seeder.clock, {
      username: who.username,
      email: `${who.username}@example.com`,
      firstName: 'Shape',
      lastName: role,
      password: who.password,
      role,
    });
  }
  if (!(await waitForProjections(seeder.sql, ['subjects', 'packages'], await seeder.store.committedPosition(), 60_000)))
    throw new Error(`the catalogue's read models did not catch up\n${cluster.logs()}`);
  await seedDemoTutors(
    { store: seeder.store, accounts: demoTutorAccounts(seeder.accounts), clock: seeder.clock },
    await listSubjects(seeder.sql),
    {
      calendarConnected: true,
      googleIdOf: devSubjectOf,
    },
  );
  if (!(await waitForProjections(seeder.sql, ['users', 'students', 'tutors'], await seeder.store.committedPosition(), 60_000)))
    throw new Error(`the tutors' read models did not catch up\n${cluster.logs()}`);
  // The hours saga (on a worker) writes each tutor's weekly hours to their calendar as "Topmark Hours": the slots come from there.
  await eventually(
    'the demo tutors’ hours in their calendars',
    async () => {
      const [row] = await db.sql<{ n: number }[]>`
        SELECT count(DISTINCT owner_id)::int AS n FROM sandbox_calendar_events WHERE lower(summary) = 'topmark hours' AND status <> 'cancelled'`;
      return (row?.n ?? 0) >= demoTutors.length;
    },
    60_000,
  );
  admin = await signInStaff(cluster.url, ADMIN.username, ADMIN.password);
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  await seeder?.close();
  await db?.drop();
});

const newYorkDay = (days: number, from = Date.now()) =>
  new Date(from + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: BOOKING_ZONE });

/** From two days ahead, the first New York day with free hours at least `spanHours` apart (first and last). */
async function dayWithSpread(user: User, tutorId: string, spanHours: number): Promise<{ day: string; slots: FreeSlot[] }> {
  for (let days = 2; days <= 16; days++) {
    const day = newYorkDay(days);
    const slots = await freeSlots(user, tutorId, day);
    const first = slots[0];
    const last = slots[slots.length - 1];
    if (first && last && Date.parse(last.start) - Date.parse(first.start) >= spanHours * HOUR_MS && slots.length >= 3)
      return { day, slots };
  }
  throw new Error('the tutor has no day with spread-out free hours in the next two weeks');
}

async function inBatches<T, R>(items: readonly T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return out;
}

const mayaIn = (tutors: TutorListEntry[]) => tutors.find((t) => t.user.firstName === maya.firstName && t.user.lastName === maya.lastName);

describe.sequential('the production shape: 2 API processes behind a proxy, 2 projectors, 2 workers', () => {
  let ava: RegisteredStudent;
  let avaCourse: string;
  let avaPurchase: string;

  it('registers, buys with a promo code, chooses the tutor, and may then enrol again — each step on another process', async () => {
    ava = await registerStudent(cluster.url, db.sql, 'ava');
    registered.push(ava);
    const promo = await createPromoCode(admin, { code: 'SHAPE10', discountType: 'percentage', discountValue: 10 });
    expect(promo).toMatchObject({ code: 'SHAPE10', currentUses: 0 });
    const bought = await purchaseCourse(ava, { ...CALCULUS, promoCode: 'SHAPE10' });
    expect(bought).toMatchObject({ originalPrice: 300, discountAmount: 30, amount: 270 });
    avaCourse = bought.courseId;
    avaPurchase = bought.purchaseId;
    expect(await courseCredits(ava, avaCourse)).toEqual({ total: 4, remaining: 4, used: 0, completed: 0, upcoming: 0 });

    const refused = await startNextEnrolment(ava, DATA_MANAGEMENT);
    expect(refused).toEqual({ ok: false, status: 409, body: { message: TUTOR_SELECTION_PENDING } });
    const listed = mayaIn(await tutorsForCourse(ava, avaCourse));
    expect(listed).toBeDefined();
    mayaId = (listed as TutorListEntry).id;
    const rate = await call(admin, 'PUT', `/api/admin/tutors/${mayaId}/rate`, tutorRateViewSchema, {
      json: { hourlyRate: 45, reason: 'Agreed at approval' },
    });
    expect(rate).toMatchObject({ tutorId: mayaId, hourlyRate: 45 });
    await selectTutor(ava, avaCourse, mayaId);
    // The second failure: the choice was made on one process, this asks the other.
    const allowed = await startNextEnrolment(ava, DATA_MANAGEMENT);
    expect(allowed.ok, JSON.stringify(allowed.body)).toBe(true);
  });

  it(`${CROWD} students book one hour at once while a projector and a worker are killed: one wins, the credits are right at once`, async () => {
    const crowd = await inBatches(
      Array.from({ length: CROWD }, (_, i) => i),
      5,
      async (i) => {
        const student = await registerStudent(cluster.url, db.sql, `crowd${i}`);
        const { courseId, purchaseId } = await purchaseCourse(student, CALCULUS);
        await selectTutor(student, courseId, mayaId);
        return { student, courseId, purchaseId };
      },
    );
    registered.push(...crowd.map((c) => c.student));
    const { slots } = await dayWithSpread(ava, mayaId, 0);
    const hour = slots[0] as FreeSlot;

    const bookings = Promise.all(crowd.map((c) => book(c.student, { tutorId: mayaId, courseId: c.courseId, start: hour.start })));
    // Mid-burst: an OOM killer takes a projector and a worker.
    await new Promise((r) => setTimeout(r, 30));
    await Promise.all([cluster.kill('projector-1'), cluster.kill('worker-1')]);
    const answers = await bookings;

    const won = answers.filter((a) => a.ok);
    expect(won.length, JSON.stringify(answers.map((a) => [a.status, a.body]))).toBe(1);
    expect(answers.filter((a) => !a.ok && a.status === 409)).toHaveLength(CROWD - 1);
    const winner = crowd[answers.findIndex((a) => a.ok)] as (typeof crowd)[number];
    // Right after the answers, through whichever process the proxy picks.
    for (const c of crowd) {
      const credits = await courseCredits(c.student, c.courseId);
      expect(credits, c.student.username).toMatchObject(c === winner ? { remaining: 3, upcoming: 1 } : { remaining: 4, upcoming: 0 });
    }
    // The orchestrator replaces what was killed.
    await Promise.all([cluster.restart('projector-1'), cluster.restart('worker-1')]);

    // The calendar saga's job may have died with the worker: it is picked up again, once.
    const sessionId = (won[0] as { body: { id: string } }).body.id;
    const link = await eventually(
      'the winner’s Meet link',
      async () => (await studentSessions(winner.student)).find((s) => s.id === sessionId)?.meetingLink,
      90_000,
    );
    expect(link).toMatch(/^https?:\/\//);

    // A refund of an untouched pack through the console: all four credits come off at once.
    const loser = crowd.find((c) => c !== winner) as (typeof crowd)[number];
    const refunded = await refund(admin, loser.purchaseId, 'Changed schools');
    expect(refunded).toMatchObject({ purchaseId: loser.purchaseId, creditsRemoved: 4, amount: 300 });
    expect(await courseCredits(loser.student, loser.courseId)).toMatchObject({ remaining: 0, upcoming: 0 });
  });

  it('reschedules, cancels early and late, completes, and pays out — credits right after every answer', async () => {
    const { day, slots } = await dayWithSpread(ava, mayaId, 3);
    const [early, moved, late] = [slots[0], slots[1], slots[slots.length - 1]] as [FreeSlot, FreeSlot, FreeSlot];

    // Early cancellation (days ahead): the credit comes back in the answer's wake.
    const first = await book(ava, { tutorId: mayaId, courseId: avaCourse, start: moved.start });
    expect(first.ok, JSON.stringify(first.body)).toBe(true);
    expect(await courseCredits(ava, avaCourse)).toMatchObject({ remaining: 3, upcoming: 1 });
    const firstId = (first.body as { id: string }).id;
    const rescheduled = await reschedule(ava, firstId, { date: day, time: early.time });
    expect(rescheduled.ok, JSON.stringify(rescheduled.body)).toBe(true);
    expect((await freeSlots(ava, mayaId, day)).map((s) => s.time)).toContain(moved.time);
    const released = await cancel(ava, firstId, 'Exam moved');
    expect(released).toEqual({ ok: true, status: 200, body: { id: firstId, status: 'cancelled', credit: 'released' } });
    expect(await courseCredits(ava, avaCourse)).toMatchObject({ remaining: 4, upcoming: 0 });

    // Two more sessions on that day: one to complete, one to cancel too late.
    const toComplete = await book(ava, { tutorId: mayaId, courseId: avaCourse, start: early.start });
    const toForfeit = await book(ava, { tutorId: mayaId, courseId: avaCourse, start: late.start });
    expect([toComplete.status, toForfeit.status]).toEqual([201, 201]);
    const completeId = (toComplete.body as { id: string }).id;
    const forfeitId = (toForfeit.body as { id: string }).id;
    expect(await courseCredits(ava, avaCourse)).toMatchObject({ remaining: 2, upcoming: 2 });

    // The session's start passes on every process's clock; the tutor completes it.
    await cluster.setClock(new Date(Date.parse(early.start) + 10 * 60_000));
    const tutor = await tutorSignIn(cluster.url, maya.email);
    const completed = await complete(tutor, completeId, 'Limits and continuity: practise 3.2');
    expect(completed.ok, JSON.stringify(completed.body)).toBe(true);
    expect(await courseCredits(ava, avaCourse)).toMatchObject({ remaining: 2, completed: 1, upcoming: 1 });

    // Two hours before the other one starts: a cancellation now forfeits its credit.
    await cluster.setClock(new Date(Date.parse(late.start) - 2 * HOUR_MS));
    const forfeited = await cancel(ava, forfeitId, 'Sick');
    expect(forfeited).toEqual({ ok: true, status: 200, body: { id: forfeitId, status: 'cancelled', credit: 'forfeited' } });
    expect(await courseCredits(ava, avaCourse)).toMatchObject({ remaining: 2, upcoming: 0 });

    // Finance's payout for the period: both sessions are Maya's hours, at her rate, recomputable.
    const finance = await signInStaff(cluster.url, FINANCE.username, FINANCE.password);
    const payout = await payoutsFor(finance, day);
    const line = payout.lines.find((l) => l.tutorId === mayaId && l.kind === 'sessions') ?? payout.lines.find((l) => l.tutorId === mayaId);
    expect(line, JSON.stringify(payout.lines)).toBeDefined();
    expect(line).toMatchObject({ sessions: 2, hours: 2, rate: 45, amount: 90 });
    await cluster.setClock(null);
    expect(avaPurchase).toBeTruthy();
  });

  it('leaves every projection running with nothing parked, each mail and calendar event once, and read models equal to a rebuild', async () => {
    // Every API process answered some of the traffic.
    for (const api of cluster.processes.filter((p) => p.mode === 'api')) expect(api.served, api.name).toBeGreaterThan(20);

    const projectionsNow = () => call(admin, 'GET', '/api/admin/projections', projectionListSchema);
    await eventually(
      'every projection caught up',
      async () => {
        const list = await projectionsNow();
        return list.every((p) => p.lagEvents === 0) ? list : null;
      },
      60_000,
    );
    for (const p of await projectionsNow()) {
      expect(p.status, p.name).toBe('running');
      expect(p.parked, p.name).toBe(0);
      expect(p.lastError, p.name).toBeNull();
    }

    // Each registered student got exactly one verification code and one receipt for their one paid purchase; no mail was sent twice.
    const mails = await eventually(
      'every receipt',
      async () => {
        const all = await listOutbox(db.sql, { limit: 10_000 });
        return registered.every((r) => all.some((m) => m.to === r.email && m.subject.startsWith('Your Topmark receipt'))) ? all : null;
      },
      60_000,
    );
    const mailsTo = (email: string, subject: string) => mails.filter((m) => m.to === email && m.subject.startsWith(subject));
    for (const student of registered) {
      expect(mailsTo(student.email, 'Your Topmark verification code'), student.email).toHaveLength(1);
      expect(mailsTo(student.email, 'Your Topmark receipt'), student.email).toHaveLength(1);
    }
    const seen = new Map<string, number>();
    for (const m of mails)
      seen.set(`${m.to}\u0000${m.subject}\u0000${m.text}`, (seen.get(`${m.to}\u0000${m.subject}\u0000${m.text}`) ?? 0) + 1);
    expect([...seen.entries()].filter(([, n]) => n > 1)).toEqual([]);

    // One calendar event per session, in the state of its session, with a Meet link if it happens.
    const events = await db.sql<{ session_id: string; status: string; meeting_link: string | null }[]>`
      SELECT private_properties->>${SESSION_EVENT_PROPERTY} AS session_id, status, meeting_link
      FROM sandbox_calendar_events WHERE private_properties ? ${SESSION_EVENT_PROPERTY}`;
    const sessions = await db.sql<{ id: string; status: string }[]>`SELECT id, status FROM sessions`;
    expect(sessions.length).toBeGreaterThanOrEqual(4);
    await eventually(
      'a calendar event per session',
      async () => {
        const rows = await db.sql<{ session_id: string }[]>`
          SELECT private_properties->>${SESSION_EVENT_PROPERTY} AS session_id FROM sandbox_calendar_events
          WHERE private_properties ? ${SESSION_EVENT_PROPERTY} AND status = 'confirmed'`;
        const live = sessions.filter((s) => s.status !== 'cancelled').map((s) => s.id);
        return live.every((id) => rows.some((r) => r.session_id === id));
      },
      60_000,
    );
    const finalEvents = await db.sql<{ session_id: string; status: string; meeting_link: string | null }[]>`
      SELECT private_properties->>${SESSION_EVENT_PROPERTY} AS session_id, status, meeting_link
      FROM sandbox_calendar_events WHERE private_properties ? ${SESSION_EVENT_PROPERTY}`;
    expect(finalEvents.length).toBeGreaterThanOrEqual(events.length);
    for (const session of sessions) {
      const mine = finalEvents.filter((e) => e.session_id === session.id);
      expect(mine, session.id).toHaveLength(1);
      if (session.status === 'cancelled') expect(mine[0]?.status, session.id).toBe('cancelled');
      else expect(mine[0]?.meeting_link, session.id).toMatch(/^https?:\/\//);
    }

    // Every read model equals a full rebuild from the log (run by a projector process, asked for over HTTP).
    const tables = projectors.flatMap((p) => p.tables);
    const snapshot = async () => {
      const out: Record<string, string[]> = {};
      for (const t of tables) out[t] = (await db.sql.unsafe(`SELECT (t.*)::text AS row FROM ${t} t`)).map((r) => String(r.row)).sort();
      return out;
    };
    const head = async () => (await db.sql<{ n: string }[]>`SELECT count(*) AS n FROM es_events`)[0]?.n;
    for (let attempt = 1; ; attempt++) {
      const before = await head();
      const live = await snapshot();
      const asked = await call(admin, 'POST', '/api/admin/projections/rebuild-all', rebuildAcceptedSchema, { status: 202 });
      expect(asked.projections.length).toBe(projectors.length);
      await eventually(
        'the rebuild to finish',
        async () => {
          const list = await projectionsNow();
          const rebuilt = list.filter((p) => p.kind === 'projector');
          if (rebuilt.some((p) => p.rebuild?.phase === 'failed')) throw new Error(JSON.stringify(rebuilt.map((p) => p.rebuild)));
          return rebuilt.every((p) => p.rebuild?.phase === 'completed' && p.lagEvents === 0) ? list : null;
        },
        180_000,
      );
      const rebuilt = await snapshot();
      if ((await head()) !== before && attempt < 3) continue; // something was recorded meanwhile: compare again
      for (const t of tables) expect(rebuilt[t], t).toEqual(live[t]);
      break;
    }
  });
});
