import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devSubjectOf } from '../../src/adapters/identity/devIdentity.ts';
import { createStaffAccount, type DemoCredential, demoTutorAccounts, seedDemoAccounts } from '../../src/commands/accounts/seedDemo.ts';
import { seedPackages } from '../../src/commands/packages/seedPackages.ts';
import { seedSubjectCatalog } from '../../src/commands/subjects/seedCatalog.ts';
import { demoTutors, seedDemoTutors } from '../../src/commands/tutors/seedDemoTutors.ts';
import { TUTOR_SELECTION_PENDING } from '../../src/domain/accounts/studentDecider.ts';
import { COMPLETE_TOO_EARLY } from '../../src/domain/sessions/sessionDecider.ts';
import { buildApp } from '../../src/http/app.ts';
import { listSubjects } from '../../src/projections/subjects/queries.ts';
import { createTestSystem, type TestSystem } from '../support/system.ts';
import {
  BOOKING_ZONE,
  book,
  type CourseChoice,
  cancel,
  complete,
  courseCredits,
  createPromoCode,
  dashboard,
  eventually,
  type FreeSlot,
  freeSlots,
  HttpError,
  type Purchased,
  payoutsFor,
  purchaseCourse,
  type RegisteredStudent,
  refund,
  refundQuote,
  registerStudent,
  reschedule,
  selectTutor,
  signIn,
  signInParent,
  signInStaff,
  startNextEnrolment,
  studentSessions,
  tutorSessions,
  tutorSignIn,
  tutorsForCourse,
  type User,
} from './journeys.ts';

/**
 * Every journey function once, in a realistic order, against one in-process app on a real port:
 * the same HTTP a production-shape cluster gets through its proxy.
 */

let system: TestSystem;
let app: FastifyInstance;
let base: string;
let demo: DemoCredential[];

const ADMIN = { username: 'journey.admin', password: 'journey-admin-pass-1' };
const FINANCE = { username: 'journey.finance', password: 'journey-finance-pass-1' };
const maya = demoTutors.find((t) => t.key === 'maya')!;

beforeAll(async () => {
  system = await createTestSystem('all');
  for (const [who, role] of [
    [ADMIN, 'admin'],
    [FINANCE, 'finance'],
  ] as const) {
    await createStaffAccount(system.accounts, system.clock, {
      username: who.username,
      email: `${who.username}@example.com`,
      firstName: 'Staff',
      lastName: role,
      password: who.password,
      role,
    });
  }
  demo = await seedDemoAccounts(system.accounts, system.clock);
  await seedSubjectCatalog(system);
  await seedPackages(system);
  await system.projections.catchUp(['subjects', 'packages']);
  await seedDemoTutors(
    { store: system.store, accounts: demoTutorAccounts(system.accounts), clock: system.clock },
    await listSubjects(system.sql),
    {
      calendarConnected: system.calendar.kind === 'sandbox',
      googleIdOf: devSubjectOf,
    },
  );
  await system.projections.catchUp(['users', 'students', 'tutors']);
  app = await buildApp(system, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await app?.close();
  await system?.dispose();
});

/** New York's yyyy-MM-dd `days` from now. */
const newYorkDay = (days: number) => new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: BOOKING_ZONE });

/** From two days ahead (always beyond the 12-hour notice), the first New York day on which the tutor has two free hours. */
async function dayWithTwoSlots(user: User, tutorId: string): Promise<{ day: string; first: FreeSlot; second: FreeSlot }> {
  for (let days = 2; days <= 16; days++) {
    const day = newYorkDay(days);
    const [first, second] = await freeSlots(user, tutorId, day);
    if (first && second) return { day, first, second };
  }
  throw new Error('the tutor has no day with two free hours in the next two weeks');
}

const CALCULUS: CourseChoice = { subjectName: 'Calculus (Grade 11-12)', gradeTier: 'grade_11_12', sessionCount: 4 };
const NEXT_COURSE: CourseChoice = { subjectName: 'Data Management (Grade 11-12)', gradeTier: 'grade_11_12', sessionCount: 4 };

