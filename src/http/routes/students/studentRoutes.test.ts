import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor, listedTutorTeaching } from '../../../../tests/support/tutors.ts';
import { claimEnrollment, confirmEnrollment } from '../../../commands/accounts/enrollment.ts';
import { registerAccount } from '../../../commands/accounts/registerUser.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { courseHandlers, courseIdForPurchase, enrollCourse } from '../../../commands/courses/courseHandlers.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { seedPackages } from '../../../commands/packages/seedPackages.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { tutorHandlers } from '../../../commands/tutors/tutorHandlers.ts';
import { paymentIntentAnswerSchema } from '../../../domain/purchases/purchaseApi.ts';
import { type StudentSession, studentDashboardSchema, studentInfoSchema } from '../../../domain/students/studentApi.ts';
import { listPackages } from '../../../projections/packages/queries.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { listSubjects } from '../../../projections/subjects/queries.ts';
import { installAuth } from '../../kit/auth.ts';
import { installErrorHandling } from '../../kit/errors.ts';
import { studentRoutes } from './studentRoutes.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

const ctx = () => commandContext({ actorId: 'test', actorRole: 'system', now: system.clock.now() });
const caughtUp = async () => {
  const models = ['users', 'students', 'subjects', 'packages', 'tutors', 'student_courses', 'purchases'] as const;
  if (!(await waitForProjections(system.sql, models, await system.store.committedPosition(), 30_000)))
    throw new Error('the read models did not catch up');
};
const session = async (userId: string, role: string, studentId: string | null = null) =>
  `tm_session=${(await system.signIns.create(userId, role, studentId)).token}`;

interface Account {
  userId: string;
  studentId: string;
  cookie: string;
}

async function account(n: string, role: 'student' | 'parent', parentId: string | null = null): Promise<Account> {
  const { userId, studentId } = await registerAccount(
    system.accounts,
    {
      username: `dash-${n}`,
      email: `dash-${n}@example.com`,
      firstName: role === 'parent' ? 'Pat' : 'Sam',
      lastName: n,
      password: 'secret123',
      role,
      phone: null,
      authProvider: 'local',
      googleId: null,
      emailVerified: true,
      termsAccepted: { version: '1.0', ip: null },
      student: role === 'student' ? { grade: 'Grade 11', isUniversityStudent: false } : null,
      parentId,
    },
    commandContext({ now: system.clock.now() }),
  );
  return { userId, studentId: studentId ?? '', cookie: await session(userId, role) };
}

let packageId: string;
let idOf: (name: string) => string;

/** A course bought without checkout: claim, course created by the purchase, claim confirmed. */
async function buyCourse(studentId: string, subjectId: string, purchaseId: string, credits: number) {
  await claimEnrollment(system.accounts.handlers, { studentId, subjectId, purchaseId, gradeTierId: 'grade_11_12' }, ctx());
  const courseId = courseIdForPurchase(purchaseId);
  await enrollCourse(courseHandlers(system.store), { courseId, studentId, subjectId, packageId, purchaseId, credits }, ctx());
  await confirmEnrollment(system.accounts.handlers, { studentId, purchaseId, courseId }, ctx());
  return courseId;
}

async function onboard(tutor: ApprovedTutor, subjects: string[]) {
  const { tutors } = tutorHandlers(system.store);
  const c = () => commandContext({ actorId: tutor.userId, actorRole: 'tutor', now: system.clock.now() });
  const tutorId = tutor.tutorId;
  const catalog = (await listSubjects(system.sql)).map((s) => ({ id: s.id, name: s.name }));
  await tutors.handle(tutorId, { type: 'EditTutorProfile', data: { tutorId, bio: 'Teaching for years.', experience: 4 } }, c());
  const qualifications = subjects.map((name) => ({ subjectId: idOf(name), maxGradeLevel: 'university' as const }));
  await tutors.handle(tutorId, { type: 'SetQualifications', data: { tutorId, qualifications, catalog } }, c());
  await tutors.handle(
    tutorId,
    { type: 'SetWeeklyHours', data: { tutorId, availability: [{ dayOfWeek: 1, startTime: '09:00', endTime: '12:00' }], timeZone: 'UTC' } },
    c(),
  );
  await tutors.handle(tutorId, { type: 'CompleteOnboarding', data: { tutorId, calendarConnected: true } }, c());
}

