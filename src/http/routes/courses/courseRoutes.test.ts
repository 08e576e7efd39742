import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { hourFromNow } from '../../../../tests/support/sessions.ts';
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
import { ALREADY_ENROLLED, CHECKOUT_PENDING, TUTOR_SELECTION_PENDING } from '../../../domain/accounts/studentDecider.ts';
import { studentCourseSchema } from '../../../domain/courses/courseApi.ts';
import { END_ONLY_WHEN_USED, TUTOR_NOT_QUALIFIED } from '../../../domain/courses/courseDecider.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import { listPackages } from '../../../projections/packages/queries.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { findSession } from '../../../projections/sessions/queries.ts';
import { listSubjects } from '../../../projections/subjects/queries.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

const ctx = () => commandContext({ actorId: 'test', actorRole: 'system', now: system.clock.now() });
const caughtUp = async () => {
  if (
    !(await waitForProjections(
      system.sql,
      ['users', 'students', 'subjects', 'packages', 'tutors', 'student_courses'],
      await system.store.committedPosition(),
      30_000,
    ))
  )
    throw new Error('the read models did not catch up');
};

let idOf: (name: string) => string;
let packageId: string;
interface Student {
  userId: string;
  studentId: string;
  cookie: string;
}
async function student(n: string, parentId: string | null = null): Promise<Student> {
  const { userId, studentId } = await registerAccount(
    system.accounts,
    {
      username: `course-${n}`,
      email: `course-${n}@example.com`,
      firstName: 'Sam',
      lastName: n,
      password: 'secret123',
      role: 'student',
      phone: null,
      authProvider: 'local',
      googleId: null,
      emailVerified: true,
      termsAccepted: { version: '1.0', ip: null },
      student: { grade: 'Grade 10', isUniversityStudent: false },
      parentId,
    },
    commandContext({ now: system.clock.now() }),
  );
  if (!studentId) throw new Error('no student profile');
  return { userId, studentId, cookie: `tm_session=${(await system.signIns.create(userId, 'student')).token}` };
}

/** A course bought without checkout: claim, course created by the purchase, claim confirmed. */
async function buyCourse(studentId: string, subjectId: string, purchaseId: string, credits = 1) {
  await claimEnrollment(system.accounts.handlers, { studentId, subjectId, purchaseId, gradeTierId: 'grade_10_under' }, ctx());
  const courseId = courseIdForPurchase(purchaseId);
  await enrollCourse(courseHandlers(system.store), { courseId, studentId, subjectId, packageId, purchaseId, credits }, ctx());
  await confirmEnrollment(system.accounts.handlers, { studentId, purchaseId, courseId }, ctx());
  await caughtUp();
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

type Method = 'GET' | 'POST' | 'PATCH';
const call = (method: Method, url: string, cookie: string, payload?: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method, url, headers: { cookie, ...headers }, ...(payload === undefined ? {} : { payload: payload as string }) });

let sam: Student;
let stranger: Student;
let admin: string;
let viewOnly: string;
let maths: ApprovedTutor;
let chemist: ApprovedTutor;
let math: string;
let courseId: string;

beforeAll(async () => {
  await seedSubjectCatalog(system);
  await seedPackages(system);
  await caughtUp();
  const catalog = await listSubjects(system.sql);
  idOf = (name) => catalog.find((s) => s.name === name)?.id as string;
  packageId = (await listPackages(system.sql)).find((p) => p.gradeTier.id === 'grade_10_under')?.id as string;
  math = idOf('Math (Grade 10 & Under)');
  expect(math).toBeTruthy();
  sam = await student('sam');
  stranger = await student('stranger');
  const staff = await createStaffAccount(system.accounts, system.clock, {
    username: 'course-admin',
    email: 'course-admin@example.com',
    firstName: 'Ad',
    lastName: 'Min',
    password: 'Course-admin-2026!',
    role: 'admin',
  });
  admin = `tm_session=${(await system.signIns.create(staff.userId, 'admin')).token}`;
  viewOnly = `tm_session=${(await system.signIns.create(sam.userId, 'student_secondary', sam.studentId)).token}`;
  maths = await approvedTutor(system, 'course-maths', { firstName: 'Maya', lastName: 'Okafor' });
  chemist = await approvedTutor(system, 'course-chem', { firstName: 'Dan', lastName: 'Reyes' });
  await onboard(maths, ['Math (Grade 10 & Under)']);
  await onboard(chemist, ['Chemistry (University/College)']);
  courseId = await buyCourse(sam.studentId, math, 'buy-sam-math');
});

