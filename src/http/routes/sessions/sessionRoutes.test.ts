import type { FastifyInstance } from 'fastify';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyHours } from '../../../../tests/support/calendarTime.ts';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor, setWeeklyHours } from '../../../../tests/support/tutors.ts';
import { calendarEventId, instanceIdOf } from '../../../adapters/calendar/calendarPort.ts';
import { loadConfig } from '../../../adapters/config/config.ts';
import { claimEnrollment, confirmEnrollment } from '../../../commands/accounts/enrollment.ts';
import { registerAccount } from '../../../commands/accounts/registerUser.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { courseHandlers, courseIdForPurchase, enrollCourse } from '../../../commands/courses/courseHandlers.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { seedPackages } from '../../../commands/packages/seedPackages.ts';
import { bookSession } from '../../../commands/sessions/booking.ts';
import { ORPHAN_CLAIM_MS } from '../../../commands/sessions/orphanedClaims.ts';
import type { SessionPorts } from '../../../commands/sessions/ports.ts';
import { sessionHandlers } from '../../../commands/sessions/sessionHandlers.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { openTutorCalendar } from '../../../commands/tutors/tutorCalendar.ts';
import { tutorHandlers } from '../../../commands/tutors/tutorHandlers.ts';
import { basicUtc } from '../../../domain/calendar/recurrence.ts';
import { sessionsRemainingOf } from '../../../domain/courses/course.ts';
import { NO_SESSIONS_REMAINING } from '../../../domain/courses/courseDecider.ts';
import { sessionStreamId } from '../../../domain/sessions/session.ts';
import { START_NOT_NEW_DATE } from '../../../domain/sessions/sessionApi.ts';
import { COMPLETE_TOO_EARLY, MOVE_AFTER_START, MOVE_TOO_LATE, REFUND_AFTER_START } from '../../../domain/sessions/sessionDecider.ts';
import { NO_AVAILABILITY_SET } from '../../../domain/sessions/sessionMessages.ts';
import { SLOT_TAKEN, tutorScheduleStreamId } from '../../../domain/sessions/tutorSchedule.ts';
import { listPackages } from '../../../projections/packages/queries.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { listStudentSessions } from '../../../projections/sessions/queries.ts';
import { listSubjects } from '../../../projections/subjects/queries.ts';
import { type OrphanedClaimJob, orphanedClaimReactor, sweepOrphanedClaim } from '../../../sagas/sessions/orphanedClaimSweep.ts';
import { createSystem, type System } from '../../../system.ts';
import { buildApp } from '../../app.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

const NY = 'America/New_York';
const ctx = () => commandContext({ actorId: 'test', actorRole: 'system', now: system.clock.now() });
const caughtUp = async () => {
  if (
    !(await waitForProjections(
      system.sql,
      ['users', 'students', 'subjects', 'packages', 'tutors', 'student_courses', 'sessions'],
      await system.store.committedPosition(),
      30_000,
    ))
  )
    throw new Error('the read models did not catch up');
};

interface Student {
  userId: string;
  studentId: string;
  cookie: string;
  courseId: string;
}

let math: string;
let packageId: string;
let maya: ApprovedTutor;
let dan: ApprovedTutor;
let admin: string;

/** A student (a Google account: no password to hash) with a paid, active course with `tutor`. */
async function student(n: string, tutor: ApprovedTutor, credits = 4, parentId: string | null = null): Promise<Student> {
  const { userId, studentId } = await registerAccount(
    system.accounts,
    {
      username: `book-${n}`,
      email: `book-${n}@example.com`,
      firstName: 'Sam',
      lastName: n,
      password: null,
      role: 'student',
      phone: null,
      authProvider: 'google',
      googleId: `google-book-${n}`,
      emailVerified: true,
      termsAccepted: { version: '1.0', ip: null },
      student: { grade: 'Grade 10', isUniversityStudent: false },
      parentId,
    },
    commandContext({ now: system.clock.now() }),
  );
  if (!studentId) throw new Error('no student profile');
  const purchaseId = `buy-${n}`;
  await claimEnrollment(system.accounts.handlers, { studentId, subjectId: math, purchaseId, gradeTierId: 'grade_10_under' }, ctx());
  const courseId = courseIdForPurchase(purchaseId);
  const { courses } = courseHandlers(system.store);
  await enrollCourse({ courses }, { courseId, studentId, subjectId: math, packageId, purchaseId, credits }, ctx());
  await confirmEnrollment(system.accounts.handlers, { studentId, purchaseId, courseId }, ctx());
  await courses.handle(courseId, { type: 'ChooseCourseTutor', data: { courseId, tutorId: tutor.tutorId, tutorQualified: true } }, ctx());
  await courses.handle(courseId, { type: 'ActivateCourse', data: { courseId } }, ctx());
  return { userId, studentId, courseId, cookie: `tm_session=${(await system.signIns.create(userId, 'student')).token}` };
}

/** Every day 08:00–20:00 New York time, in the tutor's calendar as "Topmark Hours". */
async function hours(tutor: ApprovedTutor) {
  const availability = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: '08:00', endTime: '20:00' }));
  await setWeeklyHours(system, tutor, availability, NY);
}

/** A New York date `days` ahead and the instant of `time` on it. */
const nyDay = (days: number) => Temporal.Now.zonedDateTimeISO(NY).toPlainDate().add({ days }).toString();
const at = (day: string, time: string) =>
  Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime(NY).toInstant().toString({ smallestUnit: 'millisecond' });

type Method = 'GET' | 'POST' | 'PATCH';
const call = (method: Method, url: string, cookie: string, payload?: unknown) =>
  app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as string }) });
const book = (s: Student, start: string, tutor = maya, notes: string | null = null) =>
  call('POST', '/api/book-session', s.cookie, { tutorId: tutor.tutorId, studentCourseId: s.courseId, date: start, duration: 60, notes });
const remaining = async (courseId: string) => sessionsRemainingOf(await courseHandlers(system.store).courses.load(courseId));
const held = async (tutorId: string) => Object.keys((await sessionHandlers(system.store).schedules.load(tutorId)).held);

