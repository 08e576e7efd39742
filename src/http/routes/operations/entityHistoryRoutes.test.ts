import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Temporal } from 'temporal-polyfill';
import { beforeAll, describe, expect, it } from 'vitest';
import { registeredStudent } from '../../../../tests/support/sessions.ts';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor } from '../../../../tests/support/tutors.ts';
import { claimEnrollment, confirmEnrollment } from '../../../commands/accounts/enrollment.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { courseHandlers, courseIdForPurchase, enrollCourse } from '../../../commands/courses/courseHandlers.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { seedPackages } from '../../../commands/packages/seedPackages.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { tutorHandlers } from '../../../commands/tutors/tutorHandlers.ts';
import type { UserState } from '../../../domain/accounts/user.ts';
import {
  correlationEventsSchema,
  ERASED_MARKER,
  entityEventsSchema,
  entityStateSchema,
  SECRET_MARKER,
} from '../../../domain/operations/entityHistoryApi.ts';
import type { SessionState } from '../../../domain/sessions/session.ts';
import { listPackages } from '../../../projections/packages/queries.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { listSubjects } from '../../../projections/subjects/queries.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

const NY = 'America/New_York';
const ctx = () => commandContext({ actorId: 'test', actorRole: 'system', now: system.clock.now() });
const caughtUp = async () => {
  const models = ['users', 'students', 'subjects', 'packages', 'tutors', 'student_courses', 'sessions'] as const;
  if (!(await waitForProjections(system.sql, models, await system.store.committedPosition(), 30_000)))
    throw new Error('the read models did not catch up');
};
const nyDay = (days: number) => Temporal.Now.zonedDateTimeISO(NY).toPlainDate().add({ days }).toString();
const at = (day: string, time: string) =>
  Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime(NY).toInstant().toString({ smallestUnit: 'millisecond' });
const get = (url: string, cookie: string) => app.inject({ method: 'GET', url, headers: { cookie } });

let admin: string;
let finance: string;
let maya: ApprovedTutor;
let student: { userId: string; studentId: string; cookie: string; courseId: string };
let sessionId: string;
const day = nyDay(3);

beforeAll(async () => {
  await seedSubjectCatalog(system);
  await seedPackages(system);
  await caughtUp();
  const math = (await listSubjects(system.sql)).find((s) => s.name === 'Math (Grade 10 & Under)')?.id as string;
  const packageId = (await listPackages(system.sql)).find((p) => p.gradeTier.id === 'grade_10_under')?.id as string;
  maya = await approvedTutor(system, 'history-maya', { firstName: 'Maya', lastName: 'Okafor' });
  const availability = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: '08:00', endTime: '20:00' }));
  await tutorHandlers(system.store).tutors.handle(
    maya.tutorId,
    { type: 'SetWeeklyHours', data: { tutorId: maya.tutorId, availability, timeZone: NY } },
    commandContext({ actorId: maya.userId, actorRole: 'tutor', now: system.clock.now() }),
  );
  const sam = await registeredStudent(system, 'history-sam', { firstName: 'Sam', lastName: 'Rivera' });
  const purchaseId = 'history-buy';
  await claimEnrollment(
    system.accounts.handlers,
    { studentId: sam.studentId, subjectId: math, purchaseId, gradeTierId: 'grade_10_under' },
    ctx(),
  );
  const courseId = courseIdForPurchase(purchaseId);
  const { courses } = courseHandlers(system.store);
  await enrollCourse({ courses }, { courseId, studentId: sam.studentId, subjectId: math, packageId, purchaseId, credits: 4 }, ctx());
  await confirmEnrollment(system.accounts.handlers, { studentId: sam.studentId, purchaseId, courseId }, ctx());
  await courses.handle(courseId, { type: 'ChooseCourseTutor', data: { courseId, tutorId: maya.tutorId, tutorQualified: true } }, ctx());
  await courses.handle(courseId, { type: 'ActivateCourse', data: { courseId } }, ctx());
  student = { ...sam, courseId };
  for (const role of ['admin', 'finance'] as const) {
    const staff = await createStaffAccount(system.accounts, system.clock, {
      username: `history-${role}`,
      email: `history-${role}@example.com`,
      firstName: 'Staff',
      lastName: role,
      password: 'History-staff-2026!',
      role,
    });
    const cookie = `tm_session=${(await system.signIns.create(staff.userId, role)).token}`;
    if (role === 'admin') admin = cookie;
    else finance = cookie;
  }
  await caughtUp();
  const booked = await app.inject({
    method: 'POST',
    url: '/api/book-session',
    headers: { cookie: student.cookie },
    payload: { tutorId: maya.tutorId, studentCourseId: courseId, date: at(day, '10:00'), duration: 60, notes: null },
  });
  if (booked.statusCode !== 201) throw new Error(`booking failed: ${booked.body}`);
  sessionId = booked.json().id;
  const moved = await app.inject({
    method: 'PATCH',
    url: `/api/sessions/${sessionId}/reschedule`,
    headers: { cookie: maya.cookie },
    payload: { newDate: `${day}T14:00`, timezone: NY },
  });
  if (moved.statusCode !== 200) throw new Error(`reschedule failed: ${moved.body}`);
  await caughtUp();
}, 120_000);

