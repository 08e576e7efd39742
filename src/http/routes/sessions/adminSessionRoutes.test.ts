import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor } from '../../../../tests/support/tutors.ts';
import { claimEnrollment, confirmEnrollment } from '../../../commands/accounts/enrollment.ts';
import { registerAccount } from '../../../commands/accounts/registerUser.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { courseHandlers, courseIdForPurchase, enrollCourse } from '../../../commands/courses/courseHandlers.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { seedPackages } from '../../../commands/packages/seedPackages.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { tutorHandlers } from '../../../commands/tutors/tutorHandlers.ts';
import { sessionsRemainingOf } from '../../../domain/courses/course.ts';
import { adminCancelSessionAnswerSchema, adminSessionPageSchema } from '../../../domain/sessions/adminSessionApi.ts';
import { sessionStreamId } from '../../../domain/sessions/session.ts';
import { CANCEL_REASON_REQUIRED, SESSION_CANCELLED } from '../../../domain/sessions/sessionDecider.ts';
import { listPackages } from '../../../projections/packages/queries.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { listSubjects } from '../../../projections/subjects/queries.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

const HOUR = 3_600_000;
const ctx = () => commandContext({ actorId: 'test', actorRole: 'system', now: system.clock.now() });
const caughtUp = async () =>
  expect(
    await waitForProjections(
      system.sql,
      ['users', 'students', 'subjects', 'packages', 'tutors', 'student_courses', 'sessions'],
      await system.store.committedPosition(),
      30_000,
    ),
  ).toBe(true);

interface Student {
  userId: string;
  studentId: string;
  cookie: string;
  courseId: string;
}

let math: string;
let packageId: string;
let tutor: ApprovedTutor;
let admin: string;
let finance: string;
let ada: Student;
let bo: Student;

/** A student with a paid, active course of `credits` with the tutor. */
async function student(n: string, firstName: string, credits = 8): Promise<Student> {
  const { userId, studentId } = await registerAccount(
    system.accounts,
    {
      username: `cancel-${n}`,
      email: `cancel-${n}@example.com`,
      firstName,
      lastName: 'Pupil',
      password: null,
      role: 'student',
      phone: null,
      authProvider: 'google',
      googleId: `google-cancel-${n}`,
      emailVerified: true,
      termsAccepted: { version: '1.0', ip: null },
      student: { grade: 'Grade 10', isUniversityStudent: false },
    },
    commandContext({ now: system.clock.now() }),
  );
  if (!studentId) throw new Error('no student profile');
  const purchaseId = `buy-cancel-${n}`;
  await claimEnrollment(system.accounts.handlers, { studentId, subjectId: math, purchaseId, gradeTierId: 'grade_10_under' }, ctx());
  const courseId = courseIdForPurchase(purchaseId);
  const { courses } = courseHandlers(system.store);
  await enrollCourse({ courses }, { courseId, studentId, subjectId: math, packageId, purchaseId, credits }, ctx());
  await confirmEnrollment(system.accounts.handlers, { studentId, purchaseId, courseId }, ctx());
  await courses.handle(courseId, { type: 'ChooseCourseTutor', data: { courseId, tutorId: tutor.tutorId, tutorQualified: true } }, ctx());
  await courses.handle(courseId, { type: 'ActivateCourse', data: { courseId } }, ctx());
  return { userId, studentId, courseId, cookie: `tm_session=${(await system.signIns.create(userId, 'student')).token}` };
}

/**
 * The tutor's hours, every day 01:00–23:00 in a fixed-offset zone chosen so that the next whole
 * hour is noon there: the test can book an hour from now (under 12 hours' notice) and days ahead,
 * whatever time it runs.
 */
async function hoursAroundNow() {
  const nextUtcHour = (new Date().getUTCHours() + 1) % 24;
  const offset = 12 - nextUtcHour; // local = UTC + offset
  const zone = offset === 0 ? 'UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
  const availability = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: '01:00', endTime: '23:00' }));
  await tutorHandlers(system.store).tutors.handle(
    tutor.tutorId,
    { type: 'SetWeeklyHours', data: { tutorId: tutor.tutorId, availability, timeZone: zone } },
    commandContext({ actorId: tutor.userId, actorRole: 'tutor', now: system.clock.now() }),
  );
}

/** A whole hour `hours` from now. */
const hourAhead = (hours: number) => {
  const at = new Date(Date.now() + hours * HOUR);
  at.setUTCMinutes(0, 0, 0);
  return at.toISOString();
};