const portsWith = (override: Partial<SessionPorts['courses']>): SessionPorts => {
  const { courses } = courseHandlers(system.store);
  const tutors = tutorHandlers(system.store);
  return {
    courses: {
      async course(courseId) {
        const state = await courses.load(courseId);
        return { ...state, sessionsRemaining: sessionsRemainingOf(state) };
      },
      reserve: (courseId, sessionId, c) => courses.handle(courseId, { type: 'ReserveCredit', data: { courseId, sessionId } }, c),
      async holds(courseId, sessionId) {
        const state = await courses.load(courseId);
        return state.reserved.includes(sessionId) || state.used.includes(sessionId);
      },
      release: (courseId, sessionId, c) => courses.handle(courseId, { type: 'ReleaseCredit', data: { courseId, sessionId } }, c),
      consume: (courseId, sessionId, c) => courses.handle(courseId, { type: 'ConsumeCredit', data: { courseId, sessionId } }, c),
      forfeit: (courseId, sessionId, c) => courses.handle(courseId, { type: 'ForfeitCredit', data: { courseId, sessionId } }, c),
      ...override,
    },
    tutor: async (tutorId) => tutors.tutors.load(tutorId),
    calendarTime: dailyHours(NY),
  };
};
/** Ports whose calendar offers every hour: a session booked in the past hour is bookable at any time of day the suite runs. */
const aroundTheClock = (ports: SessionPorts): SessionPorts => ({
  ...ports,
  calendarTime: async (_tutorId, from, to) => ({ hours: [{ start: from, end: to }], busy: [] }),
});
const request = (s: Student, start: string) => ({
  tutorId: maya.tutorId,
  courseId: s.courseId,
  studentId: s.studentId,
  studentUserId: s.userId,
  studentTimeZone: NY,
  subjectName: 'Math',
  start,
  notes: null,
});

let sam: Student;
let stranger: Student;

beforeAll(async () => {
  await seedSubjectCatalog(system);
  await seedPackages(system);
  await caughtUp();
  math = (await listSubjects(system.sql)).find((s) => s.name === 'Math (Grade 10 & Under)')?.id as string;
  packageId = (await listPackages(system.sql)).find((p) => p.gradeTier.id === 'grade_10_under')?.id as string;
  maya = await approvedTutor(system, 'book-maya', { firstName: 'Maya', lastName: 'Okafor' });
  dan = await approvedTutor(system, 'book-dan', { firstName: 'Dan', lastName: 'Reyes' });
  await hours(maya);
  await hours(dan);
  sam = await student('sam', maya, 12);
  stranger = await student('stranger', dan);
  const staff = await createStaffAccount(system.accounts, system.clock, {
    username: 'book-admin',
    email: 'book-admin@example.com',
    firstName: 'Ad',
    lastName: 'Min',
    password: 'Book-admin-2026!',
    role: 'admin',
  });
  admin = `tm_session=${(await system.signIns.create(staff.userId, 'admin')).token}`;
  await caughtUp();
}, 120_000);