const get = (url: string, cookie: string) => app.inject({ method: 'GET', url, headers: { cookie } });

let parent: Account;
let child: Account;
let otherParent: Account;
let otherChild: Account;
let childless: Account;
let viewOnly: string;
let admin: string;
let teacher: ApprovedTutor;
let strangerTutor: ApprovedTutor;
let chemist: ApprovedTutor;
let calculus: string;
let chemistry: string;
let calculusCourse: string;
let chemistryCourse: string;

beforeAll(async () => {
  await seedSubjectCatalog(system);
  await seedPackages(system);
  await caughtUp();
  const catalog = await listSubjects(system.sql);
  idOf = (name) => catalog.find((s) => s.name === name)?.id as string;
  const packages = await listPackages(system.sql);
  packageId = packages.find((p) => p.gradeTier.id === 'grade_11_12' && p.sessionCount === 8)?.id as string;
  calculus = idOf('Calculus (Grade 11-12)');
  chemistry = idOf('Chemistry (Grade 11-12)');
  expect([packageId, calculus, chemistry].every(Boolean)).toBe(true);

  parent = await account('parent', 'parent');
  child = await account('child', 'student', parent.userId);
  otherParent = await account('other-parent', 'parent');
  otherChild = await account('other-child', 'student', otherParent.userId);
  childless = await account('childless', 'parent');
  viewOnly = await session(child.userId, 'student_secondary', child.studentId);
  const staff = await createStaffAccount(system.accounts, system.clock, {
    username: 'dash-admin',
    email: 'dash-admin@example.com',
    firstName: 'Ad',
    lastName: 'Min',
    password: 'Dash-admin-2026!',
    role: 'admin',
  });
  admin = await session(staff.userId, 'admin');
  teacher = await approvedTutor(system, 'dash-teacher', { firstName: 'Maya', lastName: 'Okafor' });
  strangerTutor = await approvedTutor(system, 'dash-stranger', { firstName: 'Dan', lastName: 'Reyes' });
  await caughtUp();
  await onboard(teacher, ['Calculus (Grade 11-12)']);
  chemist = await approvedTutor(system, 'dash-chemist', { firstName: 'Cy', lastName: 'Chen' });
  await caughtUp();
  await onboard(strangerTutor, ['Calculus (Grade 11-12)', 'Chemistry (Grade 11-12)']);
  await onboard(chemist, ['Chemistry (Grade 11-12)']);
  calculusCourse = await buyCourse(child.studentId, calculus, 'dash-buy-calculus', 8);
  await caughtUp();
  // The parent chooses Maya for the calculus course (the tutor of record the info page checks).
  const chosen = await app.inject({
    method: 'PATCH',
    url: `/api/student-courses/${child.studentId}/${calculus}`,
    headers: { cookie: parent.cookie },
    payload: { tutorId: teacher.tutorId, status: 'enrolled' },
  });
  expect(chosen.statusCode, chosen.body).toBe(200);
  chemistryCourse = await buyCourse(child.studentId, chemistry, 'dash-buy-chemistry', 4);
  await caughtUp();
}, 120_000);

