import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Temporal } from 'temporal-polyfill';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor, setWeeklyHours } from '../../tests/support/tutors.ts';
import { claimEnrollment, confirmEnrollment } from '../commands/accounts/enrollment.ts';
import { registerAccount } from '../commands/accounts/registerUser.ts';
import { createStaffAccount } from '../commands/accounts/seedDemo.ts';
import { courseHandlers, courseIdForPurchase, enrollCourse } from '../commands/courses/courseHandlers.ts';
import { commandContext } from '../commands/kit/commandContext.ts';
import { seedPackages } from '../commands/packages/seedPackages.ts';
import { seedSubjectCatalog } from '../commands/subjects/seedCatalog.ts';
import { listPackages } from '../projections/packages/queries.ts';
import { type KnownProjection, waitForProjections } from '../projections/runner/projectionRunner.ts';
import { listSubjects } from '../projections/subjects/queries.ts';

/**
 * Issue 20 item 5, issue 23: extreme dates and times on every route that takes one. Whatever a
 * caller sends as a date, an instant, a local date-time or a time of day, the answer is a 4xx
 * (400 naming the field for malformed or out-of-range input), never a 5xx, and a refused write
 * appends nothing: nothing the log accepts may be a date a read model cannot store.
 */

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

const NY = 'America/New_York';
const ctx = () => commandContext({ actorId: 'test', actorRole: 'system', now: system.clock.now() });

/** 1 MB: past the body limit (a 413) and any route's field. */
const MEGABYTE = 'x'.repeat(1_000_000);
/** Long, but within the body limit: refused by the field's own rule. */
const LONG = '9'.repeat(100_000);
const NUL = '2026-01-01\u0000';

/** What every field is sent, whatever its shape. */
const RAW = [
  '0001-01-01',
  '9999-12-31',
  '0000-01-01',
  '+275760-09-13T00:00:00.000Z',
  '-000001-01-01T00:00:00Z',
  '2026-02-30',
  '2026-13-01',
  '9999-12-31T23:59:59.999Z',
  '1970-01-01T00:00:00Z',
  '',
  LONG,
  MEGABYTE,
  NUL,
];

type Shape = 'day' | 'instant' | 'local' | 'time' | 'zone' | 'name';

/** The same extremes written the way each kind of field takes them. */
const SHAPED: Record<Shape, string[]> = {
  day: ['1899-12-31', '2201-01-01', '0001-01-01', '9999-12-31', '0000-01-01', '2026-02-29', '2026-04-31', '+275760-09-13', '-000001-01-01'],
  instant: [
    '0001-01-01T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T00:00:00+14:00',
    '1899-12-31T23:59:59Z',
    '2201-01-01T00:00:00Z',
    '2026-02-30T10:00:00Z',
    '2026-13-01T10:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T10:00:00+25:00',
  ],
  local: [
    '0001-01-01T10:00',
    '9999-12-31T10:00',
    '0000-01-01T10:00',
    '1899-12-31T10:00',
    '2201-01-01T10:00',
    '2026-02-30T10:00',
    '2026-13-01T10:00',
    '+275760-09-13T10:00',
    '2026-01-01T24:00',
  ],
  time: ['24:00', '23:60', '99:99', '-01:00', '1:00', '10:00:00', '10:00Z'],
  /** Not IANA zones: refused, never replaced by a default. */
  zone: [
    'Mars/Olympus',
    'UTC+25',
    '+05:00',
    'Etc/GMT+13',
    'America/Nowhere',
    ' America/New_York',
    'America/New_York\u202E',
    '../../etc/passwd',
  ],
  /** Names that hide or reorder their letters: bidi controls, zero-width, invisible, controls, non-characters. */
  name: [
    'Ma\u202Eya',
    'Ma\u202Aya',
    'Ma\u2066ya',
    'Ma\u2069ya',
    'Ma\u200Bya',
    'Ma\u200Cya',
    'Ma\u200Dya',
    'Ma\u2060ya',
    'Ma\uFEFFya',
    'Ma\u200Fya',
    'Ma\u2028ya',
    'Ma\nya',
    'Ma\u0007ya',
    'Ma\uFDD0ya',
    'Ma\uFFFEya',
    'Ma\u{10FFFF}ya',
  ],
};

/**
 * Values that are well-formed and in range for a shape: the route may take them or refuse them in
 * its own terms (a past or far-off hour is not bookable: 409), never a 5xx, and quickly.
 */