const get = (url: string, cookie = admin) => app.inject({ method: 'GET', url, headers: { cookie } });
const cancel = (sessionId: string, payload: unknown, cookie = admin) =>
  app.inject({ method: 'POST', url: `/api/admin/sessions/${sessionId}/cancel`, headers: { cookie }, payload: payload as object });
async function book(s: Student, start: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/book-session',
    headers: { cookie: s.cookie },
    payload: { tutorId: tutor.tutorId, studentCourseId: s.courseId, date: start, duration: 60, notes: null },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}
const remaining = async (courseId: string) => sessionsRemainingOf(await courseHandlers(system.store).courses.load(courseId));
const cancelledEvent = async (sessionId: string) =>
  (await system.store.readStream(sessionStreamId(sessionId))).find((e) => e.type === 'SessionCancelled');

beforeAll(async () => {
  await seedSubjectCatalog(system);
  await seedPackages(system);
  await caughtUp();
  math = (await listSubjects(system.sql)).find((s) => s.name === 'Math (Grade 10 & Under)')?.id as string;
  packageId = (await listPackages(system.sql)).find((p) => p.gradeTier.id === 'grade_10_under')?.id as string;
  tutor = await approvedTutor(system, 'cancel-tutor', { firstName: 'Maya', lastName: 'Okafor' });
  await hoursAroundNow();
  ada = await student('ada', 'Ada');
  bo = await student('bo', 'Bo');
  for (const role of ['admin', 'finance'] as const) {
    const staff = await createStaffAccount(system.accounts, system.clock, {
      username: `sessions-${role}`,
      email: `sessions-${role}@example.com`,
      firstName: 'Staff',
      lastName: role,
      password: 'Sessions-staff-2026!',
      role,
    });
    const cookie = `tm_session=${(await system.signIns.create(staff.userId, role)).token}`;
    if (role === 'admin') admin = cookie;
    else finance = cookie;
  }
  await caughtUp();
}, 120_000);