describe('the journeys client on one app', () => {
  let student: RegisteredStudent;
  let admin: User;
  let purchase: Purchased;
  let mayaId: string;
  let sessionId: string;

  it('registers a student as the sign-up form does: the mailed code, verification, sign-in', async () => {
    student = await registerStudent(base, system.sql, 1);
    expect(student.role).toBe('student');
    expect(student.studentId).toBeTruthy();
    expect(student.cookies.get('tm_session')).toBeTruthy();
  });

  it('signs an admin in and creates a promo code through the console API', async () => {
    admin = await signInStaff(base, ADMIN.username, ADMIN.password);
    expect(admin.role).toBe('admin');
    const promo = await createPromoCode(admin, {
      code: 'journey10',
      discountType: 'percentage',
      discountValue: 10,
      description: '10% off',
    });
    expect(promo).toMatchObject({ code: 'JOURNEY10', discountType: 'percentage', currentUses: 0, isActive: true });
  });

  it('buys a course with the code and the test card; the server prices it', async () => {
    purchase = await purchaseCourse(student, { ...CALCULUS, promoCode: 'journey10' });
    // Spec part 1 §9: Grade 11-12 is $75 a session; 4 sessions with 10% off.
    expect(purchase).toMatchObject({ originalPrice: 300, discountAmount: 30, amount: 270 });
    expect(purchase.clientSecret).not.toBe('free_purchase');
    expect(await courseCredits(student, purchase.courseId)).toEqual({ total: 4, remaining: 4, used: 0, completed: 0, upcoming: 0 });
  });

  it('refuses the next enrolment until the course has a tutor, then allows it', async () => {
    const refused = await startNextEnrolment(student, NEXT_COURSE);
    expect(refused).toEqual({ ok: false, status: 409, body: { message: TUTOR_SELECTION_PENDING } });
    const tutors = await tutorsForCourse(student, purchase.courseId);
    const listed = tutors.find((t) => t.user.firstName === maya.firstName && t.user.lastName === maya.lastName);
    expect(listed, JSON.stringify(tutors)).toBeDefined();
    mayaId = listed!.id;
    const chosen = await selectTutor(student, purchase.courseId, mayaId);
    expect(chosen).toMatchObject({ id: purchase.courseId, tutorId: mayaId, status: 'enrolled' });
    const allowed = await startNextEnrolment(student, NEXT_COURSE);
    expect(allowed.ok, JSON.stringify(allowed.body)).toBe(true);
    if (allowed.ok) expect(allowed.body).toMatchObject({ amount: 300, sessionCount: 4 });
  });

  it('books, finds the hour taken, reschedules, and cancels early with the credit released', async () => {
    const { day, first, second } = await dayWithTwoSlots(student, mayaId);
    const booked = await book(student, { tutorId: mayaId, courseId: purchase.courseId, start: first.start, notes: 'Limits' });
    expect(booked.ok, JSON.stringify(booked.body)).toBe(true);
    if (!booked.ok) return;
    expect(booked.status).toBe(201);
    expect(Date.parse(booked.body.date)).toBe(Date.parse(first.start));
    sessionId = booked.body.id;
    expect((await freeSlots(student, mayaId, day)).map((s) => s.time)).not.toContain(first.time);
    expect(await courseCredits(student, purchase.courseId)).toMatchObject({ remaining: 3, upcoming: 1 });

    const again = await book(student, { tutorId: mayaId, courseId: purchase.courseId, start: first.start });
    expect(again.ok).toBe(false);
    expect(again.status).toBe(409);

    const moved = await reschedule(student, sessionId, { date: day, time: second.time });
    expect(moved.ok, JSON.stringify(moved.body)).toBe(true);
    if (moved.ok) expect(Date.parse(moved.body.date)).toBe(Date.parse(second.start));

    const cancelled = await cancel(student, sessionId, 'Exam moved');
    expect(cancelled).toEqual({ ok: true, status: 200, body: { id: sessionId, status: 'cancelled', credit: 'released' } });
    expect(await courseCredits(student, purchase.courseId)).toEqual({ total: 4, remaining: 4, used: 0, completed: 0, upcoming: 0 });
  });

  it('books again and the dashboard shows the Meet link the calendar saga adds', async () => {
    const { first } = await dayWithTwoSlots(student, mayaId);
    const booked = await book(student, { tutorId: mayaId, courseId: purchase.courseId, start: first.start });
    expect(booked.ok, JSON.stringify(booked.body)).toBe(true);
    if (!booked.ok) return;
    sessionId = booked.body.id;
    const link = await eventually(
      'the Meet link',
      async () => (await studentSessions(student)).find((s) => s.id === sessionId)?.meetingLink,
    );
    expect(link).toMatch(/^https?:\/\//);
  });

  it('signs the tutor in with Google (the dev consent page) and refuses completion before the start', async () => {
    const tutor = await tutorSignIn(base, maya.email);
    expect(tutor).toMatchObject({ role: 'tutor', userId: mayaId });
    expect((await tutorSessions(tutor)).map((s) => s.id)).toContain(sessionId);
    const early = await complete(tutor, sessionId, 'Covered limits');
    expect(early).toEqual({ ok: false, status: 409, body: { message: COMPLETE_TOO_EARLY } });
  });

  it('refunds the unused sessions through the console', async () => {
    const before = await courseCredits(student, purchase.courseId);
    const quote = await refundQuote(admin, purchase.purchaseId);
    expect(quote.credits).toBe(before.remaining);
    const done = await refund(admin, purchase.purchaseId, 'Family moved away');
    expect(done).toMatchObject({ purchaseId: purchase.purchaseId, amount: quote.amount, creditsRemoved: quote.credits });
    expect(done.amount).toBeGreaterThan(0);
    expect((await courseCredits(student, purchase.courseId)).remaining).toBe(before.remaining - done.creditsRemoved);
  });

  it('lists payouts for finance and admins', async () => {
    const finance = await signInStaff(base, FINANCE.username, FINANCE.password);
    const today = newYorkDay(0);
    const current = await payoutsFor(finance, today);
    expect(current.period.start <= today && today <= current.period.end).toBe(true);
    expect(current).toMatchObject({ status: 'open', ended: false });
    const last = await payoutsFor(admin);
    expect(last.ended).toBe(true);
    expect(last.period.end < today).toBe(true);
  });

  it('signs a seeded parent in for their student', async () => {
    const credential = demo.find((d) => d.role === 'parent')!;
    const parent = await signInParent(base, credential.username, credential.password);
    expect(parent.role).toBe('parent');
    expect((await dashboard(parent)).student).toMatchObject({ id: parent.studentId, firstName: 'Sam' });
  });

  it('reports an unexpected status with the method, path, status and body', async () => {
    const failure = await signIn(base, student.username, 'not-the-password').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(HttpError);
    expect(String(failure)).toMatch(/POST \/api\/login answered 401: .*Invalid username or password/);
  });
});