const WELL_FORMED: Record<Shape, readonly string[]> = {
  day: ['2200-12-31'],
  instant: ['1970-01-01T00:00:00Z', '2200-12-31T15:00:00Z'],
  local: ['2200-12-31T10:00'],
  time: [],
  zone: [],
  name: [],
};

interface Probe {
  name: string;
  shape: Shape;
  /** The field the 400 must name. */
  field: string;
  /** Another spelling of it some answers use (the weekly-hours rules write `availability[0].startTime`). */
  alias?: string;
  where: 'path' | 'query' | 'body';
  /** Whether the route records anything (events or calendar rows) when it accepts. */
  writes: boolean;
  send(value: string): Promise<LightMyRequestResponse>;
}

let admin: string;
let maya: ApprovedTutor;
let sam: { userId: string; studentId: string; courseId: string; purchaseId: string; cookie: string };
let sessionId: string;
let promoId: string;
let mathId: string;

const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, cookie: string, payload?: Record<string, unknown>) =>
  app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload === undefined ? {} : { payload }) });
const q = encodeURIComponent;

const nyDay = (days: number) => Temporal.Now.zonedDateTimeISO(NY).toPlainDate().add({ days }).toString();
const nyInstant = (day: string, time: string) =>
  Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime(NY).toInstant().toString({ smallestUnit: 'millisecond' });