describe('GET /api/student/dashboard', () => {
  it('answers the spec payload for the student themself: canPurchase, not a sub-account, their courses; sessions empty until recorded', async () => {
    const res = await get('/api/student/dashboard', child.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const body = studentDashboardSchema.parse(res.json());
    expect(body).toMatchObject({
      student: {
        id: child.studentId,
        userId: child.userId,
        firstName: 'Sam',
        lastName: 'child',
        grade: 'Grade 11',
        isUniversityStudent: false,
      },
      sessions: [],
      userRole: 'student',
      canPurchase: true,
      isSubAccount: false,
    });
    expect(body.courses.map((c) => c.id)).toEqual([calculusCourse, chemistryCourse]);
    expect(Object.keys(res.json()).sort()).toEqual([
      'canPurchase',
      'courses',
      'isSubAccount',
      'purchases',
      'sessions',
      'student',
      'userRole',
    ]);
  });

  it('a view-only login reads its own student, may not buy, and cannot name another student (403)', async () => {
    const res = await get('/api/student/dashboard', viewOnly);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      student: { id: child.studentId },
      userRole: 'student_secondary',
      canPurchase: false,
      isSubAccount: true,
    });
    expect((await get(`/api/student/dashboard?studentId=${child.studentId}`, viewOnly)).statusCode).toBe(200);
    expect((await get(`/api/student/dashboard?studentId=${otherChild.studentId}`, viewOnly)).statusCode).toBe(403);
  });

  it('a parent selects one of their students with ?studentId= (their first by default); 403 for another family, 404 unknown', async () => {
    const first = await get('/api/student/dashboard', parent.cookie);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ student: { id: child.studentId }, userRole: 'parent', canPurchase: true, isSubAccount: false });
    const named = await get(`/api/student/dashboard?studentId=${child.studentId}`, parent.cookie);
    expect(named.json().courses).toHaveLength(2);
    const foreign = await get(`/api/student/dashboard?studentId=${otherChild.studentId}`, parent.cookie);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ message: 'You do not have permission to do this' });
    expect((await get(`/api/student/dashboard?studentId=${child.studentId}`, otherParent.cookie)).statusCode).toBe(403);
    expect((await get(`/api/student/dashboard?studentId=${otherChild.studentId}`, child.cookie)).statusCode).toBe(403);
    expect((await get('/api/student/dashboard?studentId=nobody', parent.cookie)).statusCode).toBe(404);
    expect((await get('/api/student/dashboard', childless.cookie)).statusCode).toBe(404);
  });

  it('is not for tutors or admins (403), nor anonymous callers (401); refuses an oversized id (400)', async () => {
    expect((await get('/api/student/dashboard', teacher.cookie)).statusCode).toBe(403);
    expect((await get('/api/student/dashboard', admin)).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/student/dashboard' })).statusCode).toBe(401);
    expect((await get(`/api/student/dashboard?studentId=${'x'.repeat(101)}`, parent.cookie)).statusCode).toBe(400);
  });

  it("a view-only login's purchase calls are refused (403) and buy nothing", async () => {
    const before = await system.sql`SELECT 1 FROM es_events WHERE type = 'PurchaseStarted'`;
    const body = { amount: 570, packageId, subjectId: idOf('Physics (Grade 11-12)'), studentId: child.studentId };
    const intent = await app.inject({ method: 'POST', url: '/api/create-payment-intent', headers: { cookie: viewOnly }, payload: body });
    expect(intent.statusCode).toBe(403);
    const tutor = await app.inject({
      method: 'PATCH',
      url: `/api/student-courses/${child.studentId}/${chemistry}`,
      headers: { cookie: viewOnly },
      payload: { tutorId: teacher.tutorId, status: 'enrolled' },
    });
    expect(tutor.statusCode).toBe(403);
    expect(await system.sql`SELECT 1 FROM es_events WHERE type = 'PurchaseStarted'`).toHaveLength(before.length);
  });
});

