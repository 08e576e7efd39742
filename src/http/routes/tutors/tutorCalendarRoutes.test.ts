import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestSystem } from '../../../../tests/support/system.ts';
import { withTestApp } from '../../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor } from '../../../../tests/support/tutors.ts';
import { CalendarError, type CalendarPort, type CalendarTarget, type TutorCalendar } from '../../../adapters/calendar/calendarPort.ts';
import { SandboxCalendar } from '../../../adapters/calendar/sandbox/sandboxCalendar.ts';
import { registerAccount } from '../../../commands/accounts/registerUser.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { commandContext, deterministicUuid } from '../../../commands/kit/commandContext.ts';
import { hoursSeriesOf, latestWeeklyHours, writtenHoursSeries } from '../../../commands/tutors/tutorCalendar.ts';
import { tutorHandlers } from '../../../commands/tutors/tutorHandlers.ts';
import { TOPMARK_HOURS, TOPMARK_HOURS_PROPERTY } from '../../../domain/calendar/availability.ts';
import { tutorStreamId } from '../../../domain/tutors/tutor.ts';
import { availabilityEntrySchema, calendarStatusSchema } from '../../../domain/tutors/tutorApi.ts';
import { currentUser } from '../../../projections/accounts/queries.ts';
import { openAlerts } from '../../../projections/operations/alerts/queries.ts';
import { TUTOR_HOURS_QUEUE } from '../../../sagas/tutors/tutorHoursSaga.ts';

/**
 * The sandbox calendar behind a switch that makes the next creates fail as a provider outage would
 * (`unavailable`, retryable): a test double at the port, speaking the port's interface.
 */
class FlakyCalendar implements CalendarPort {
  readonly kind = 'sandbox' as const;
  inner: SandboxCalendar | null = null;
  failCreates = 0;
  failed = 0;
  get serviceAccountEmail() {
    return this.inner?.serviceAccountEmail ?? null;
  }
  calendar(target: CalendarTarget): TutorCalendar {
    if (!this.inner) throw new Error('FlakyCalendar used before the system was created');
    const real = this.inner.calendar(target);
    return {
      status: () => real.status(),
      listEvents: (o) => real.listEvents(o),
      freeBusy: (w) => real.freeBusy(w),
      getEvent: (id) => real.getEvent(id),
      createEvent: async (id, input, options) => {
        if (this.failCreates > 0) {
          this.failCreates -= 1;
          this.failed += 1;
          throw new CalendarError('unavailable', 'Backend Error (503)');
        }
        return real.createEvent(id, input, options);
      },
      updateEvent: (id, patch, options) => real.updateEvent(id, patch, options),
      deleteEvent: (id, options) => real.deleteEvent(id, options),
    };
  }
}

const flaky = new FlakyCalendar();
let system: TestSystem;
let app: FastifyInstance;
withTestApp(
  (s, a) => {
    system = s;
    app = a;
    flaky.inner = new SandboxCalendar(s.sql);
  },
  { calendar: flaky, retry: { retryLimit: 3, retryDelaySeconds: 1 } },
);

const weekdays = [
  { dayOfWeek: 1, startTime: '09:00', endTime: '12:00' },
  { dayOfWeek: 3, startTime: '09:00', endTime: '12:00' },
  { dayOfWeek: 5, startTime: '14:00', endTime: '18:30' },
];