const promoBody = (overrides: Record<string, unknown>) => ({
  code: `EXT${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
  description: null,
  discountType: 'percentage',
  discountValue: '10',
  maxUses: null,
  validFrom: null,
  validUntil: null,
  isActive: true,
  ...overrides,
});

/** A bookable day, three days ahead. */
const day = () => nyDay(3);
const booking = (date: string) => ({ tutorId: maya.tutorId, studentCourseId: sam.courseId, date, duration: 60, notes: null });
const withCalendar = (fields: Record<string, string>) => ({
  tutorId: maya.tutorId,
  studentId: sam.studentId,
  purchaseId: sam.purchaseId,
  date: day(),
  startTime: '10:00',
  endTime: '11:00',
  subject: null,
  notes: null,
  ...fields,
});

/** Every route and field that takes a date, an instant, a local date-time or a time of day. */
const PROBES: Probe[] = [
  // The three availability routes.
  {
    name: 'GET /api/tutors/:id/available-slots ?date',
    shape: 'day',
    field: 'date',
    where: 'query',
    writes: false,
    send: (v) => call('GET', `/api/tutors/${maya.tutorId}/available-slots?date=${q(v)}`, sam.cookie),
  },
  {
    name: 'GET /api/tutors/:tutorId/availability/:date',
    shape: 'day',
    field: 'date',
    where: 'path',
    writes: false,
    send: (v) => call('GET', `/api/tutors/${maya.tutorId}/availability/${q(v)}?timezone=${q(NY)}`, sam.cookie),
  },
  {
    name: 'GET /api/tutors/:tutorId/reschedule-availability/:date',
    shape: 'day',
    field: 'date',
    where: 'path',
    writes: false,
    send: (v) => call('GET', `/api/tutors/${maya.tutorId}/reschedule-availability/${q(v)}?excludeSessionId=${sessionId}`, sam.cookie),
  },
  // Booking and moving a session.
  {
    name: 'POST /api/book-session date',
    shape: 'instant',
    field: 'date',
    where: 'body',
    writes: true,
    send: (v) => call('POST', '/api/book-session', sam.cookie, booking(v)),
  },
  {
    name: 'POST /api/sessions/book-with-calendar date',
    shape: 'day',
    field: 'date',
    where: 'body',
    writes: true,
    send: (v) => call('POST', '/api/sessions/book-with-calendar', sam.cookie, withCalendar({ date: v })),
  },
  {
    name: 'POST /api/sessions/book-with-calendar startTime',
    shape: 'time',
    field: 'startTime',
    where: 'body',
    writes: true,
    send: (v) => call('POST', '/api/sessions/book-with-calendar', sam.cookie, withCalendar({ startTime: v })),
  },
  {
    name: 'POST /api/sessions/book-with-calendar endTime',
    shape: 'time',
    field: 'endTime',
    where: 'body',
    writes: true,
    send: (v) => call('POST', '/api/sessions/book-with-calendar', sam.cookie, withCalendar({ endTime: v })),
  },
  {
    name: 'PATCH /api/sessions/:id/reschedule newDate',
    shape: 'local',
    field: 'newDate',
    where: 'body',
    writes: true,
    send: (v) => call('PATCH', `/api/sessions/${sessionId}/reschedule`, sam.cookie, { newDate: v, timezone: NY }),
  },
  // The tutor's weekly hours (busy events: the calendar events API, which checks its own years).
  {
    name: 'POST /api/tutor/availability startTime',
    shape: 'time',
    field: 'availability.0.startTime',
    alias: 'availability[0].startTime',
    where: 'body',
    writes: true,
    send: (v) =>
      call('POST', '/api/tutor/availability', maya.cookie, {
        availability: [{ dayOfWeek: 1, startTime: v, endTime: '17:00' }],
        timezone: NY,
      }),
  },
  // Promo codes.
  {
    name: 'POST /api/admin/promo-codes validFrom',
    shape: 'instant',
    field: 'validFrom',
    where: 'body',
    writes: true,
    send: (v) => call('POST', '/api/admin/promo-codes', admin, promoBody({ validFrom: v })),
  },
  {
    name: 'POST /api/admin/promo-codes validUntil',
    shape: 'instant',
    field: 'validUntil',
    where: 'body',
    writes: true,
    send: (v) => call('POST', '/api/admin/promo-codes', admin, promoBody({ validUntil: v })),
  },
  {
    name: 'PATCH /api/admin/promo-codes/:id validUntil',
    shape: 'instant',
    field: 'validUntil',
    where: 'body',
    writes: true,
    send: (v) => call('PATCH', `/api/admin/promo-codes/${promoId}`, admin, promoBody({ code: 'EXTREME', validUntil: v })),
  },
  // Rates and payouts.
  {
    name: 'PUT /api/admin/tutors/:tutorId/rate effectiveFrom',
    shape: 'instant',
    field: 'effectiveFrom',
    where: 'body',
    writes: true,
    send: (v) => call('PUT', `/api/admin/tutors/${maya.tutorId}/rate`, admin, { hourlyRate: 40, effectiveFrom: v, reason: 'Probe' }),
  },
  {
    name: 'GET /api/admin/payouts ?period',
    shape: 'day',
    field: 'period',
    where: 'query',
    writes: false,
    send: (v) => call('GET', `/api/admin/payouts?period=${q(v)}`, admin),
  },
  {
    name: 'GET /api/admin/payouts/:periodStart.csv',
    shape: 'day',
    field: 'periodStart',
    where: 'path',
    writes: false,
    send: (v) => call('GET', `/api/admin/payouts/${q(v)}.csv`, admin),
  },
  {
    name: 'POST /api/admin/payouts/:periodStart/approve',
    shape: 'day',
    field: 'periodStart',
    where: 'path',
    writes: true,
    send: (v) => call('POST', `/api/admin/payouts/${q(v)}/approve`, admin),
  },
  {
    name: 'POST /api/admin/payouts/:periodStart/mark-paid',
    shape: 'day',
    field: 'periodStart',
    where: 'path',
    writes: true,
    send: (v) => call('POST', `/api/admin/payouts/${q(v)}/mark-paid`, admin, { method: 'bank_transfer', reference: 'R-1' }),
  },
  // Time zones: every route and command that takes one (issue 23: refused, never replaced).
  {
    name: 'GET /api/tutors/:tutorId/availability/:date ?timezone',
    shape: 'zone',
    field: 'timezone',
    where: 'query',
    writes: false,
    send: (v) => call('GET', `/api/tutors/${maya.tutorId}/availability/${day()}?timezone=${q(v)}`, sam.cookie),
  },
  {
    name: 'GET /api/tutors/:tutorId/reschedule-availability/:date ?timezone',
    shape: 'zone',
    field: 'timezone',
    where: 'query',
    writes: false,
    send: (v) =>
      call(
        'GET',
        `/api/tutors/${maya.tutorId}/reschedule-availability/${day()}?excludeSessionId=${sessionId}&timezone=${q(v)}`,
        sam.cookie,
      ),
  },
  {
    name: 'PATCH /api/sessions/:id/reschedule timezone',
    shape: 'zone',
    field: 'timezone',
    where: 'body',
    writes: true,
    send: (v) => call('PATCH', `/api/sessions/${sessionId}/reschedule`, sam.cookie, { newDate: `${nyDay(4)}T10:00`, timezone: v }),
  },
  {
    name: 'POST /api/tutor/availability timezone',
    shape: 'zone',
    field: 'timezone',
    where: 'body',
    writes: true,
    send: (v) =>
      call('POST', '/api/tutor/availability', maya.cookie, {
        availability: [{ dayOfWeek: 1, startTime: '09:00', endTime: '17:00' }],
        timezone: v,
      }),
  },
  {
    name: 'POST /api/tutor/calendar/events start.timeZone',
    shape: 'zone',
    field: 'start.timeZone',
    where: 'body',
    writes: true,
    send: (v) =>
      call('POST', '/api/tutor/calendar/events', maya.cookie, {
        summary: 'Busy',
        start: { dateTime: `${day()}T09:00:00`, timeZone: v },
        end: { dateTime: `${day()}T10:00:00`, timeZone: NY },
      }),
  },
  {
    name: 'PATCH /api/user/timezone timezone',
    shape: 'zone',
    field: 'timezone',
    where: 'body',
    writes: true,
    send: (v) => call('PATCH', '/api/user/timezone', sam.cookie, { timezone: v }),
  },
  // Names a person or an admin types (issue 23: nothing hidden or reordered).
  ...(['firstName', 'lastName'] as const).map(
    (field): Probe => ({
      name: `PATCH /api/user/name ${field}`,
      shape: 'name',
      field,
      where: 'body',
      writes: true,
      send: (v) => call('PATCH', '/api/user/name', sam.cookie, { firstName: 'Sam', lastName: 'Extreme', [field]: v }),
    }),
  ),
  ...(['username', 'firstName', 'lastName'] as const).map(
    (field): Probe => ({
      name: `POST /api/register ${field}`,
      shape: 'name',
      field,
      where: 'body',
      writes: true,
      send: (v) =>
        call('POST', '/api/register', '', {
          username: `probe-${Math.random().toString(36).slice(2, 10)}`,
          email: `probe-${Math.random().toString(36).slice(2, 10)}@example.com`,
          password: 'Probe-register-2026!',
          firstName: 'Pro',
          lastName: 'Be',
          role: 'student',
          grade: 'Grade 10',
          isUniversityStudent: false,
          termsAccepted: true,
          termsAcceptedVersion: '1.0',
          [field]: v,
        }),
    }),
  ),
  ...(['name', 'category'] as const).map(
    (field): Probe => ({
      name: `POST /api/admin/subjects ${field}`,
      shape: 'name',
      field,
      where: 'body',
      writes: true,
      send: (v) =>
        call('POST', '/api/admin/subjects', admin, {
          name: `Probe ${Math.random().toString(36).slice(2, 8)}`,
          description: null,
          category: null,
          gradeLevel: 'grade_10_under',
          [field]: v,
        }),
    }),
  ),
  {
    name: 'PUT /api/admin/subjects/:id name',
    shape: 'name',
    field: 'name',
    where: 'body',
    writes: true,
    send: (v) =>
      call('PUT', `/api/admin/subjects/${mathId}`, admin, { name: v, description: null, category: null, gradeLevel: 'grade_10_under' }),
  },
  {
    name: 'POST /api/admin/promo-codes code',
    shape: 'name',
    field: 'code',
    where: 'body',
    writes: true,
    send: (v) => call('POST', '/api/admin/promo-codes', admin, promoBody({ code: v })),
  },
  // Console filters.
  ...(['from', 'to'] as const).flatMap((field): Probe[] => [
    {
      name: `GET /api/admin/audit-log ?${field}`,
      shape: 'instant',
      field,
      where: 'query',
      writes: false,
      send: (v) => call('GET', `/api/admin/audit-log?${field}=${q(v)}`, admin),
    },
    {
      name: `GET /api/admin/audit-log.csv ?${field}`,
      shape: 'instant',
      field,
      where: 'query',
      writes: false,
      send: (v) => call('GET', `/api/admin/audit-log.csv?${field}=${q(v)}`, admin),
    },
    {
      name: `GET /api/admin/sessions ?${field}`,
      shape: 'instant',
      field,
      where: 'query',
      writes: false,
      send: (v) => call('GET', `/api/admin/sessions?${field}=${q(v)}`, admin),
    },
    {
      name: `GET /api/admin/purchases ?${field}`,
      shape: 'day',
      field,
      where: 'query',
      writes: false,
      send: (v) => call('GET', `/api/admin/purchases?${field}=${q(v)}`, admin),
    },
  ]),
  {
    name: 'GET /api/admin/entities/:kind/:id/state ?at',
    shape: 'instant',
    field: 'at',
    where: 'query',
    writes: false,
    send: (v) => call('GET', `/api/admin/entities/session/${sessionId}/state?at=${q(v)}`, admin),
  },
];

/** Empty means "absent" for optional filters: those routes take it; everywhere else it is refused. */
const OPTIONAL_WHEN_EMPTY = new Set(['from', 'to', 'validFrom', 'validUntil', 'period', 'category']);

const recorded = async () => {
  const [row] = await system.sql<{ events: string; calendar: string }[]>`
    SELECT (SELECT count(*) FROM es_events WHERE type <> 'AccountMailSent')::text AS events,
           (SELECT count(*) FROM sandbox_calendar_events)::text AS calendar`;
  return `${row?.events} events, ${row?.calendar} calendar rows`;
};

/** Waits until nothing more is being recorded (the sagas of the set-up have finished). */
async function quiet(): Promise<void> {
  let last = await recorded();
  for (let still = 0; still < 5; ) {
    await new Promise((r) => setTimeout(r, 200));
    const now = await recorded();
    still = now === last ? still + 1 : 0;
    last = now;
  }
}

const fieldsOf = (body: { field?: string; errors?: { field: string }[] }) => [body.field, ...(body.errors ?? []).map((e) => e.field)];

/** An answer takes well under this, whatever the date: a far-off day must not expand a tutor's weekly series up to it. */
const ANSWER_WITHIN_MS = 5_000;

/** What went wrong with one value at one probe, or null. */
async function failureOf(probe: Probe, value: string): Promise<string | null> {
  const before = await recorded();
  const sent = Date.now();
  const res = await probe.send(value);
  const took = Date.now() - sent;
  const after = await recorded();
  const shown = value.length > 40 ? `${value.slice(0, 12)}…(${value.length} chars)` : JSON.stringify(value);
  const said = `${shown} → ${res.statusCode} ${res.body.slice(0, 200)}`;
  if (res.statusCode >= 500) return said;
  if (took > ANSWER_WITHIN_MS) return `${said} (took ${took} ms)`;
  if (WELL_FORMED[probe.shape].includes(value) || (value === '' && OPTIONAL_WHEN_EMPTY.has(probe.field))) return null;
  if (res.statusCode < 400) return `${said} (accepted)`;
  if (probe.writes && after !== before) return `${said} (recorded: ${before} → ${after})`;
  // A megabyte is past the body limit (413, nothing parsed), and a path parameter past the
  // router's 100 characters is refused by the router (414): 4xx answers that cannot name the field.
  if (value === MEGABYTE && probe.where === 'body') return res.statusCode === 413 ? null : `${said} (expected 413)`;
  if (value.length > 100 && probe.where === 'path') return res.statusCode === 414 ? null : `${said} (expected 414)`;
  if (res.statusCode !== 400) return `${said} (expected 400)`;
  const body = res.json() as { field?: string; errors?: { field: string }[] };
  const named = fieldsOf(body);
  return named.includes(probe.field) || (probe.alias !== undefined && named.includes(probe.alias))
    ? null
    : `${said} (does not name ${probe.field})`;
}

beforeAll(async () => {
  await seedSubjectCatalog(system);
  await seedPackages(system);
  const caughtUp = async () => {
    const models = ['users', 'students', 'subjects', 'packages', 'tutors', 'student_courses', 'sessions', 'promo_codes'] as const;
    if (!(await waitForProjections(system.sql, models, await system.store.committedPosition(), 30_000)))
      throw new Error('the read models did not catch up');
  };
  await caughtUp();
  const math = (await listSubjects(system.sql)).find((s) => s.name === 'Math (Grade 10 & Under)')?.id as string;
  mathId = math;
  const packageId = (await listPackages(system.sql)).find((p) => p.gradeTier.id === 'grade_10_under')?.id as string;

  maya = await approvedTutor(system, 'extreme-maya', { firstName: 'Maya', lastName: 'Okafor' });
  const availability = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: '08:00', endTime: '20:00' }));
  await setWeeklyHours(system, maya, availability, NY);

  const { userId, studentId } = await registerAccount(
    system.accounts,
    {
      username: 'extreme-sam',
      email: 'extreme-sam@example.com',
      firstName: 'Sam',
      lastName: 'Extreme',
      password: null,
      role: 'student',
      phone: null,
      authProvider: 'google',
      googleId: 'google-extreme-sam',
      emailVerified: true,
      termsAccepted: { version: '1.0', ip: null },
      student: { grade: 'Grade 10', isUniversityStudent: false },
    },
    commandContext({ now: system.clock.now() }),
  );
  if (!studentId) throw new Error('no student profile');
  const purchaseId = 'buy-extreme-sam';
  await claimEnrollment(system.accounts.handlers, { studentId, subjectId: math, purchaseId, gradeTierId: 'grade_10_under' }, ctx());
  const courseId = courseIdForPurchase(purchaseId);
  const { courses } = courseHandlers(system.store);
  await enrollCourse({ courses }, { courseId, studentId, subjectId: math, packageId, purchaseId, credits: 12 }, ctx());
  await confirmEnrollment(system.accounts.handlers, { studentId, purchaseId, courseId }, ctx());
  await courses.handle(courseId, { type: 'ChooseCourseTutor', data: { courseId, tutorId: maya.tutorId, tutorQualified: true } }, ctx());
  await courses.handle(courseId, { type: 'ActivateCourse', data: { courseId } }, ctx());
  sam = { userId, studentId, courseId, purchaseId, cookie: `tm_session=${(await system.signIns.create(userId, 'student')).token}` };

  const staff = await createStaffAccount(system.accounts, system.clock, {
    username: 'extreme-admin',
    email: 'extreme-admin@example.com',
    firstName: 'Ad',
    lastName: 'Min',
    password: 'Extreme-admin-2026!',
    role: 'admin',
  });
  admin = `tm_session=${(await system.signIns.create(staff.userId, 'admin')).token}`;
  await caughtUp();

  const booked = await call('POST', '/api/book-session', sam.cookie, {
    tutorId: maya.tutorId,
    studentCourseId: courseId,
    date: nyInstant(nyDay(2), '09:00'),
    duration: 60,
    notes: null,
  });
  if (booked.statusCode !== 201) throw new Error(`booking ${booked.statusCode} ${booked.body}`);
  sessionId = (booked.json() as { id: string }).id;
  const promo = await call('POST', '/api/admin/promo-codes', admin, promoBody({ code: 'EXTREME' }));
  if (promo.statusCode !== 201) throw new Error(`promo ${promo.statusCode} ${promo.body}`);
  promoId = (promo.json() as { id: string }).id;
  await quiet();
}, 120_000);

describe('extreme dates and times: a 400 naming the field, never a 5xx, nothing recorded', () => {
  it.each(PROBES)('$name', async (probe) => {
    const failures: string[] = [];
    // A name is any text: dates are names, so names get their own extremes and the lengths.
    const values =
      probe.shape === 'name' ? [...SHAPED.name, '', LONG, MEGABYTE, NUL] : [...RAW, ...SHAPED[probe.shape], ...WELL_FORMED[probe.shape]];
    for (const value of values) {
      const failure = await failureOf(probe, value);
      if (failure) failures.push(failure);
    }
    expect(failures.join('\n'), probe.name).toBe('');
  });
});

describe('afterwards', () => {
  it('every projection has caught up with the log, running, with nothing parked', async () => {
    const names = (await system.sql<{ name: KnownProjection }[]>`SELECT name FROM projection_checkpoints WHERE kind = 'projector'`).map(
      (r) => r.name,
    );
    expect(names.length).toBeGreaterThan(10);
    expect(await waitForProjections(system.sql, names, await system.store.committedPosition(), 60_000)).toBe(true);
    const unwell = await system.sql<{ name: string; status: string; last_error: string | null }[]>`
      SELECT name, status, last_error FROM projection_checkpoints WHERE status <> 'running' OR last_error IS NOT NULL`;
    expect(unwell).toEqual([]);
    const parked = await system.sql<{ projector: string; type: string; error: string | null }[]>`
      SELECT projector, type, error FROM parked_events WHERE resolved_at IS NULL`;
    expect(parked).toEqual([]);
  }, 90_000);
});