describe('slots and booking over HTTP', () => {
  it('lists free hours as New York "HH:mm"; a booked hour disappears; the session shows to the tutor with the default notes', async () => {
    const day = nyDay(2);
    const slots = await call('GET', `/api/tutors/${maya.tutorId}/available-slots?date=${day}`, sam.cookie);
    expect(slots.statusCode, slots.body).toBe(200);
    expect(slots.json()).toHaveLength(12);
    expect(slots.json()[0]).toEqual({ time: '08:00', start: at(day, '08:00').replace('.000Z', 'Z'), label: '08:00' });

    const res = await book(sam, at(day, '10:00'));
    expect(res.statusCode, res.body).toBe(201);
    const session = res.json();
    expect(session).toMatchObject({
      date: at(day, '10:00'),
      duration: 60,
      status: 'scheduled',
      notes: 'Math (Grade 10 & Under) tutoring session',
      tutor: { firstName: 'Maya', lastName: 'Okafor' },
      subject: { name: 'Math (Grade 10 & Under)' },
      studentId: sam.studentId,
    });
    expect(await remaining(sam.courseId)).toBe(11);

    const after = await call('GET', `/api/tutors/${maya.tutorId}/available-slots?date=${day}`, sam.cookie);
    expect(after.json().map((s: { time: string }) => s.time)).not.toContain('10:00');
    const day2 = await call('GET', `/api/tutors/${maya.tutorId}/availability/${day}?timezone=${NY}`, sam.cookie);
    expect(day2.json().slots).toHaveLength(11);

    const list = await call('GET', `/api/sessions/tutor/${maya.tutorId}`, maya.cookie);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({
        id: session.id,
        tutorId: maya.tutorId,
        student: { firstName: 'Sam', lastName: 'sam' },
        subject: expect.objectContaining({ name: 'Math (Grade 10 & Under)' }),
        date: at(day, '10:00'),
        duration: 60,
        status: 'scheduled',
      }),
    ]);
    // The calendar saga fills these in when it has written the event; until then they are null.
    expect(Object.keys(list.json()[0])).toEqual(expect.arrayContaining(['meetingLink', 'googleCalendarEventId']));
    expect((await call('GET', `/api/sessions/tutor/${maya.tutorId}`, admin)).statusCode).toBe(200);
    expect((await call('GET', `/api/sessions/tutor/${maya.tutorId}`, dan.cookie)).statusCode).toBe(403);
    expect((await call('GET', `/api/sessions/tutor/${maya.tutorId}`, sam.cookie)).statusCode).toBe(403);
    expect((await call('GET', '/api/sessions/tutor/nobody', admin)).statusCode).toBe(404);
    expect((await listStudentSessions(system.sql, sam.studentId)).map((s) => s.id)).toEqual([session.id]);
  });

  it('refuses what is not a free slot, someone else’s course, an unknown course, the wrong tutor, a view-only login; changes nothing', async () => {
    const day = nyDay(3);
    const before = await remaining(sam.courseId);
    const offGrid = await book(sam, at(day, '10:30'));
    expect(offGrid.statusCode).toBe(409);
    expect(offGrid.json().message).toBe(SLOT_TAKEN);
    expect((await book(sam, at(day, '21:00'))).statusCode).toBe(409);
    expect((await book(sam, new Date(Date.now() - 3_600_000).toISOString())).statusCode).toBe(409);
    expect((await book(sam, at(nyDay(31), '10:00'))).statusCode).toBe(409);
    expect((await book({ ...sam, cookie: stranger.cookie }, at(day, '11:00'))).statusCode).toBe(403);
    expect((await book({ ...sam, courseId: 'no-such-course' }, at(day, '11:00'))).statusCode).toBe(404);
    expect((await book(sam, at(day, '11:00'), dan)).statusCode).toBe(409);
    const viewOnly = `tm_session=${(await system.signIns.create(sam.userId, 'student_secondary', sam.studentId)).token}`;
    expect((await book({ ...sam, cookie: viewOnly }, at(day, '11:00'))).statusCode).toBe(403);
    const bad = await call('POST', '/api/book-session', sam.cookie, {
      tutorId: maya.tutorId,
      studentCourseId: sam.courseId,
      date: at(day, '11:00'),
      duration: 90,
    });
    expect(bad.statusCode).toBe(400);
    expect(await remaining(sam.courseId)).toBe(before);
  });

  it('a parent books for their student; another parent may not, nor cancel it', async () => {
    const parent = async (n: string) => {
      const { userId } = await registerAccount(
        system.accounts,
        {
          username: `book-${n}`,
          email: `book-${n}@example.com`,
          firstName: 'Pat',
          lastName: n,
          password: null,
          role: 'parent',
          phone: null,
          authProvider: 'google',
          googleId: `google-book-${n}`,
          emailVerified: true,
          termsAccepted: { version: '1.0', ip: null },
          student: null,
        },
        commandContext({ now: system.clock.now() }),
      );
      return { userId, cookie: `tm_session=${(await system.signIns.create(userId, 'parent')).token}` };
    };
    const pat = await parent('pat');
    const other = await parent('other-parent');
    const kid = await student('kid', maya, 4, pat.userId);
    await caughtUp();
    const start = at(nyDay(2), '15:00');
    expect((await book({ ...kid, cookie: other.cookie }, start)).statusCode).toBe(403);
    const res = await book({ ...kid, cookie: pat.cookie }, start);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ studentId: kid.studentId });
    expect((await call('POST', `/api/sessions/${res.json().id}/cancel`, other.cookie, {})).statusCode).toBe(403);
    expect((await call('POST', `/api/sessions/${res.json().id}/cancel`, sam.cookie, {})).statusCode).toBe(403);
  });

  it('the same Idempotency-Key books once: the replay answers the same session and holds one credit', async () => {
    const start = at(nyDay(3), '17:00');
    const credits = await remaining(sam.courseId);
    const send = () =>
      app.inject({
        method: 'POST',
        url: '/api/book-session',
        headers: { cookie: sam.cookie, 'idempotency-key': 'book-once-0001' },
        payload: { tutorId: maya.tutorId, studentCourseId: sam.courseId, date: start, duration: 60, notes: '' },
      });
    const [first, second] = await Promise.all([send(), send()]);
    const third = await send();
    const created = [first, second, third].filter((r) => r.statusCode === 201);
    expect(created.length, [first, second, third].map((r) => `${r.statusCode} ${r.body}`).join('\n')).toBeGreaterThanOrEqual(2);
    expect(new Set(created.map((r) => r.json().id)).size).toBe(1);
    expect(await remaining(sam.courseId)).toBe(credits - 1);
  });

  it('an opaque event in the tutor’s calendar blocks its hours; Topmark’s own session events and transparent ones do not', async () => {
    const busyTutor = await approvedTutor(system, 'busy-tutor');
    await hours(busyTutor);
    const pupil = await student('busy-pupil', busyTutor);
    await caughtUp();
    const day = nyDay(4);
    const { calendar } = await openTutorCalendar(
      { store: system.store, calendar: system.calendar, clock: system.clock },
      busyTutor.tutorId,
    );
    const event = (id: string, from: string, to: string, extra: Record<string, unknown> = {}) =>
      calendar.createEvent(calendarEventId('test', busyTutor.tutorId, id), {
        summary: id,
        start: { dateTime: at(day, from) },
        end: { dateTime: at(day, to) },
        ...extra,
      });
    await event('dentist', '09:30', '10:15');
    await event('lunch-maybe', '12:00', '13:00', { transparency: 'transparent' });
    await event('old-session', '15:00', '16:00', { privateProperties: { topmarkSessionId: 'gone' } });
    const slots = await call('GET', `/api/tutors/${busyTutor.tutorId}/available-slots?date=${day}`, pupil.cookie);
    const times = slots.json().map((s: { time: string }) => s.time);
    expect(times).not.toContain('09:00');
    expect(times).not.toContain('10:00');
    expect(times).toEqual(expect.arrayContaining(['08:00', '11:00', '12:00', '15:00']));
    const refused = await book(pupil, at(day, '10:00'), busyTutor);
    expect(refused.statusCode).toBe(409);
    expect((await book(pupil, at(day, '15:00'), busyTutor)).statusCode).toBe(201);
  });

  it('a tutor with no weekly hours answers the booking grid with "No Availability Set" (422)', async () => {
    const idle = await approvedTutor(system, 'idle-tutor');
    const res = await call('GET', `/api/tutors/${idle.tutorId}/available-slots?date=${nyDay(4)}`, sam.cookie);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe(NO_AVAILABILITY_SET);
  });

  it('books with calendar: a New York date, start and end, for the purchase’s course', async () => {
    const day = nyDay(4);
    const res = await call('POST', '/api/sessions/book-with-calendar', sam.cookie, {
      tutorId: maya.tutorId,
      studentId: sam.studentId,
      purchaseId: 'buy-sam',
      date: day,
      startTime: '14:00',
      endTime: '15:00',
      subject: 'Math (Grade 10 & Under)',
      notes: 'Fractions',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ date: at(day, '14:00'), notes: 'Fractions' });
    const long = await call('POST', '/api/sessions/book-with-calendar', sam.cookie, {
      tutorId: maya.tutorId,
      studentId: sam.studentId,
      purchaseId: 'buy-sam',
      date: day,
      startTime: '15:00',
      endTime: '17:00',
    });
    expect(long.statusCode).toBe(400);
  });
});