describe('student courses over HTTP', () => {
  it("lists a student's courses to the student, their view-only login and an admin; 403 for someone else's, 404 for none", async () => {
    for (const cookie of [sam.cookie, viewOnly, admin]) {
      const res = await call('GET', `/api/student/${sam.studentId}/courses`, cookie);
      expect(res.statusCode, res.body).toBe(200);
      const [course] = res.json();
      expect(studentCourseSchema.parse(course)).toMatchObject({
        id: courseId,
        studentId: sam.studentId,
        subjectId: math,
        subject: { id: math, name: 'Math (Grade 10 & Under)' },
        package: { id: packageId },
        gradeTier: { id: 'grade_10_under' },
        status: 'enrolled',
        totalSessions: 1,
        sessionsRemaining: 1,
        tutor: null,
        tutorId: null,
        purchaseId: 'buy-sam-math',
      });
    }
    expect((await call('GET', `/api/student/${sam.studentId}/courses`, stranger.cookie)).statusCode).toBe(403);
    expect((await call('GET', '/api/student/nobody/courses', sam.cookie)).statusCode).toBe(404);
  });

  it('shows the pending tutor selection, which blocks a new enrolment on the student stream', async () => {
    const res = await call('GET', '/api/student/enrollment-status', sam.cookie);
    expect(res.json()).toEqual({
      canEnrollInNewCourse: false,
      pendingTutorSelections: [{ courseId, subjectId: math, subjectName: 'Math (Grade 10 & Under)' }],
    });
    await expect(
      claimEnrollment(
        system.accounts.handlers,
        {
          studentId: sam.studentId,
          subjectId: idOf('Science (Grade 10 & Under)') ?? 'sci',
          purchaseId: 'buy-sam-2',
          gradeTierId: 'grade_10_under',
        },
        ctx(),
      ),
    ).rejects.toThrow(TUTOR_SELECTION_PENDING);
  });

  it('chooses a qualified tutor (422 otherwise, 403 for a view-only login or a stranger), then activates', async () => {
    const url = `/api/student-courses/${sam.studentId}/${math}`;
    const unqualified = await call('PATCH', url, sam.cookie, { tutorId: chemist.tutorId, status: 'enrolled' });
    expect(unqualified.statusCode).toBe(422);
    expect(unqualified.json().message).toBe(TUTOR_NOT_QUALIFIED);
    expect((await call('PATCH', url, viewOnly, { tutorId: maths.tutorId, status: 'enrolled' })).statusCode).toBe(403);
    expect((await call('PATCH', `/api/student-courses/${sam.studentId}/${math}`, stranger.cookie, { status: 'active' })).statusCode).toBe(
      403,
    );

    const headers = { 'idempotency-key': 'choose-tutor-1' };
    const chosen = await call('PATCH', url, sam.cookie, { tutorId: maths.tutorId, status: 'enrolled' }, headers);
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ tutorId: maths.tutorId, tutor: { firstName: 'Maya', lastName: 'Okafor' }, status: 'enrolled' });
    const again = await call('PATCH', url, sam.cookie, { tutorId: maths.tutorId, status: 'enrolled' }, headers);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await call('GET', '/api/student/enrollment-status', sam.cookie)).json()).toEqual({
      canEnrollInNewCourse: true,
      pendingTutorSelections: [],
    });

    const active = await call('PATCH', url, sam.cookie, { status: 'active' });
    expect(active.statusCode, active.body).toBe(200);
    expect(active.json().status).toBe('active');

    const lookup = await call('POST', '/api/student-courses/lookup', sam.cookie, { studentId: sam.studentId, subjectId: math });
    expect(lookup.json()).toEqual({ id: courseId });
    expect(
      (await call('POST', '/api/student-courses/lookup', stranger.cookie, { studentId: sam.studentId, subjectId: math })).statusCode,
    ).toBe(403);
  });

  it('ends a course only when no session remains', async () => {
    const url = `/api/student-courses/${courseId}/end`;
    const early = await call('PATCH', url, sam.cookie, { status: 'inactive' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(END_ONLY_WHEN_USED);
    expect((await call('PATCH', url, stranger.cookie, { status: 'inactive' })).statusCode).toBe(403);
    const { courses } = courseHandlers(system.store);
    await courses.handle(courseId, { type: 'ReserveCredit', data: { courseId, sessionId: 'x1' } }, ctx());
    await courses.handle(courseId, { type: 'ConsumeCredit', data: { courseId, sessionId: 'x1' } }, ctx());
    const ended = await call('PATCH', url, sam.cookie, { status: 'inactive' });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ status: 'inactive', sessionsRemaining: 0 });
    // The slot is free: the same subject may be bought again.
    await buyCourse(sam.studentId, math, 'buy-sam-math-2');
  });

  it("lets a parent read and act for their student's courses, and refuses another parent", async () => {
    const register = async (n: string) => {
      const { userId } = await registerAccount(
        system.accounts,
        {
          username: `course-${n}`,
          email: `course-${n}@example.com`,
          firstName: 'Pat',
          lastName: n,
          password: 'secret123',
          role: 'parent',
          phone: null,
          authProvider: 'local',
          googleId: null,
          emailVerified: true,
          termsAccepted: { version: '1.0', ip: null },
          student: null,
        },
        commandContext({ now: system.clock.now() }),
      );
      return { userId, cookie: `tm_session=${(await system.signIns.create(userId, 'parent')).token}` };
    };
    const parent = await register('parent');
    const parentCookie = parent.cookie;
    const otherParent = (await register('other-parent')).cookie;
    const kid = await student('kid', parent.userId);
    await buyCourse(kid.studentId, math, 'buy-kid-math');
    const list = await call('GET', `/api/student/${kid.studentId}/courses`, parentCookie);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toHaveLength(1);
    const status = await call('GET', `/api/student/enrollment-status?studentId=${kid.studentId}`, parentCookie);
    expect(status.json().pendingTutorSelections).toHaveLength(1);
    expect((await call('GET', `/api/student/${kid.studentId}/courses`, otherParent)).statusCode).toBe(403);
    const url = `/api/student-courses/${kid.studentId}/${math}`;
    expect((await call('PATCH', url, otherParent, { tutorId: maths.tutorId, status: 'enrolled' })).statusCode).toBe(403);
    const chosen = await call('PATCH', url, parentCookie, { tutorId: maths.tutorId, status: 'enrolled' });
    expect(chosen.statusCode, chosen.body).toBe(200);
  });

  it('lets one of 10 concurrent claims for 5 subjects stand (a checkout under way blocks the next enrolment)', async () => {
    const racer = await student('racer');
    const subjects = [
      'Math (Grade 10 & Under)',
      'Science (Grade 10 & Under)',
      'English (Grade 10 & Under)',
      'Chemistry (University/College)',
      'Physics (University/College)',
    ]
      .map(idOf)
      .map((id, i) => id ?? `subject-${i}`);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        claimEnrollment(
          system.accounts.handlers,
          { studentId: racer.studentId, subjectId: subjects[i % 5] as string, purchaseId: `race-${i}`, gradeTierId: 'university' },
          ctx(),
        ),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won.length).toBe(1);
    for (const r of results)
      if (r.status === 'rejected') {
        expect(r.reason).toBeInstanceOf(DomainError);
        expect([ALREADY_ENROLLED, CHECKOUT_PENDING]).toContain(r.reason.message);
      }
    const stream = await system.store.readStream(`student-${racer.studentId}`);
    expect(stream.filter((e) => e.type === 'EnrollmentClaimed')).toHaveLength(1);
  });
});