const saveHours = (tutor: ApprovedTutor, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/tutor/availability', headers: { cookie: tutor.cookie, ...headers }, payload });
const get = (tutor: { cookie: string }, url: string) => app.inject({ method: 'GET', url, headers: { cookie: tutor.cookie } });
const streamTypes = async (tutorId: string) => (await system.store.readStream(tutorStreamId(tutorId))).map((e) => e.type);
const sandboxOf = (tutorId: string) => flaky.inner!.calendar({ ownerId: tutorId, calendarId: 'primary', credentials: { kind: 'none' } });
const plain = (entries: { dayOfWeek: number; startTime: string; endTime: string }[]) =>
  entries.map(({ dayOfWeek, startTime, endTime }) => ({ dayOfWeek, startTime, endTime }));

/** The calendar holds exactly the series of the tutor's latest hours, no more. */
async function expectWrittenOnce(tutorId: string) {
  const latest = await latestWeeklyHours(system.store, tutorId);
  const expected = hoursSeriesOf(latest!).map((s) => s.id);
  const written = await writtenHoursSeries(sandboxOf(tutorId), new Date());
  expect(written.map((e) => e.id).sort()).toEqual([...expected].sort());
  return written;
}

describe('weekly hours', () => {
  let tutor: ApprovedTutor;
  beforeAll(async () => {
    tutor = await approvedTutor(system, 'hours');
  });

  it('writes the hours as transparent recurring Topmark Hours events and reads them back', async () => {
    const saved = await saveHours(tutor, { availability: weekdays, timezone: 'America/Toronto' });
    expect(saved.statusCode, saved.body).toBe(200);
    const answer = availabilityEntrySchema.array().parse(saved.json());
    expect(plain(answer)).toEqual(weekdays);
    expect(answer.every((e) => e.timezone === 'America/Toronto' && e.isActive)).toBe(true);

    const read = await get(tutor, '/api/tutor/availability');
    expect(read.statusCode).toBe(200);
    expect(availabilityEntrySchema.array().parse(read.json())).toEqual(answer);

    const written = await expectWrittenOnce(tutor.tutorId);
    // Two series: one per distinct time range (Monday and Wednesday share one).
    expect(written).toHaveLength(2);
    for (const e of written) {
      expect(e).toMatchObject({ summary: TOPMARK_HOURS, transparency: 'transparent' });
      expect(e.privateProperties[TOPMARK_HOURS_PROPERTY.key]).toBe(TOPMARK_HOURS_PROPERTY.value);
      expect(e.recurrence?.[0]).toMatch(/^RRULE:FREQ=WEEKLY;BYDAY=/);
    }
  });

  it('replaces the series it wrote when the hours change, and defaults the zone to the account’s', async () => {
    const before = (await writtenHoursSeries(sandboxOf(tutor.tutorId), new Date())).map((e) => e.id);
    const saved = await saveHours(tutor, { availability: [{ dayOfWeek: 0, startTime: '10:00', endTime: '11:00' }] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(availabilityEntrySchema.array().parse(saved.json())).toEqual([
      expect.objectContaining({ dayOfWeek: 0, startTime: '10:00', endTime: '11:00', timezone: 'America/New_York' }),
    ]);
    const after = await expectWrittenOnce(tutor.tutorId);
    expect(after.map((e) => e.id)).not.toContain(before[0]);
  });

  it('refuses a day outside 0–6, a malformed time and an end before its start, naming the field, and records nothing', async () => {
    const other = await approvedTutor(system, 'hours-invalid');
    const cases = [
      [{ dayOfWeek: 7, startTime: '09:00', endTime: '10:00' }, 'availability[0].dayOfWeek'],
      [{ dayOfWeek: 1, startTime: '9am', endTime: '10:00' }, 'availability[0].startTime'],
      [{ dayOfWeek: 1, startTime: '09:00', endTime: '25:00' }, 'availability[0].endTime'],
      [{ dayOfWeek: 1, startTime: '11:00', endTime: '10:00' }, 'availability[0].endTime'],
    ] as const;
    for (const [entry, field] of cases) {
      const res = await saveHours(other, { availability: [entry] });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ field });
      expect(res.json().message).toContain(field);
    }
    const zone = await saveHours(other, { availability: weekdays, timezone: 'Mars/Olympus' });
    expect(zone.statusCode).toBe(400);
    expect(zone.json()).toMatchObject({ field: 'timezone' });
    expect(await streamTypes(other.tutorId)).not.toContain('TutorWeeklyHoursSet');
  });

  it('ten identical saves at once record the hours once and write one set of series', async () => {
    const busy = await approvedTutor(system, 'hours-concurrent');
    const answers = await Promise.all(Array.from({ length: 10 }, () => saveHours(busy, { availability: weekdays })));
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    expect((await streamTypes(busy.tutorId)).filter((t) => t === 'TutorWeeklyHoursSet')).toHaveLength(1);
    expect(await expectWrittenOnce(busy.tutorId)).toHaveLength(2);
    const all = await sandboxOf(busy.tutorId).listEvents({
      from: new Date().toISOString(),
      to: new Date(Date.now() + 8 * 86_400_000).toISOString(),
      expand: false,
    });
    expect(all).toHaveLength(2);
  });

  it('retries the calendar write when the provider fails, and writes the hours exactly once', async () => {
    const unlucky = await approvedTutor(system, 'hours-flaky');
    flaky.failCreates = 1;
    flaky.failed = 0;
    const saved = await saveHours(unlucky, { availability: weekdays });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(flaky.failed).toBe(1);
    expect(plain(availabilityEntrySchema.array().parse(saved.json()))).toEqual(weekdays);
    expect(await expectWrittenOnce(unlucky.tutorId)).toHaveLength(2);
  });
});

describe('hours saved while the calendar is unreachable', () => {
  it('are kept, shown as not active, and written when saved again once the calendar is back', async () => {
    const tutor = await approvedTutor(system, 'hours-offline');
    await flaky.inner!.setAccess(tutor.tutorId, 'revoked');
    const offline = await saveHours(tutor, { availability: weekdays });
    expect(offline.statusCode, offline.body).toBe(200);
    expect(
      availabilityEntrySchema
        .array()
        .parse(offline.json())
        .every((e) => !e.isActive),
    ).toBe(true);
    // The saga's job ends without writing (only the tutor can mend a revoked grant).
    const latest = await latestWeeklyHours(system.store, tutor.tutorId);
    const jobId = deterministicUuid(`${latest!.eventId}/tutor-hours`);
    await vi.waitFor(async () => expect((await system.jobs.boss.getJobById(TUTOR_HOURS_QUEUE, jobId))?.state).toBe('completed'), {
      timeout: 10_000,
      interval: 100,
    });
    await flaky.inner!.setAccess(tutor.tutorId, 'granted');
    await new Promise((r) => setTimeout(r, 3_100));
    const again = await saveHours(tutor, { availability: weekdays });
    expect(again.statusCode, again.body).toBe(200);
    expect(plain(availabilityEntrySchema.array().parse(again.json()))).toEqual(weekdays);
    expect((await streamTypes(tutor.tutorId)).filter((t) => t === 'TutorWeeklyHoursSet')).toHaveLength(1);
    expect(await expectWrittenOnce(tutor.tutorId)).toHaveLength(2);
  });
});

describe('calendar status', () => {
  let tutor: ApprovedTutor;
  let other: ApprovedTutor;
  beforeAll(async () => {
    tutor = await approvedTutor(system, 'status');
    other = await approvedTutor(system, 'status-other');
  });

  it('answers the tutor themself and admins, refuses other tutors, and 404s an unknown tutor', async () => {
    const own = await get(tutor, `/api/tutor/${tutor.tutorId}/calendar-status`);
    expect(own.statusCode, own.body).toBe(200);
    expect(calendarStatusSchema.parse(own.json())).toMatchObject({
      accessible: true,
      isConnected: true,
      hasAvailability: false,
      needsReauthorisation: false,
      provider: 'sandbox',
    });
    expect((await get(other, `/api/tutor/${tutor.tutorId}/calendar-status`)).statusCode).toBe(403);
    expect((await get(tutor, '/api/tutor/no-such-tutor/calendar-status')).statusCode).toBe(404);

    const { userId } = await createStaffAccount(system.accounts, system.clock, {
      username: 'calendar-admin',
      email: 'calendar-admin@example.com',
      firstName: 'Ada',
      lastName: 'Admin',
      password: 'secret123',
      role: 'admin',
    });
    const admin = { cookie: `tm_session=${(await system.signIns.create(userId, 'admin')).token}` };
    expect((await get(admin, `/api/tutor/${tutor.tutorId}/calendar-status`)).statusCode).toBe(200);

    expect((await saveHours(tutor, { availability: weekdays })).statusCode).toBe(200);
    expect((await get(tutor, `/api/tutor/${tutor.tutorId}/calendar-status`)).json()).toMatchObject({ hasAvailability: true });
  });

  it('a revoked grant asks to authorise again and raises an alert; access back resolves it', async () => {
    await flaky.inner!.setAccess(other.tutorId, 'revoked');
    const lost = await get(other, `/api/tutor/${other.tutorId}/calendar-status`);
    expect(lost.json()).toMatchObject({ accessible: false, needsReauthorisation: true });
    expect(await streamTypes(other.tutorId)).toContain('TutorCalendarAccessLost');
    expect((await get(other, '/api/tutor/availability')).statusCode).toBe(502);
    // The alerts read model follows the log: wait for it rather than for a position.
    const alert = await vi.waitFor(
      async () => {
        const found = (await openAlerts(system.sql)).find((a) => a.type === 'calendar_invalid_grant' && a.user_id === other.userId);
        if (!found) throw new Error('no alert yet');
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(alert).toMatchObject({ severity: 'high', is_resolved: false });
    // Polling the status again records nothing more.
    await get(other, `/api/tutor/${other.tutorId}/calendar-status`);
    expect((await streamTypes(other.tutorId)).filter((t) => t === 'TutorCalendarAccessLost')).toHaveLength(1);

    await flaky.inner!.setAccess(other.tutorId, 'granted');
    const back = await get(other, `/api/tutor/${other.tutorId}/calendar-status`);
    expect(back.json()).toMatchObject({ accessible: true, needsReauthorisation: false });
    expect(await streamTypes(other.tutorId)).toContain('TutorCalendarAccessRestored');
    await vi.waitFor(async () => expect((await openAlerts(system.sql)).find((a) => a.id === alert.id)).toBeUndefined(), {
      timeout: 10_000,
      interval: 50,
    });
  });
});

/** Google sign-in through the dev identity provider, as a browser follows it; the page it lands on. */
async function landingAfterSignIn(email: string): Promise<string> {
  const started = await app.inject({ method: 'GET', url: '/api/auth/google?userType=tutor' });
  const set = started.headers['set-cookie'];
  const oauthCookie = (Array.isArray(set) ? set : [String(set)]).find((c) => c.startsWith('tm_oauth='))?.split(';')[0] ?? '';
  const page = await app.inject({ method: 'GET', url: String(started.headers.location) });
  const hidden = (name: string) => page.body.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? '';
  const posted = await app.inject({
    method: 'POST',
    url: '/api/auth/dev/consent',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      state: hidden('state'),
      userType: hidden('userType'),
      code_challenge: hidden('code_challenge'),
      email,
      firstName: 'Tess',
      lastName: 'Tutor',
    }).toString(),
  });
  const callback = await app.inject({ method: 'GET', url: String(posted.headers.location), headers: { cookie: oauthCookie } });
  expect(callback.statusCode).toBe(302);
  return String(callback.headers.location);
}

describe('onboarding completion', () => {
  it('lists what is missing (422), then completes once everything is there', async () => {
    // Linked to the dev identity provider's subject, so the tutor can sign in through it.
    const email = 'tutor-onboarding@example.com';
    const { userId } = await registerAccount(
      system.accounts,
      {
        username: 'tutor-onboarding',
        email,
        password: null,
        role: 'tutor',
        firstName: 'Tess',
        lastName: 'Tutor',
        phone: null,
        authProvider: 'google',
        googleId: `dev:${email}`,
        emailVerified: true,
        termsAccepted: null,
      },
      commandContext({ now: system.clock.now() }),
    );
    await tutorHandlers(system.store).tutors.handle(
      userId,
      { type: 'CreateTutorProfile', data: { tutorId: userId, userId, applicationId: 'application-onboarding' } },
      commandContext({ now: system.clock.now() }),
    );
    const cookie = `tm_session=${(await system.signIns.create(userId, 'tutor')).token}`;
    const tutor: ApprovedTutor = { tutorId: userId, userId, email, cookie };
    await vi.waitFor(async () => expect(await currentUser(system.sql, { userId, role: 'tutor', studentId: null })).not.toBeNull());
    expect(await landingAfterSignIn(tutor.email)).toBe('/tutor-onboarding');
    const missing = await app.inject({ method: 'POST', url: '/api/tutor/onboarding/complete', headers: { cookie: tutor.cookie } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toContain('a bio');
    expect(missing.json().message).toContain('weekly hours');

    const handlers = tutorHandlers(system.store);
    const ctx = () => commandContext({ actorId: tutor.userId, actorRole: 'tutor', now: system.clock.now() });
    await handlers.tutors.handle(
      tutor.tutorId,
      { type: 'EditTutorProfile', data: { tutorId: tutor.tutorId, bio: 'I teach maths.' } },
      ctx(),
    );
    await handlers.tutors.handle(
      tutor.tutorId,
      {
        type: 'SetQualifications',
        data: {
          tutorId: tutor.tutorId,
          qualifications: [{ subjectId: 'math', maxGradeLevel: 'grade_10_under' }],
          catalog: [{ id: 'math', name: 'Math (Grade 10 & Under)' }],
        },
      },
      ctx(),
    );
    expect((await saveHours(tutor, { availability: weekdays })).statusCode).toBe(200);

    const done = await app.inject({ method: 'POST', url: '/api/tutor/onboarding/complete', headers: { cookie: tutor.cookie } });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ onboardingCompleted: true });
    expect(await streamTypes(tutor.tutorId)).toContain('TutorOnboardingCompleted');
    expect(await landingAfterSignIn(tutor.email)).toBe('/tutor');
    const twice = await app.inject({ method: 'POST', url: '/api/tutor/onboarding/complete', headers: { cookie: tutor.cookie } });
    expect(twice.statusCode).toBe(200);
  });
});