describe('no double booking', () => {
  it('50 students at one hour at once: exactly one 201 and 49 clear 409s; one credit reserved in all', async () => {
    const tutor = await approvedTutor(system, 'race-tutor');
    await hours(tutor);
    const students = await Promise.all(Array.from({ length: 50 }, (_, i) => student(`race-${i}`, tutor)));
    await caughtUp();
    const start = at(nyDay(5), '09:00');
    const answers = await Promise.all(students.map((s) => book(s, start, tutor)));
    const codes = answers.map((r) => r.statusCode);
    expect(
      codes.filter((c) => c === 201),
      answers.map((r) => r.body).join('\n'),
    ).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    for (const r of answers.filter((a) => a.statusCode === 409)) expect(r.json().message).toBe(SLOT_TAKEN);
    const left = await Promise.all(students.map((s) => remaining(s.courseId)));
    expect(left.filter((n) => n === 3)).toHaveLength(1);
    expect(left.filter((n) => n === 4)).toHaveLength(49);
    expect(await held(tutor.tutorId)).toHaveLength(1);
  }, 120_000);

  it('one student racing 10 bookings on a course with 3 credits gets at most 3 sessions; no hour is left held for a refused one', async () => {
    const tutor = await approvedTutor(system, 'credit-tutor');
    await hours(tutor);
    const greedy = await student('greedy', tutor, 3);
    await caughtUp();
    const day = nyDay(6);
    const answers = await Promise.all(
      ['08:00', '09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00'].map((t) =>
        book(greedy, at(day, t), tutor),
      ),
    );
    const ok = answers.filter((r) => r.statusCode === 201);
    expect(ok.length).toBeLessThanOrEqual(3);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of answers.filter((a) => a.statusCode !== 201)) {
      expect(r.statusCode, r.body).toBe(409);
      expect([NO_SESSIONS_REMAINING, SLOT_TAKEN, 'Someone else changed this at the same time. Please try again.']).toContain(
        r.json().message,
      );
    }
    expect(await remaining(greedy.courseId)).toBe(3 - ok.length);
    expect(await held(tutor.tutorId)).toHaveLength(ok.length);
    expect(await listStudentSessions(system.sql, greedy.studentId)).toHaveLength(ok.length);
  }, 60_000);
});

describe('a failure between the steps is compensated', () => {
  it('the credit step fails: the hour is given back, no session exists', async () => {
    const handlers = sessionHandlers(system.store);
    const before = await held(maya.tutorId);
    const credits = await remaining(sam.courseId);
    const failing = portsWith({
      reserve: async () => {
        throw new Error('ledger down');
      },
    });
    await expect(bookSession(handlers, failing, request(sam, at(nyDay(7), '12:00')), ctx())).rejects.toThrow('ledger down');
    expect(await held(maya.tutorId)).toEqual(before);
    expect(await remaining(sam.courseId)).toBe(credits);
    // The hour is free again: a booking of it succeeds.
    expect((await book(sam, at(nyDay(7), '12:00'))).statusCode).toBe(201);
  });

  it('the session step fails: the credit is released and the hour given back', async () => {
    const real = sessionHandlers(system.store);
    const handlers = {
      ...real,
      sessions: {
        ...real.sessions,
        handle: async () => {
          throw new Error('session stream down');
        },
      },
    } as typeof real;
    const credits = await remaining(sam.courseId);
    const before = await held(maya.tutorId);
    await expect(bookSession(handlers, portsWith({}), request(sam, at(nyDay(7), '13:00')), ctx())).rejects.toThrow('session stream down');
    expect(await remaining(sam.courseId)).toBe(credits);
    expect(await held(maya.tutorId)).toEqual(before);
  });
});

describe('a request retried after its compensation', () => {
  it('claims the hour and the credit again (not "already handled"): the retried booking holds both', async () => {
    const real = sessionHandlers(system.store);
    const broken = {
      ...real,
      sessions: {
        ...real.sessions,
        handle: async () => {
          throw new Error('session stream down');
        },
      },
    } as typeof real;
    const same = commandContext({ actorId: sam.userId, actorRole: 'student', now: system.clock.now() });
    const start = at(nyDay(7), '15:00');
    const credits = await remaining(sam.courseId);
    await expect(bookSession(broken, portsWith({}), request(sam, start), same)).rejects.toThrow('session stream down');
    expect(await remaining(sam.courseId)).toBe(credits);
    const { sessionId } = await bookSession(real, portsWith({}), request(sam, start), same);
    expect((await real.schedules.load(maya.tutorId)).held[sessionId]?.start).toBe(new Date(start).toISOString());
    expect((await courseHandlers(system.store).courses.load(sam.courseId)).reserved).toContain(sessionId);
    expect(await remaining(sam.courseId)).toBe(credits - 1);
    // Once more: answered from the streams, nothing claimed twice.
    await bookSession(real, portsWith({}), request(sam, start), same);
    expect(await remaining(sam.courseId)).toBe(credits - 1);
  });
});