describe('a tutor who leaves (issue 24: no dead ends)', () => {
  it('course-tutors says the tutor left and who else teaches; choosing another tutor gives back the sessions booked with the one who left', async () => {
    const family = await student('leaver');
    // Math (Grade 10 & Under) has the suite's maths tutor already, and these two.
    const [leaving, staying] = [await approvedTutor(system, 'leaving-1'), await approvedTutor(system, 'staying-1')];
    await onboard(leaving, ['Math (Grade 10 & Under)']);
    await onboard(staying, ['Math (Grade 10 & Under)']);
    const course = await buyCourse(family.studentId, math, 'buy-leaver-math', 4);
    const url = `/api/student-courses/${family.studentId}/${math}`;
    expect((await call('PATCH', url, family.cookie, { tutorId: leaving.tutorId, status: 'enrolled' })).statusCode).toBe(200);

    // A session booked with the tutor (as booking records it: the session, and the course's credit held).
    const sessionId = `leaver-session-${course.slice(0, 8)}`;
    const start = hourFromNow(72);
    await system.store.append(
      `session-${sessionId}`,
      [
        {
          id: crypto.randomUUID(),
          type: 'SessionBooked',
          metadata: {},
          data: {
            sessionId,
            tutorId: leaving.tutorId,
            studentId: family.studentId,
            studentUserId: family.userId,
            courseId: course,
            subjectId: math,
            subjectName: 'Math (Grade 10 & Under)',
            start,
            end: new Date(Date.parse(start) + 3_600_000).toISOString(),
            durationMinutes: 60,
            notes: 'Fractions',
            bookedBy: family.userId,
            bookedByRole: 'student',
            tutorTimeZone: 'UTC',
            studentTimeZone: 'UTC',
            at: new Date().toISOString(),
          },
        },
      ],
      'no_stream',
    );
    await courseHandlers(system.store).courses.handle(course, { type: 'ReserveCredit', data: { courseId: course, sessionId } }, ctx());
    await caughtUp();
    await waitForProjections(system.sql, ['sessions'], await system.store.committedPosition(), 30_000);
    const statusUrl = `/api/student/${family.studentId}/course-tutors`;
    expect((await call('GET', statusUrl, family.cookie)).json()).toEqual([{ courseId: course, tutorLeft: false, tutorsAvailable: 3 }]);
    expect((await call('GET', statusUrl, stranger.cookie)).statusCode).toBe(403);

    await system.accounts.handlers.users.handle(
      leaving.userId,
      { type: 'DeactivateUser', data: { userId: leaving.userId, reason: 'Left' } },
      commandContext({ actorId: 'admin-1', actorRole: 'admin', now: system.clock.now() }),
    );
    await caughtUp();
    expect((await call('GET', statusUrl, family.cookie)).json()).toEqual([{ courseId: course, tutorLeft: true, tutorsAvailable: 2 }]);
    // The departed tutor cannot be chosen again; the one who stays can.
    const again = await call('PATCH', url, family.cookie, { tutorId: leaving.tutorId, status: 'enrolled' });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(TUTOR_NOT_QUALIFIED);
    expect((await findSession(system.sql, sessionId))?.status).toBe('scheduled');
    const chosen = await call('PATCH', url, family.cookie, { tutorId: staying.tutorId, status: 'enrolled' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ tutorId: staying.tutorId, sessionsRemaining: 4 });
    await waitForProjections(system.sql, ['sessions'], await system.store.committedPosition(), 30_000);
    expect((await findSession(system.sql, sessionId))?.status).toBe('cancelled');
    expect((await call('GET', statusUrl, family.cookie)).json()).toEqual([{ courseId: course, tutorLeft: false, tutorsAvailable: 2 }]);
  });
});