const historyOf = async (kind: string, id: string, query = '') => {
  const res = await get(`/api/admin/entities/${kind}/${encodeURIComponent(id)}/events${query}`, admin);
  expect(res.statusCode, res.body).toBe(200);
  return entityEventsSchema.parse(res.json());
};
const stateOf = async (kind: string, id: string, query: string) => {
  const res = await get(`/api/admin/entities/${kind}/${encodeURIComponent(id)}/state?${query}`, admin);
  expect(res.statusCode, res.body).toBe(200);
  return entityStateSchema.parse(res.json());
};

describe('entity history over HTTP', () => {
  it("lists a session's events with who did it and why, and folds it at its head to what the sessions read model shows", async () => {
    const { events, nextRevision } = await historyOf('session', sessionId);
    expect(nextRevision).toBeNull();
    expect(events.map((e) => [e.revision, e.type])).toEqual([
      [0, 'SessionBooked'],
      [1, 'SessionRescheduled'],
    ]);
    expect(events[0]).toMatchObject({
      streamId: `session-${sessionId}`,
      entity: { kind: 'session', id: sessionId },
      actor: { id: student.userId, role: 'student' },
    });
    expect(events[1]?.actor).toEqual({ id: maya.userId, role: 'tutor', name: 'Maya Okafor' });
    expect(events[0]?.correlationId).toBeTruthy();
    expect(events[0]?.commandId).toBeTruthy();
    expect(events[1]?.description).toContain('Session moved from');

    const head = await stateOf('session', sessionId, 'revision=1');
    const [row] = await system.sql<
      { status: string; start_at: Date; end_at: Date; tutor_id: string; student_id: string; course_id: string }[]
    >`
      SELECT status, start_at, end_at, tutor_id, student_id, course_id FROM sessions WHERE id = ${sessionId}`;
    const state = head.state as SessionState;
    expect(head).toMatchObject({ revision: 1, head: 1 });
    expect({
      status: state.status,
      start: state.start,
      end: state.end,
      tutorId: state.booked?.tutorId,
      studentId: state.booked?.studentId,
      courseId: state.booked?.courseId,
    }).toEqual({
      status: row?.status,
      start: row?.start_at.toISOString(),
      end: row?.end_at.toISOString(),
      tutorId: row?.tutor_id,
      studentId: row?.student_id,
      courseId: row?.course_id,
    });
    expect(state.start).toBe(at(day, '14:00'));

    const before = await stateOf('session', sessionId, 'revision=0');
    expect((before.state as SessionState).start).toBe(at(day, '10:00'));
    expect(before).toMatchObject({ revision: 0, head: 1, recordedAt: events[0]?.recordedAt });
  });

  it('?at= folds up to the last event recorded at or before the instant', async () => {
    const { events } = await historyOf('session', sessionId);
    const [booked, moved] = events as [(typeof events)[0], (typeof events)[0]];
    const ms = (iso: string, delta: number) => new Date(Date.parse(iso) + delta).toISOString();
    expect((await stateOf('session', sessionId, `at=${booked.recordedAt}`)).revision).toBe(0);
    if (Date.parse(moved.recordedAt) - Date.parse(booked.recordedAt) > 1)
      expect((await stateOf('session', sessionId, `at=${ms(moved.recordedAt, -1)}`)).revision).toBe(0);
    expect((await stateOf('session', sessionId, `at=${moved.recordedAt}`)).revision).toBe(1);
    expect((await stateOf('session', sessionId, `at=${encodeURIComponent(new Date().toISOString())}`)).revision).toBe(1);
    const earlier = await stateOf('session', sessionId, `at=${ms(booked.recordedAt, -1)}`);
    expect(earlier).toMatchObject({ revision: null, recordedAt: null, head: 1 });
    expect((earlier.state as SessionState).booked).toBeNull();
    // An offset other than Z names the same instant.
    const offset = Temporal.Instant.from(moved.recordedAt).toZonedDateTimeISO('America/Toronto').toString({ timeZoneName: 'never' });
    expect((await stateOf('session', sessionId, `at=${encodeURIComponent(offset)}`)).revision).toBe(1);
  });

  it("folds a user to what the users read model shows, hides credentials, and masks an erased subject's personal data", async () => {
    const { events } = await historyOf('user', student.userId);
    const registered = events.find((e) => e.type === 'UserRegistered');
    expect(registered?.data).toMatchObject({ email: 'student-history-sam@example.com', firstName: 'Sam', passwordHash: SECRET_MARKER });
    const head = await stateOf('user', student.userId, `revision=${(events.at(-1)?.revision ?? 0).toString()}`);
    const state = head.state as UserState;
    const [row] = await system.sql<{ role: string; email_verified: boolean; timezone: string; first_name: string; last_name: string }[]>`
      SELECT role, email_verified, timezone, first_name, last_name FROM users WHERE id = ${student.userId}`;
    expect({
      role: state.role,
      emailVerified: state.emailVerified,
      timezone: state.timezone,
      firstName: state.name?.firstName,
      lastName: state.name?.lastName,
    }).toEqual({
      role: row?.role,
      emailVerified: row?.email_verified,
      timezone: row?.timezone,
      firstName: row?.first_name,
      lastName: row?.last_name,
    });
    expect(state.passwordHash).toBe(SECRET_MARKER);

    // Erasure shreds the subject's key: the log keeps the events, their personal fields read as erased.
    const gone = await registeredStudent(system, 'history-gone', { firstName: 'Gone', lastName: 'Person' });
    await system.vault.shred(`user-${gone.userId}`);
    const erased = (await historyOf('user', gone.userId)).events.find((e) => e.type === 'UserRegistered');
    expect(erased?.data).toMatchObject({ email: ERASED_MARKER, firstName: ERASED_MARKER, lastName: ERASED_MARKER, role: 'student' });
    const erasedState = (await stateOf('user', gone.userId, 'revision=0')).state as UserState;
    expect(erasedState.name).toEqual({ firstName: ERASED_MARKER, lastName: ERASED_MARKER });
  });

  it("follows a booking's correlation id across the schedule, the course's ledger and the session, in log order", async () => {
    const [booked] = (await historyOf('session', sessionId)).events;
    const correlationId = booked?.correlationId as string;
    const res = await get(`/api/admin/correlations/${encodeURIComponent(correlationId)}/events`, admin);
    expect(res.statusCode, res.body).toBe(200);
    const story = correlationEventsSchema.parse(res.json());
    expect(story.truncated).toBe(false);
    const types = story.events.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['TutorHourClaimed', 'CourseCreditReserved', 'SessionBooked']));
    expect(types.indexOf('TutorHourClaimed')).toBeLessThan(types.indexOf('SessionBooked'));
    expect(types.indexOf('CourseCreditReserved')).toBeLessThan(types.indexOf('SessionBooked'));
    expect(story.events.every((e) => e.correlationId === correlationId)).toBe(true);
    const positions = story.events.map((e) => e.position);
    expect([...positions].sort()).toEqual(positions);
    const byType = new Map(story.events.map((e) => [e.type, e]));
    expect(byType.get('SessionBooked')?.entity).toEqual({ kind: 'session', id: sessionId });
    expect(byType.get('CourseCreditReserved')?.entity).toEqual({ kind: 'course', id: student.courseId });
    expect(byType.get('TutorHourClaimed')).toMatchObject({ entity: null, streamId: `tutorSchedule-${maya.tutorId}` });

    const none = await get(`/api/admin/correlations/${randomUUID()}/events`, admin);
    expect(none.json()).toEqual({ events: [], truncated: false });
  });

  it('pages a 1,001-event entity by revision and folds its last revision correctly', async () => {
    const { userId } = await registeredStudent(system, 'history-long');
    const zones = ['America/Toronto', 'America/Vancouver', 'Europe/Paris', 'Asia/Tokyo'];
    const events = Array.from({ length: 1000 }, (_, i) => ({
      id: randomUUID(),
      type: 'TimezoneChanged',
      data: { userId, timezone: zones[i % zones.length], at: new Date().toISOString() },
      metadata: { actorId: userId, actorRole: 'student', commandId: randomUUID(), correlationId: randomUUID(), causationId: null },
    }));
    const registeredAt = (await system.store.readStream(`user-${userId}`)).length;
    for (let i = 0; i < events.length; i += 250) await system.store.append(`user-${userId}`, events.slice(i, i + 250), 'any');
    const last = registeredAt + 999;

    const first = await historyOf('user', userId);
    expect(first.events).toHaveLength(1000);
    expect(first.events.map((e) => e.revision)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(first.nextRevision).toBe(1000);
    const rest = await historyOf('user', userId, `?from=${first.nextRevision}`);
    expect(rest.events.map((e) => e.revision)).toEqual(Array.from({ length: last - 999 }, (_, i) => 1000 + i));
    expect(rest.nextRevision).toBeNull();
    const small = await historyOf('user', userId, '?from=10&limit=5');
    expect(small.events.map((e) => e.revision)).toEqual([10, 11, 12, 13, 14]);
    expect(small.nextRevision).toBe(15);

    const folded = await stateOf('user', userId, `revision=${last}`);
    expect(folded).toMatchObject({ revision: last, head: last });
    expect((folded.state as UserState).timezone).toBe(zones[999 % zones.length]);
    expect(((await stateOf('user', userId, `revision=${last - 1}`)).state as UserState).timezone).toBe(zones[998 % zones.length]);
  });
});