describe('a claim left by a request that died between its steps', () => {
  it('is given back (hour and credit) when someone books that hour more than 5 minutes later; a fresh claim is not', async () => {
    const handlers = sessionHandlers(system.store);
    const { courses } = courseHandlers(system.store);
    const start = new Date(at(nyDay(11), '09:00')).toISOString();
    const end = new Date(Date.parse(start) + 3_600_000).toISOString();
    const died = (minutesAgo: number, phantom: string) => {
      const c = () => commandContext({ now: new Date(Date.now() - minutesAgo * 60_000), actorId: sam.userId, actorRole: 'student' });
      return Promise.all([
        handlers.schedules.handle(
          maya.tutorId,
          { type: 'ClaimHour', data: { tutorId: maya.tutorId, sessionId: phantom, start, end, courseId: sam.courseId, slotFree: true } },
          c(),
        ),
        courses.handle(sam.courseId, { type: 'ReserveCredit', data: { courseId: sam.courseId, sessionId: phantom } }, c()),
      ]);
    };
    await died(1, 'phantom-fresh');
    const credits = await remaining(sam.courseId);
    expect((await book(sam, start)).statusCode).toBe(409);
    await handlers.schedules.handle(
      maya.tutorId,
      { type: 'ReleaseHour', data: { tutorId: maya.tutorId, sessionId: 'phantom-fresh', reason: 'compensation' } },
      ctx(),
    );
    await courses.handle(sam.courseId, { type: 'ReleaseCredit', data: { courseId: sam.courseId, sessionId: 'phantom-fresh' } }, ctx());

    await died(10, 'phantom-old');
    expect(await remaining(sam.courseId)).toBe(credits);
    const res = await book(sam, start);
    expect(res.statusCode, res.body).toBe(201);
    expect(await held(maya.tutorId)).not.toContain('phantom-old');
    const course = await courses.load(sam.courseId);
    expect(course.reserved).not.toContain('phantom-old');
    // The phantom's credit came back and the booking took one.
    expect(await remaining(sam.courseId)).toBe(credits);
  });

  it('is given back by the sweep when nobody asks for the hour; a booked session and a fresh claim keep theirs', async () => {
    const handlers = sessionHandlers(system.store);
    const { courses } = courseHandlers(system.store);
    const start = new Date(at(nyDay(12), '10:00')).toISOString();
    const end = new Date(Date.parse(start) + 3_600_000).toISOString();
    const credits = await remaining(sam.courseId);
    const claimedAt = new Date(Date.now() - 60_000);
    const c = () => commandContext({ now: claimedAt, actorId: sam.userId, actorRole: 'student' });
    await handlers.schedules.handle(
      maya.tutorId,
      {
        type: 'ClaimHour',
        data: { tutorId: maya.tutorId, sessionId: 'phantom-swept', start, end, courseId: sam.courseId, slotFree: true },
      },
      c(),
    );
    await courses.handle(sam.courseId, { type: 'ReserveCredit', data: { courseId: sam.courseId, sessionId: 'phantom-swept' } }, c());
    expect(await remaining(sam.courseId)).toBe(credits - 1);

    // The reactor books one check, a little after the claim could count as left behind: counted from
    // its commit when the claim's own time is earlier (a claim recorded with a past time, like the demo
    // seed's history, is never swept while its booking's next steps still run).
    const claimed = (await system.store.readStream(`tutorSchedule-${maya.tutorId}`)).findLast((e) => e.type === 'TutorHourClaimed');
    if (!claimed) throw new Error('no claim recorded');
    const [check] = orphanedClaimReactor.jobsFor(claimed);
    expect(claimed.recordedAt.getTime()).toBeGreaterThan(claimedAt.getTime());
    expect(check?.startAfter?.getTime()).toBe(claimed.recordedAt.getTime() + ORPHAN_CLAIM_MS + 30_000);
    const job = check?.data as unknown as OrphanedClaimJob;

    // Run early (a minute after the claim) it keeps the claim and asks the queue to retry.
    await expect(sweepOrphanedClaim(system.store, job, system.clock.now())).rejects.toThrow(/before it could be left behind/);
    expect(await held(maya.tutorId)).toContain('phantom-swept');
    // On time it gives the hour and the credit back, once.
    const later = new Date(claimedAt.getTime() + ORPHAN_CLAIM_MS + 30_000);
    expect(await sweepOrphanedClaim(system.store, job, later)).toBe('released');
    expect(await held(maya.tutorId)).not.toContain('phantom-swept');
    expect(await remaining(sam.courseId)).toBe(credits);
    expect(await sweepOrphanedClaim(system.store, job, later)).toBe('gone');
    expect(await remaining(sam.courseId)).toBe(credits);

    // A session that was booked keeps its hour and its credit.
    const booked = await book(sam, start);
    expect(booked.statusCode, booked.body).toBe(201);
    const { id } = booked.json() as { id: string };
    const bookedClaim = (await system.store.readStream(`tutorSchedule-${maya.tutorId}`)).findLast((e) => e.type === 'TutorHourClaimed');
    const [bookedCheck] = bookedClaim ? orphanedClaimReactor.jobsFor(bookedClaim) : [];
    const bookedJob = bookedCheck?.data as unknown as OrphanedClaimJob;
    expect(bookedJob.sessionId).toBe(id);
    expect(await sweepOrphanedClaim(system.store, bookedJob, new Date(Date.now() + ORPHAN_CLAIM_MS + 60_000))).toBe('booked');
    expect(await held(maya.tutorId)).toContain(id);
    expect(await remaining(sam.courseId)).toBe(credits - 1);
  });
});