describe('the sessions list', () => {
  it('shows every session with tutor and student names, filtered, searched, sorted and paged by the server', async () => {
    const first = await book(ada, hourAhead(24));
    const second = await book(bo, hourAhead(26));
    await caughtUp();

    const all = adminSessionPageSchema.parse((await get(`/api/admin/sessions?tutorId=${tutor.tutorId}&sort=start&order=asc`)).json());
    expect(all.rows.map((r) => r.id)).toEqual([first, second]);
    expect(all.rows[0]).toMatchObject({
      tutorName: 'Maya Okafor',
      studentName: 'Ada Pupil',
      subjectName: 'Math (Grade 10 & Under)',
      start: hourAhead(24),
      status: 'scheduled',
      cancelCredit: null,
    });
    expect(['pending', 'synced', 'failed']).toContain(all.rows[0]?.calendarSyncStatus);

    const bySearch = adminSessionPageSchema.parse((await get('/api/admin/sessions?search=bo%20pupil')).json());
    expect(bySearch.rows.map((r) => r.id)).toEqual([second]);
    expect(
      adminSessionPageSchema.parse((await get(`/api/admin/sessions?studentId=${ada.studentId}`)).json()).rows.map((r) => r.id),
    ).toContain(first);
    const window = `from=${encodeURIComponent(hourAhead(25))}&to=${encodeURIComponent(hourAhead(27))}`;
    expect(adminSessionPageSchema.parse((await get(`/api/admin/sessions?${window}`)).json()).rows.map((r) => r.id)).toEqual([second]);
    const paged = adminSessionPageSchema.parse(
      (await get(`/api/admin/sessions?tutorId=${tutor.tutorId}&sort=start&order=desc&pageSize=1&page=2`)).json(),
    );
    expect(paged.rows.map((r) => r.id)).toEqual([first]);
    expect(paged.total).toBe(2);
    expect(adminSessionPageSchema.parse((await get('/api/admin/sessions?status=completed')).json()).total).toBe(0);
  });

  it('refuses bad input with 400, finance and the parties with 403', async () => {
    for (const query of [
      'pageSize=101',
      'status=lost',
      'sort=price',
      'from=yesterday',
      `search=${'a'.repeat(1_000_000)}`,
      `tutorId=${'t'.repeat(101)}`,
    ]) {
      expect((await get(`/api/admin/sessions?${query}`)).statusCode, query.slice(0, 30)).toBe(400);
    }
    expect((await get('/api/admin/sessions?search=%00')).statusCode).toBe(400);
    expect((await get('/api/admin/sessions', finance)).statusCode).toBe(403);
    expect((await get('/api/admin/sessions', ada.cookie)).statusCode).toBe(403);
    expect((await get('/api/admin/sessions', tutor.cookie)).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/admin/sessions' })).statusCode).toBe(401);
  });
});

describe('an admin cancelling on anyone’s behalf', () => {
  it('applies the 12-hour rule by default: days ahead the credit comes back, the hour is freed, the choice and reason recorded', async () => {
    const sessionId = await book(ada, hourAhead(48));
    const before = await remaining(ada.courseId);
    const res = await cancel(sessionId, { reason: '  Tutor is ill ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(adminCancelSessionAnswerSchema.parse(res.json())).toEqual({
      id: sessionId,
      status: 'cancelled',
      credit: 'released',
      creditPolicy: 'rule',
    });
    expect(await remaining(ada.courseId)).toBe(before + 1);
    expect((await cancelledEvent(sessionId))?.data).toMatchObject({
      reason: 'Tutor is ill',
      creditPolicy: 'rule',
      cancelledByRole: 'admin',
      credit: 'released',
    });
    const row = adminSessionPageSchema
      .parse((await get('/api/admin/sessions?status=cancelled')).json())
      .rows.find((r) => r.id === sessionId);
    expect(row).toMatchObject({ status: 'cancelled', cancelCredit: 'released' });
    // The hour is free again: the same student can book it.
    await book(ada, hourAhead(48));
  });

  it('forfeits under 12 hours by the rule, and gives the credit back when the admin refunds it', async () => {
    const soon = await book(ada, hourAhead(1));
    const before = await remaining(ada.courseId);
    const ruled = await cancel(soon, { reason: 'No-show policy', creditPolicy: 'rule' });
    expect(ruled.statusCode, ruled.body).toBe(200);
    expect(ruled.json()).toMatchObject({ credit: 'forfeited', creditPolicy: 'rule' });
    expect(await remaining(ada.courseId)).toBe(before);

    const again = await book(bo, hourAhead(1));
    const boBefore = await remaining(bo.courseId);
    const refunded = await cancel(again, { reason: 'Platform outage', creditPolicy: 'refundCredit' });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ credit: 'released', creditPolicy: 'refundCredit' });
    expect(await remaining(bo.courseId)).toBe(boBefore + 1);
    expect((await cancelledEvent(again))?.data).toMatchObject({ creditPolicy: 'refundCredit', reason: 'Platform outage' });
  });

  it('gives one 200 to 10 concurrent cancellations and 409 to the rest; a cancelled session stays 409', async () => {
    const sessionId = await book(bo, hourAhead(72));
    const answers = await Promise.all(Array.from({ length: 10 }, () => cancel(sessionId, { reason: 'Duplicate booking' })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) expect(refused.json().message).toBe(SESSION_CANCELLED);
    const events = await system.store.readStream(sessionStreamId(sessionId));
    expect(events.filter((e) => e.type === 'SessionCancelled')).toHaveLength(1);
    expect((await cancel(sessionId, { reason: 'again' })).statusCode).toBe(409);
  });

  it('refuses bad input, unknown sessions and non-admins, changing nothing', async () => {
    const sessionId = await book(ada, hourAhead(96));
    const length = async () => (await system.store.readStream(sessionStreamId(sessionId))).length;
    const before = await length();
    const blank = await cancel(sessionId, { reason: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe(CANCEL_REASON_REQUIRED);
    for (const payload of [
      {},
      { reason: 'x'.repeat(501) },
      { reason: 'ok', creditPolicy: 'free' },
      { reason: 'nul\u0000' },
      { reason: 'lone \udc00' },
    ]) {
      expect((await cancel(sessionId, payload)).statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
    }
    expect((await cancel('no-such-session', { reason: 'gone' })).statusCode).toBe(404);
    expect((await cancel(sessionId, { reason: 'mine' }, finance)).statusCode).toBe(403);
    expect((await cancel(sessionId, { reason: 'mine' }, tutor.cookie)).statusCode).toBe(403);
    expect((await cancel(sessionId, { reason: 'mine' }, ada.cookie)).statusCode).toBe(403);
    expect(await length()).toBe(before);
  });
});
