import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendBookedSession, appendCancelled, registeredStudent } from '../../../../tests/support/sessions.ts';
import { createTestSystem, type TestSystem } from '../../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor } from '../../../../tests/support/tutors.ts';
import { courseHandlers, enrollCourse } from '../../../commands/courses/courseHandlers.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { billingPeriodOf, PAYOUT_TIME_ZONE, weekOf } from '../../../domain/payouts/billingPeriod.ts';
import { dashboardStatsSchema } from '../../../domain/tutors/tutorApi.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { buildApp } from '../../app.ts';

/** The tutor dashboard's four figures from real sessions and courses (issue 11 item 8). */
const HOUR = 3_600_000;
let system: TestSystem;
let app: FastifyInstance;
let tutor: ApprovedTutor;

beforeAll(async () => {
  system = await createTestSystem('projector');
  app = await buildApp(system, { logger: false });
  tutor = await approvedTutor(system, 'stats');
}, 60_000);
afterAll(async () => {
  await app?.close();
  await system?.dispose();
});

const stats = async () => {
  expect(
    await waitForProjections(system.sql, ['sessions', 'student_courses', 'tutors'], await system.store.committedPosition(), 30_000),
  ).toBe(true);
  const res = await app.inject({ method: 'GET', url: '/api/tutor/dashboard-stats', headers: { cookie: tutor.cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return dashboardStatsSchema.parse(res.json());
};

describe('tutor dashboard figures', () => {
  it('count active students, this week’s sessions, and the payable hours and earnings of the billing period', async () => {
    expect(await stats()).toEqual({ activeStudents: 0, sessionsThisWeek: 0, hoursThisBillingPeriod: 0, earningsThisBillingPeriod: 0 });

    const [ann, ben] = [await registeredStudent(system, 'stats-ann'), await registeredStudent(system, 'stats-ben')];
    const courses = courseHandlers(system.store);
    for (const s of [ann, ben]) {
      const courseId = randomUUID();
      const purchaseId = randomUUID();
      await enrollCourse(
        courses,
        { courseId, studentId: s.studentId, subjectId: 'math', packageId: 'p', purchaseId, credits: 4 },
        commandContext({ now: system.clock.now() }),
      );
      await courses.courses.handle(
        courseId,
        { type: 'ChooseCourseTutor', data: { courseId, tutorId: tutor.tutorId, tutorQualified: true } },
        commandContext({ now: system.clock.now() }),
      );
    }

    // The tutor's zone (America/New_York by default) decides the week and the period.
    const now = new Date();
    const week = weekOf(now, 'America/New_York');
    const period = billingPeriodOf(now, 'America/New_York');
    const parties = { tutorId: tutor.tutorId, studentId: ann.studentId, studentUserId: ann.userId };
    const inWeek = new Date(week.start.getTime() + 10 * HOUR).toISOString();
    const inPeriod = new Date(period.start.getTime() + 14 * HOUR).toISOString();
    const beforePeriod = new Date(period.start.getTime() - 48 * HOUR).toISOString();
    await appendBookedSession(system.store, parties, inWeek);
    const completed = await appendBookedSession(system.store, parties, inPeriod);
    await system.store.append(
      `session-${completed}`,
      [
        {
          id: randomUUID(),
          type: 'SessionCompleted',
          metadata: {},
          data: {
            sessionId: completed,
            tutorId: tutor.tutorId,
            studentId: ann.studentId,
            studentUserId: ann.userId,
            courseId: 'c',
            completedBy: tutor.userId,
            notes: 'Good work',
            at: inPeriod,
          },
        },
      ],
      { exact: 0 },
    );
    const lateCancelled = await appendBookedSession(system.store, parties, new Date(Date.parse(inPeriod) + 2 * HOUR).toISOString());
    await system.store.append(
      `session-${lateCancelled}`,
      [
        {
          id: randomUUID(),
          type: 'SessionCancelled',
          metadata: {},
          data: {
            sessionId: lateCancelled,
            ...parties,
            courseId: 'c',
            start: new Date(Date.parse(inPeriod) + 2 * HOUR).toISOString(),
            end: new Date(Date.parse(inPeriod) + 3 * HOUR).toISOString(),
            cancelledBy: ann.userId,
            cancelledByRole: 'student',
            reason: 'Sick',
            noticeMinutes: 60,
            credit: 'forfeited',
            tutorTimeZone: 'America/New_York',
            studentTimeZone: 'America/New_York',
            at: inPeriod,
          },
        },
      ],
      { exact: 0 },
    );
    const released = await appendBookedSession(system.store, parties, new Date(Date.parse(inPeriod) + 4 * HOUR).toISOString());
    await appendCancelled(system.store, { ...parties, sessionId: released }, new Date(Date.parse(inPeriod) + 4 * HOUR).toISOString(), 0);
    const earlier = await appendBookedSession(system.store, parties, beforePeriod);
    await system.store.append(
      `session-${earlier}`,
      [
        {
          id: randomUUID(),
          type: 'SessionCompleted',
          metadata: {},
          data: {
            sessionId: earlier,
            tutorId: tutor.tutorId,
            studentId: ann.studentId,
            studentUserId: ann.userId,
            courseId: 'c',
            completedBy: tutor.userId,
            notes: '',
            at: beforePeriod,
          },
        },
      ],
      { exact: 0 },
    );

    const figures = await stats();
    expect(figures.activeStudents).toBe(2);
    // Every session not cancelled that starts in this week (the period's may fall in it too).
    const startsThisWeek = [inWeek, inPeriod, beforePeriod].filter(
      (t) => Date.parse(t) >= week.start.getTime() && Date.parse(t) < week.end.getTime(),
    );
    expect(figures.sessionsThisWeek).toBe(startsThisWeek.length);
    expect(figures.sessionsThisWeek).toBeGreaterThanOrEqual(1);
    // Completed + the late cancellation (payable); not the released one nor the one before the period.
    expect(figures.hoursThisBillingPeriod).toBe(2);
    expect(figures.earningsThisBillingPeriod).toBe(0);

    await system.sql`UPDATE tutors SET hourly_rate_cents = 4550 WHERE id = ${tutor.tutorId}`;
    expect((await stats()).earningsThisBillingPeriod).toBe(91);
  });

  it('takes the billing period from Toronto, as payouts do, whatever the tutor’s zone', async () => {
    const far = await approvedTutor(system, 'stats-kiritimati');
    // Kiritimati is 19 hours ahead of Toronto: there, the hour before Toronto's period starts is already in it.
    await system.sql`UPDATE users SET timezone = 'Pacific/Kiritimati' FROM tutors t WHERE t.user_id = users.id AND t.id = ${far.tutorId}`;
    const student = await registeredStudent(system, 'stats-kiri');
    const parties = { tutorId: far.tutorId, studentId: student.studentId, studentUserId: student.userId };
    const period = billingPeriodOf(new Date(), PAYOUT_TIME_ZONE);
    const justBefore = await appendBookedSession(system.store, parties, new Date(period.start.getTime() - HOUR).toISOString());
    const justAfter = await appendBookedSession(system.store, parties, new Date(period.start.getTime() + HOUR).toISOString());
    for (const [sessionId, start] of [
      [justBefore, period.start.getTime() - HOUR],
      [justAfter, period.start.getTime() + HOUR],
    ] as const) {
      await system.store.append(
        `session-${sessionId}`,
        [
          {
            id: randomUUID(),
            type: 'SessionCompleted',
            data: {
              sessionId,
              ...parties,
              courseId: 'c',
              completedBy: far.userId,
              notes: 'Done',
              at: new Date(start + HOUR).toISOString(),
            },
            metadata: {},
          },
        ],
        { exact: 0 },
      );
    }
    await system.sql`UPDATE tutors SET hourly_rate_cents = 5000 WHERE id = ${far.tutorId}`;
    expect(await waitForProjections(system.sql, ['sessions', 'tutors'], await system.store.committedPosition(), 30_000)).toBe(true);
    const res = await app.inject({ method: 'GET', url: '/api/tutor/dashboard-stats', headers: { cookie: far.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    const figures = dashboardStatsSchema.parse(res.json());
    // Only the session after Toronto's period start: the one an hour before it is paid in the previous period.
    expect(figures.hoursThisBillingPeriod).toBe(1);
    expect(figures.earningsThisBillingPeriod).toBe(50);
  });
});