describe('cancel and complete', () => {
  it('cancelling more than 12 hours ahead gives the credit back and frees the hour', async () => {
    const start = at(nyDay(8), '10:00');
    const booked = await book(sam, start);
    expect(booked.statusCode, booked.body).toBe(201);
    const credits = await remaining(sam.courseId);
    expect((await call('POST', `/api/sessions/${booked.json().id}/cancel`, stranger.cookie, {})).statusCode).toBe(403);
    const res = await call('POST', `/api/sessions/${booked.json().id}/cancel`, sam.cookie, { reason: 'Exam moved' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: booked.json().id, status: 'cancelled', credit: 'released' });
    expect(await remaining(sam.courseId)).toBe(credits + 1);
    expect(await held(maya.tutorId)).not.toContain(booked.json().id);
    expect((await book(sam, start)).statusCode).toBe(201);
  });

  it('cancelling 12 hours or less before the start forfeits the credit (the session counts as used); the hour is freed', async () => {
    const lark = await approvedTutor(system, 'lark');
    await tutorHandlers(system.store).tutors.handle(
      lark.tutorId,
      {
        type: 'SetWeeklyHours',
        data: {
          tutorId: lark.tutorId,
          availability: [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: '00:00', endTime: '24:00' })),
          timeZone: NY,
        },
      },
      commandContext({ actorId: lark.userId, actorRole: 'tutor', now: system.clock.now() }),
    );
    const late = await student('late', lark);
    await caughtUp();
    const soon = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 2 * 3_600_000).toISOString();
    const booked = await book(late, soon, lark);
    expect(booked.statusCode, booked.body).toBe(201);
    const res = await call('POST', `/api/sessions/${booked.json().id}/cancel`, lark.cookie, { reason: 'Tutor ill' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().credit).toBe('forfeited');
    const course = await courseHandlers(system.store).courses.load(late.courseId);
    expect(course.used).toContain(booked.json().id);
    expect(sessionsRemainingOf(course)).toBe(3);
    expect(await held(lark.tutorId)).toEqual([]);
    // Cancelling again changes nothing.
    expect((await call('POST', `/api/sessions/${booked.json().id}/cancel`, late.cookie, {})).statusCode).toBe(200);
    expect(sessionsRemainingOf(await courseHandlers(system.store).courses.load(late.courseId))).toBe(3);
  });

  it('completion before the start is refused with the spec’s message; the tutor completes after it and the credit is used', async () => {
    const day = nyDay(9);
    const booked = await book(sam, at(day, '16:00'));
    const early = await call('PATCH', `/api/sessions/${booked.json().id}/complete`, maya.cookie, { completed: true, notes: 'x' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(COMPLETE_TOO_EARLY);
    expect((await call('PATCH', `/api/sessions/${booked.json().id}/complete`, sam.cookie, { completed: true })).statusCode).toBe(403);
    expect((await call('PATCH', `/api/sessions/${booked.json().id}/complete`, dan.cookie, { completed: true })).statusCode).toBe(403);

    // A tutor working around the clock, and a session booked (as of two hours ago) for the hour that started an hour ago.
    const owl = await approvedTutor(system, 'owl');
    await tutorHandlers(system.store).tutors.handle(
      owl.tutorId,
      {
        type: 'SetWeeklyHours',
        data: {
          tutorId: owl.tutorId,
          availability: [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: '00:00', endTime: '24:00' })),
          timeZone: NY,
        },
      },
      commandContext({ actorId: owl.userId, actorRole: 'tutor', now: system.clock.now() }),
    );
    const pupil = await student('pupil', owl);
    const startedHourAgo = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
    const bookedAt = new Date(startedHourAgo.getTime() - 3_600_000);
    const { sessionId } = await bookSession(
      sessionHandlers(system.store),
      aroundTheClock(portsWith({})),
      { ...request(pupil, startedHourAgo.toISOString()), tutorId: owl.tutorId },
      commandContext({ now: bookedAt, actorId: pupil.userId, actorRole: 'student' }),
    );
    await caughtUp();
    const credits = await remaining(pupil.courseId);
    expect((await call('PATCH', `/api/sessions/${sessionId}/complete`, maya.cookie, { completed: true })).statusCode).toBe(403);
    const done = await call('PATCH', `/api/sessions/${sessionId}/complete`, owl.cookie, { completed: true, notes: 'Fractions: done.' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ id: sessionId, status: 'completed', notes: 'Fractions: done.' });
    expect(await remaining(pupil.courseId)).toBe(credits);
    const course = await courseHandlers(system.store).courses.load(pupil.courseId);
    expect(course.used).toContain(sessionId);
    expect(course.reserved).not.toContain(sessionId);
  });

  it('reschedules to another free hour (local time in the caller’s zone); the old hour is free again', async () => {
    const day = nyDay(10);
    const booked = await book(sam, at(day, '08:00'));
    expect(booked.statusCode, booked.body).toBe(201);
    const options = await call(
      'GET',
      `/api/tutors/${maya.tutorId}/reschedule-availability/${day}?excludeSessionId=${booked.json().id}&timezone=${NY}`,
      maya.cookie,
    );
    expect(options.statusCode, options.body).toBe(200);
    expect(Date.parse(options.json().slots[0].start)).toBe(Date.parse(at(day, '08:00')));
    const res = await call('PATCH', `/api/sessions/${booked.json().id}/reschedule`, maya.cookie, {
      newDate: `${day}T11:00`,
      updateCalendar: true,
      timezone: NY,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: booked.json().id, date: at(day, '11:00'), status: 'scheduled' });
    const slots = await call('GET', `/api/tutors/${maya.tutorId}/available-slots?date=${day}`, sam.cookie);
    const times = slots.json().map((s: { time: string }) => s.time);
    expect(times).toContain('08:00');
    expect(times).not.toContain('11:00');
  });

  it('a reschedule may name the slot’s instant (which of a repeated hour); one that is not newDate in the zone is a 400 naming start', async () => {
    const tutor = await approvedTutor(system, 'instant-tutor');
    await hours(tutor);
    const pupil = await student('instant-pupil', tutor);
    await caughtUp();
    const day = nyDay(11);
    const booked = await book(pupil, at(day, '09:00'), tutor);
    expect(booked.statusCode, booked.body).toBe(201);
    const wrong = await call('PATCH', `/api/sessions/${booked.json().id}/reschedule`, tutor.cookie, {
      newDate: `${day}T12:00`,
      start: at(day, '13:00'),
      timezone: NY,
    });
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json()).toMatchObject({ field: 'start', message: START_NOT_NEW_DATE });
    const moved = await call('PATCH', `/api/sessions/${booked.json().id}/reschedule`, tutor.cookie, {
      newDate: `${day}T12:00`,
      start: at(day, '12:00'),
      timezone: NY,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ date: at(day, '12:00') });
  });
});