describe('entity history refuses what it cannot answer', () => {
  it('answers finance and other roles 403 on every history route', async () => {
    const urls = [
      `/api/admin/entities/session/${sessionId}/events`,
      `/api/admin/entities/session/${sessionId}/state?revision=0`,
      `/api/admin/correlations/${randomUUID()}/events`,
    ];
    for (const url of urls) {
      expect((await get(url, finance)).statusCode, url).toBe(403);
      expect((await get(url, maya.cookie)).statusCode, url).toBe(403);
      expect((await get(url, student.cookie)).statusCode, url).toBe(403);
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });

  it('400s a bad kind, id or point in time, 404s an unknown entity, and never reads outside the kind’s stream', async () => {
    const status = async (url: string) => (await get(url, admin)).statusCode;
    expect(await status(`/api/admin/entities/session/${randomUUID()}/events`)).toBe(404);
    expect(await status(`/api/admin/entities/session/${randomUUID()}/state?revision=0`)).toBe(404);
    // A payout period nobody approved has no stream: an unknown entity, not a crash.
    expect(await status('/api/admin/entities/payoutPeriod/2026-01-01/events')).toBe(404);
    expect(await status(`/api/admin/entities/sessions/${sessionId}/events`)).toBe(400);
    // Fastify refuses a path parameter over 100 characters before any route runs (414).
    expect(await status(`/api/admin/entities/session/${'a'.repeat(161)}/events`)).toBe(414);
    expect(await status(`/api/admin/entities/session/${encodeURIComponent(`x/../${sessionId}`)}/events`)).toBe(400);
    expect(await status(`/api/admin/entities/session/${encodeURIComponent(`${sessionId} `)}/events`)).toBe(400);
    // The session's id under another kind names another stream, which does not exist.
    expect(await status(`/api/admin/entities/course/${sessionId}/events`)).toBe(404);
    expect(await status(`/api/admin/entities/user/${encodeURIComponent(`-${sessionId}`)}/events`)).toBe(404);

    const state = (query: string) => get(`/api/admin/entities/session/${sessionId}/state${query}`, admin);
    for (const query of [
      '',
      '?revision=0&at=2026-01-01T00:00:00Z',
      '?revision=-1',
      '?revision=1.5',
      '?revision=x',
      '?at=yesterday',
      '?at=2026-13-01T00:00:00Z',
    ])
      expect((await state(query)).statusCode, query).toBe(400);
    const past = await state('?revision=2');
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe("Revision 2 is past the entity's last revision (1)");
    expect((await get(`/api/admin/entities/session/${sessionId}/events?limit=1001`, admin)).statusCode).toBe(400);
    expect((await get(`/api/admin/entities/session/${sessionId}/events?from=-1`, admin)).statusCode).toBe(400);
    expect((await get(`/api/admin/entities/session/${sessionId}/events?from=5`, admin)).json()).toEqual({
      events: [],
      name: 'Math (Grade 10 & Under) · Sam Rivera with Maya Okafor',
      nextRevision: null,
    });
    expect((await get(`/api/admin/correlations/${'c'.repeat(161)}/events`, admin)).statusCode).toBe(414);
    expect((await get(`/api/admin/correlations/${encodeURIComponent('a b')}/events`, admin)).statusCode).toBe(400);
  });
});