describe('GET /api/student/info/{studentId}', () => {
  it('the student, their parent, their view-only login and an admin read everything: progress per course, purchases, recent sessions', async () => {
    for (const cookie of [child.cookie, parent.cookie, viewOnly, admin]) {
      const res = await get(`/api/student/info/${child.studentId}`, cookie);
      expect(res.statusCode, res.body).toBe(200);
      const info = studentInfoSchema.parse(res.json());
      expect(info.student).toMatchObject({ id: child.studentId, firstName: 'Sam', grade: 'Grade 11' });
      expect(info.progress.courses).toEqual([
        {
          courseId: calculusCourse,
          subject: { id: calculus, name: 'Calculus (Grade 11-12)' },
          status: 'enrolled',
          tutor: { firstName: 'Maya', lastName: 'Okafor' },
          totalSessions: 8,
          usedSessions: 0,
          bookedSessions: 0,
          remainingSessions: 8,
          completedSessions: 0,
          upcomingSessions: 0,
        },
        expect.objectContaining({ courseId: chemistryCourse, totalSessions: 4, remainingSessions: 4, tutor: null }),
      ]);
      expect(info.progress).toMatchObject({ totalSessions: 12, usedSessions: 0, remainingSessions: 12, completedSessions: 0 });
      expect(info.courses).toHaveLength(2);
      expect(info.recentSessions).toEqual([]);
    }
  });

  it("a tutor reads only a student they teach, and only the courses they teach (no purchases); 403 for another tutor's", async () => {
    const res = await get(`/api/student/info/${child.studentId}`, teacher.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const info = studentInfoSchema.parse(res.json());
    expect(info.courses.map((c) => c.id)).toEqual([calculusCourse]);
    expect(info.progress.courses.map((c) => c.courseId)).toEqual([calculusCourse]);
    expect(info.purchases).toEqual([]);
    expect((await get(`/api/student/info/${child.studentId}`, strangerTutor.cookie)).statusCode).toBe(403);
    expect((await get(`/api/student/info/${otherChild.studentId}`, teacher.cookie)).statusCode).toBe(403);
  });

  it('refuses another family (403), another student (403), a view-only login of someone else (403); 404 unknown; 401 anonymous', async () => {
    expect((await get(`/api/student/info/${child.studentId}`, otherParent.cookie)).statusCode).toBe(403);
    expect((await get(`/api/student/info/${child.studentId}`, otherChild.cookie)).statusCode).toBe(403);
    expect((await get(`/api/student/info/${otherChild.studentId}`, viewOnly)).statusCode).toBe(403);
    expect((await get(`/api/student/info/${otherChild.studentId}`, child.cookie)).statusCode).toBe(403);
    const unknown = await get('/api/student/info/nobody', admin);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Student not found' });
    expect((await app.inject({ method: 'GET', url: `/api/student/info/${child.studentId}` })).statusCode).toBe(401);
    // An id past the path parameter limit is refused before any look-up.
    expect((await get(`/api/student/info/${'x'.repeat(101)}`, admin)).statusCode).toBe(414);
  });
});

describe('a parent buys a package for their student, end to end', () => {
  it('pays with the sandbox card and sees the new course on their dashboard; another family is refused (403)', async () => {
    // A course awaiting its tutor blocks a new enrolment: the parent chooses one for chemistry first.
    const chosen = await app.inject({
      method: 'PATCH',
      url: `/api/student-courses/${child.studentId}/${chemistry}`,
      headers: { cookie: parent.cookie },
      payload: { tutorId: chemist.tutorId, status: 'enrolled' },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const physics = idOf('Physics (Grade 11-12)');
    // Only a subject a listed tutor teaches is sold (issue 24).
    await listedTutorTeaching(system, 'dash-physicist', ['Physics (Grade 11-12)']);
    const body = { amount: 570, packageId, subjectId: physics, studentId: child.studentId, email: 'dash-parent@example.com' };
    const price = (await listPackages(system.sql)).find((p) => p.id === packageId)?.totalPrice as number;
    body.amount = price;
    const refused = await app.inject({
      method: 'POST',
      url: '/api/create-payment-intent',
      headers: { cookie: otherParent.cookie },
      payload: body,
    });
    expect(refused.statusCode, refused.body).toBe(403);

    const res = await app.inject({
      method: 'POST',
      url: '/api/create-payment-intent',
      headers: { cookie: parent.cookie, 'idempotency-key': 'dash-parent-buys-physics' },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    const intent = paymentIntentAnswerSchema.parse(res.json());
    const card = await app.inject({
      method: 'POST',
      url: `/api/sandbox/payments/${intent.paymentIntentId}/confirm`,
      headers: { cookie: parent.cookie },
      payload: { cardNumber: '4242 4242 4242 4242' },
    });
    expect(card.json()).toMatchObject({ status: 'succeeded' });
    const confirmed = await app.inject({
      method: 'POST',
      url: '/api/confirm-payment',
      headers: { cookie: parent.cookie },
      payload: { paymentIntentId: intent.paymentIntentId, packageId, subjectId: physics, studentId: child.studentId, amount: price },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await caughtUp();

    const dashboard = studentDashboardSchema.parse(
      (await get(`/api/student/dashboard?studentId=${child.studentId}`, parent.cookie)).json(),
    );
    expect(dashboard.courses.map((c) => c.subject.id)).toContain(physics);
    expect(dashboard.purchases).toEqual([
      expect.objectContaining({ status: 'completed', subjectId: physics, studentId: child.studentId, sessionsRemaining: 8 }),
    ]);
    // The student and their view-only login see it too; the other family does not.
    expect((await get('/api/student/dashboard', viewOnly)).json().courses).toHaveLength(3);
    expect((await get(`/api/student/${child.studentId}/purchases`, otherParent.cookie)).statusCode).toBe(403);
  });
});

describe('the sessions seam (StudentSessions)', () => {
  let seamApp: FastifyInstance;
  const at = (day: number) => `2026-12-${String(day).padStart(2, '0')}T15:00:00.000Z`;
  const sessionOf = (n: number, courseId: string | null, status: string): StudentSession => ({
    id: `s${n}`,
    date: at(n),
    duration: 60,
    status,
    subject: null,
    tutor: null,
    meetingLink: null,
    notes: null,
    courseId,
  });

  beforeAll(async () => {
    const asked: string[] = [];
    seamApp = Fastify({ logger: false });
    seamApp.setValidatorCompiler(validatorCompiler);
    seamApp.setSerializerCompiler(serializerCompiler);
    await seamApp.register(fastifyCookie);
    installAuth(seamApp, system.signIns);
    installErrorHandling(seamApp);
    await seamApp.register(
      studentRoutes({
        sql: system.sql,
        studentSessions: async (studentId) => {
          asked.push(studentId);
          return studentId === child.studentId
            ? [
                sessionOf(1, calculusCourse, 'completed'),
                sessionOf(2, calculusCourse, 'completed'),
                sessionOf(3, chemistryCourse, 'completed'),
                sessionOf(20, calculusCourse, 'scheduled'),
                sessionOf(21, chemistryCourse, 'pending'),
                sessionOf(22, calculusCourse, 'cancelled'),
                sessionOf(23, null, 'approved'),
              ]
            : [];
        },
      }),
    );
    await seamApp.ready();
  });
  afterAll(async () => {
    await seamApp?.close();
  });

  it('counts completed and upcoming sessions per course and shows the five most recent, newest first', async () => {
    const res = await seamApp.inject({ method: 'GET', url: `/api/student/info/${child.studentId}`, headers: { cookie: parent.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    const info = studentInfoSchema.parse(res.json());
    const byCourse = new Map(info.progress.courses.map((c) => [c.courseId, c]));
    expect(byCourse.get(calculusCourse)).toMatchObject({ completedSessions: 2, upcomingSessions: 1 });
    expect(byCourse.get(chemistryCourse)).toMatchObject({ completedSessions: 1, upcomingSessions: 1 });
    expect(info.recentSessions.map((s) => s.id)).toEqual(['s23', 's21', 's20', 's3', 's2']);

    const dashboard = await seamApp.inject({ method: 'GET', url: '/api/student/dashboard', headers: { cookie: child.cookie } });
    expect(studentDashboardSchema.parse(dashboard.json()).sessions).toHaveLength(7);
  });

  it('gives a tutor only the sessions of the courses they teach', async () => {
    const res = await seamApp.inject({ method: 'GET', url: `/api/student/info/${child.studentId}`, headers: { cookie: teacher.cookie } });
    const info = studentInfoSchema.parse(res.json());
    expect(info.recentSessions.map((s) => s.id)).toEqual(['s20', 's2', 's1']);
  });
});