describe('the 12-hour rule covers moves (spec part 1 §9)', () => {
  /** A tutor with every hour of every day in their calendar, and a student of theirs. */
  async function roundTheClock(name: string) {
    const tutor = await approvedTutor(system, `${name}-tutor`);
    const availability = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: '00:00', endTime: '24:00' }));
    await setWeeklyHours(system, tutor, availability, NY);
    const pupil = await student(`${name}-pupil`, tutor);
    await caughtUp();
    return { tutor, pupil };
  }
  const streamLengths = async (sessionId: string, tutorId: string) => ({
    session: (await system.store.readStream(sessionStreamId(sessionId))).length,
    schedule: (await system.store.readStream(tutorScheduleStreamId(tutorId))).length,
  });
  const eightDaysOut = (from: string) => {
    const moved = Temporal.Instant.from(from).add({ hours: 8 * 24 });
    return { newDate: moved.toZonedDateTimeISO(NY).toPlainDateTime().toString({ smallestUnit: 'minute' }), start: moved.toString() };
  };

  it('a family’s move 1 h 45 min before the start is refused with what they can do instead; nothing is appended; the tutor may still move it', async () => {
    const { tutor, pupil } = await roundTheClock('late-move');
    // The next whole hour at least 1 h 30 min away: inside the window, whatever the minute now.
    const soon = new Date(Math.ceil((Date.now() + 90 * 60_000) / 3_600_000) * 3_600_000).toISOString();
    const booked = await book(pupil, soon, tutor);
    expect(booked.statusCode, booked.body).toBe(201);
    const id = booked.json().id as string;
    const before = await streamLengths(id, tutor.tutorId);
    const target = eightDaysOut(soon);

    const refused = await call('PATCH', `/api/sessions/${id}/reschedule`, pupil.cookie, { ...target, timezone: NY });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(MOVE_TOO_LATE);
    expect(refused.json().message).toContain('cancel it instead');
    expect(await streamLengths(id, tutor.tutorId)).toEqual(before);
    expect((await sessionHandlers(system.store).sessions.load(id)).start).toBe(soon);

    // So the attack's second half finds the credit used: cancelling now forfeits it.
    const moved = await call('PATCH', `/api/sessions/${id}/reschedule`, tutor.cookie, { ...target, timezone: NY });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(Date.parse(moved.json().date)).toBe(Date.parse(target.start));
    const events = await system.store.readStream(sessionStreamId(id));
    const recorded = events.find((e) => e.type === 'SessionRescheduled');
    expect(recorded?.data).toMatchObject({
      rescheduledBy: tutor.userId,
      rescheduledByRole: 'tutor',
      previousStart: soon,
      start: new Date(target.start).toISOString(),
      lateNotice: true,
      tutorTimeZone: expect.any(String),
      studentTimeZone: NY,
    });
    const notice = (recorded?.data as { noticeMinutes?: number } | undefined)?.noticeMinutes ?? -1;
    expect(notice).toBeGreaterThanOrEqual(89);
    expect(notice).toBeLessThanOrEqual(12 * 60);
  });

  it('after the start nobody moves the session, an admin’s refund is refused, and a cancellation counts it used', async () => {
    const { tutor, pupil } = await roundTheClock('started');
    const startedHourAgo = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
    const { sessionId } = await bookSession(
      sessionHandlers(system.store),
      aroundTheClock(portsWith({})),
      { ...request(pupil, startedHourAgo.toISOString()), tutorId: tutor.tutorId },
      commandContext({ now: new Date(startedHourAgo.getTime() - 3_600_000), actorId: pupil.userId, actorRole: 'student' }),
    );
    await caughtUp();
    const before = await streamLengths(sessionId, tutor.tutorId);
    const target = eightDaysOut(startedHourAgo.toISOString());
    for (const cookie of [pupil.cookie, tutor.cookie, admin]) {
      const res = await call('PATCH', `/api/sessions/${sessionId}/reschedule`, cookie, { ...target, timezone: NY });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe(MOVE_AFTER_START);
    }
    const refund = await call('POST', `/api/admin/sessions/${sessionId}/cancel`, admin, {
      reason: 'Tutor ill',
      creditPolicy: 'refundCredit',
    });
    expect(refund.statusCode, refund.body).toBe(409);
    expect(refund.json().message).toBe(REFUND_AFTER_START);
    expect(await streamLengths(sessionId, tutor.tutorId)).toEqual(before);

    const credits = await remaining(pupil.courseId);
    const cancelled = await call('POST', `/api/sessions/${sessionId}/cancel`, pupil.cookie, { reason: 'Forgot' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().credit).toBe('forfeited');
    expect(await remaining(pupil.courseId)).toBe(credits);
  });
});

describe('hours are the tutor’s calendar', () => {
  it('a "Topmark Hours" series made by hand (22:30–01:30, three weeks) offers its hours, across midnight too; a deleted occurrence and the weeks after COUNT offer none', async () => {
    const tutor = await approvedTutor(system, 'by-hand');
    const pupil = await student('by-hand-pupil', tutor);
    await caughtUp();
    const first = nyDay(3);
    const { calendar } = await openTutorCalendar({ store: system.store, calendar: system.calendar, clock: system.clock }, tutor.tutorId);
    const seriesId = calendarEventId('test', tutor.tutorId, 'by-hand');
    const weekday = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'][Temporal.PlainDate.from(first).dayOfWeek % 7];
    await calendar.createEvent(seriesId, {
      summary: 'Topmark Hours',
      start: { dateTime: `${first}T22:30:00`, timeZone: NY },
      end: { dateTime: `${Temporal.PlainDate.from(first).add({ days: 1 })}T01:30:00`, timeZone: NY },
      recurrence: [`RRULE:FREQ=WEEKLY;BYDAY=${weekday};COUNT=3`],
    });
    const grid = async (day: string) => {
      const res = await call('GET', `/api/tutors/${tutor.tutorId}/available-slots?date=${day}`, pupil.cookie);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().map((t: { time: string }) => t.time) as string[];
    };
    const next = (day: string, days: number) => Temporal.PlainDate.from(day).add({ days }).toString();
    expect(await grid(first)).toEqual(['22:30', '23:30']);
    expect(await grid(next(first, 1))).toEqual(['00:30']);
    // 23:30 runs past midnight: offered, and booked.
    const booked = await book(pupil, at(first, '23:30'), tutor);
    expect(booked.statusCode, booked.body).toBe(201);
    expect(await grid(first)).toEqual(['22:30']);
    // A day off: the second week's occurrence deleted in the calendar.
    const secondStart = Temporal.PlainDateTime.from(`${next(first, 7)}T22:30`)
      .toZonedDateTime(NY)
      .toInstant();
    await calendar.deleteEvent(instanceIdOf(seriesId, basicUtc(secondStart)));
    expect(await grid(next(first, 7))).toEqual([]);
    expect((await book(pupil, at(next(first, 7), '22:30'), tutor)).statusCode).toBe(409);
    expect(await grid(next(first, 14))).toEqual(['22:30', '23:30']);
    // COUNT=3: nothing in the fourth week.
    expect(await grid(next(first, 21))).toEqual([]);
  });

  it('a tutor whose calendar holds no "Topmark Hours" gets "No Availability Set", whatever else is in it', async () => {
    const tutor = await approvedTutor(system, 'no-hours');
    const pupil = await student('no-hours-pupil', tutor);
    await caughtUp();
    const { calendar } = await openTutorCalendar({ store: system.store, calendar: system.calendar, clock: system.clock }, tutor.tutorId);
    await calendar.createEvent(calendarEventId('test', tutor.tutorId, 'gym'), {
      summary: 'Gym',
      start: { dateTime: at(nyDay(2), '09:00') },
      end: { dateTime: at(nyDay(2), '10:00') },
    });
    const res = await call('GET', `/api/tutors/${tutor.tutorId}/available-slots?date=${nyDay(2)}`, pupil.cookie);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe(NO_AVAILABILITY_SET);
  });
});

describe('two API processes on one database', () => {
  // A second system (its own connections, folded-state cache and busy snapshots) and HTTP app:
  // another API replica behind the same load balancer.
  let replica: { system: System; app: FastifyInstance };
  beforeAll(async () => {
    const other = await createSystem(loadConfig({ DATABASE_URL: system.databaseUrl, LOG_LEVEL: 'silent', NODE_ENV: 'test' }), 'api');
    replica = { system: other, app: await buildApp(other, { logger: false }) };
  });
  afterAll(async () => {
    await replica.app.close();
    await replica.system.close();
  });
  const onReplica = (method: Method, url: string, cookie: string, payload?: unknown) =>
    replica.app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as string }) });
  const timesOn = async (via: typeof call, tutor: ApprovedTutor, s: Student, day: string) => {
    const res = await via('GET', `/api/tutors/${tutor.tutorId}/available-slots?date=${day}`, s.cookie);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().map((slot: { time: string }) => slot.time) as string[];
  };

  it('a busy event a tutor adds through one process blocks its hour on the other at once, in slots and in booking', async () => {
    const tutor = await approvedTutor(system, 'replica-busy');
    await hours(tutor);
    const pupil = await student('replica-busy-pupil', tutor);
    await caughtUp();
    const day = nyDay(5);
    // The replica has a fresh snapshot of the tutor's calendar in which 11:00 is free.
    expect(await timesOn(onReplica, tutor, pupil, day)).toContain('11:00');
    const added = await call('POST', '/api/tutor/calendar/events', tutor.cookie, {
      summary: 'Dentist',
      start: { dateTime: at(day, '11:00') },
      end: { dateTime: at(day, '12:00') },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(await timesOn(onReplica, tutor, pupil, day)).not.toContain('11:00');
    const refused = await onReplica('POST', '/api/book-session', pupil.cookie, {
      tutorId: tutor.tutorId,
      studentCourseId: pupil.courseId,
      date: at(day, '11:00'),
      duration: 60,
      notes: null,
    });
    expect(refused.statusCode, refused.body).toBe(409);
  });

  it('weekly hours changed through one process are offered and bookable on the other at once', async () => {
    const tutor = await approvedTutor(system, 'replica-hours');
    await hours(tutor);
    const pupil = await student('replica-hours-pupil', tutor);
    await caughtUp();
    const day = nyDay(6);
    expect(await timesOn(onReplica, tutor, pupil, day)).not.toContain('21:00');
    const availability = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: '08:00', endTime: '22:00' }));
    const saved = await call('POST', '/api/tutor/availability', tutor.cookie, { availability, timezone: NY });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await timesOn(onReplica, tutor, pupil, day)).toContain('21:00');
    const booked = await onReplica('POST', '/api/book-session', pupil.cookie, {
      tutorId: tutor.tutorId,
      studentCourseId: pupil.courseId,
      date: at(day, '21:00'),
      duration: 60,
      notes: null,
    });
    expect(booked.statusCode, booked.body).toBe(201);
  });

  it('a session booked on one process and cancelled early on the other gives its credit back in the answer’s wake', async () => {
    const tutor = await approvedTutor(system, 'replica-cancel');
    await hours(tutor);
    const pupil = await student('replica-cancel-pupil', tutor, 8);
    await caughtUp();
    const day = nyDay(7);
    const courseOnReplica = async () => {
      const res = await onReplica('GET', `/api/student/${pupil.studentId}/courses`, pupil.cookie);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().find((c: { id: string }) => c.id === pupil.courseId) as { sessionsRemaining: number };
    };
    // A first booking through the replica: its cache now holds the course with one credit reserved.
    const first = await onReplica('POST', '/api/book-session', pupil.cookie, {
      tutorId: tutor.tutorId,
      studentCourseId: pupil.courseId,
      date: at(day, '09:00'),
      duration: 60,
      notes: null,
    });
    expect(first.statusCode, first.body).toBe(201);
    // The second through the other process: the replica's cached course is one reservation behind.
    const booked = await book(pupil, at(day, '10:00'), tutor);
    expect(booked.statusCode, booked.body).toBe(201);
    expect((await courseOnReplica()).sessionsRemaining).toBe(6);
    const cancelled = await onReplica('POST', `/api/sessions/${booked.json().id}/cancel`, pupil.cookie, { reason: 'Exam moved' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().credit).toBe('released');
    expect((await courseOnReplica()).sessionsRemaining).toBe(7);
    expect((await call('GET', `/api/student/${pupil.studentId}/courses`, pupil.cookie)).json()[0].sessionsRemaining).toBe(7);
    expect(await remaining(pupil.courseId)).toBe(7);
  });
});
