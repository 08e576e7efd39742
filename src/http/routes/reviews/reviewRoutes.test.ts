import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  appendBookedSession,
  hourFromNow,
  type RegisteredStudent,
  registeredParent,
  registeredStudent,
} from '../../../../tests/support/sessions.ts';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor } from '../../../../tests/support/tutors.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { tutorHandlers } from '../../../commands/tutors/tutorHandlers.ts';
import { reviewSchema } from '../../../domain/reviews/reviewApi.ts';
import {
  ALREADY_REVIEWED,
  COMMENT_TOO_LONG,
  HIDE_REASON_REQUIRED,
  RATING_RANGE,
  REVIEW_NOT_COMPLETED,
  REVIEW_SESSION_NOT_FOUND,
} from '../../../domain/reviews/reviewDecider.ts';
import { tutorListEntrySchema } from '../../../domain/tutors/tutorApi.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { listSubjects } from '../../../projections/subjects/queries.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

let tutor: ApprovedTutor;
let parentCookie: string;
let child: RegisteredStudent;
let stranger: RegisteredStudent;
let admin: string;

const caughtUp = async () =>
  expect(
    await waitForProjections(
      system.sql,
      ['users', 'students', 'tutors', 'sessions', 'tutor_reviews'],
      await system.store.committedPosition(),
      30_000,
    ),
  ).toBe(true);

/** A session of the child with the tutor, booked an hour ago and (unless told) completed by the tutor. */
async function session(completed = true): Promise<string> {
  const parties = { tutorId: tutor.tutorId, studentId: child.studentId, studentUserId: child.userId };
  const sessionId = await appendBookedSession(system.store, parties, hourFromNow(-1));
  if (completed) {
    await system.store.append(
      `session-${sessionId}`,
      [
        {
          id: randomUUID(),
          type: 'SessionCompleted',
          metadata: {},
          data: {
            sessionId,
            ...parties,
            courseId: 'c',
            completedBy: tutor.tutorId,
            notes: 'Fractions mastered',
            at: new Date().toISOString(),
          },
        },
      ],
      { exact: 0 },
    );
  }
  return sessionId;
}

const rate = (sessionId: string, cookie: string, body: unknown, method: 'POST' | 'PUT' = 'POST') =>
  app.inject({ method, url: `/api/sessions/${sessionId}/review`, headers: { cookie }, payload: body as object });

const card = async () => {
  const res = await app.inject({ method: 'GET', url: `/api/tutors/${tutor.tutorId}` });
  expect(res.statusCode, res.body).toBe(200);
  return tutorListEntrySchema.parse(res.json());
};

beforeAll(async () => {
  await seedSubjectCatalog(system);
  await waitForProjections(system.sql, ['subjects'], await system.store.committedPosition(), 30_000);
  const calculus = (await listSubjects(system.sql)).find((s) => s.name === 'Calculus (University/College)');
  tutor = await approvedTutor(system, 'rev-tess', { firstName: 'Tess', lastName: 'Review' });
  // Onboarded, so that the public directory lists the tutor's card.
  const { tutors } = tutorHandlers(system.store);
  const ctx = () => commandContext({ actorId: tutor.userId, actorRole: 'tutor', now: system.clock.now() });
  const tutorId = tutor.tutorId;
  await tutors.handle(tutorId, { type: 'EditTutorProfile', data: { tutorId, bio: 'Teaching for years.', experience: 4 } }, ctx());
  await tutors.handle(
    tutorId,
    {
      type: 'SetQualifications',
      data: {
        tutorId,
        qualifications: [{ subjectId: calculus?.id as string, maxGradeLevel: 'university' }],
        catalog: [{ id: calculus?.id as string, name: calculus?.name as string }],
      },
    },
    ctx(),
  );
  await tutors.handle(
    tutorId,
    { type: 'SetWeeklyHours', data: { tutorId, availability: [{ dayOfWeek: 1, startTime: '09:00', endTime: '12:00' }], timeZone: 'UTC' } },
    ctx(),
  );
  await tutors.handle(tutorId, { type: 'CompleteOnboarding', data: { tutorId, calendarConnected: true } }, ctx());
  const parent = await registeredParent(system, 'rev-parent');
  parentCookie = `tm_session=${(await system.signIns.create(parent.userId, 'parent')).token}`;
  child = await registeredStudent(system, 'rev-kid', { parentId: parent.userId, firstName: 'Kit', lastName: 'Lee' });
  stranger = await registeredStudent(system, 'rev-other');
  const staff = await createStaffAccount(system.accounts, system.clock, {
    username: 'reviews-admin',
    email: 'reviews-admin@example.com',
    firstName: 'Ada',
    lastName: 'Admin',
    password: 'Reviews-staff-2026!',
    role: 'admin',
  });
  admin = `tm_session=${(await system.signIns.create(staff.userId, 'admin')).token}`;
  await caughtUp();
}, 120_000);

describe('reviews', () => {
  it('the card says New with no sessions until there are sessions and three reviews; then the average to one decimal', async () => {
    expect(await card()).toMatchObject({ rating: null, reviewCount: 0, totalSessions: 0 });
    const [a, b, c] = [await session(), await session(), await session()];
    const first = await rate(a, parentCookie, { rating: 5, comment: '  Wonderful tutor  ' });
    expect(first.statusCode, first.body).toBe(201);
    expect(reviewSchema.parse(first.json())).toMatchObject({ sessionId: a, rating: 5, comment: 'Wonderful tutor', studentName: 'Kit L.' });
    expect((await rate(b, child.cookie, { rating: 4 })).statusCode).toBe(201);
    await caughtUp();
    expect(await card()).toMatchObject({ rating: null, reviewCount: 2, totalSessions: 3 });
    expect((await rate(c, parentCookie, { rating: 4, comment: null })).statusCode).toBe(201);
    expect(await card()).toMatchObject({ rating: 4.3, reviewCount: 3, totalSessions: 3 });
    // The family changes a review within the week: the average follows.
    const changed = await rate(c, child.cookie, { rating: 3, comment: 'Good' }, 'PUT');
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ rating: 3, comment: 'Good' });
    expect(await card()).toMatchObject({ rating: 4, reviewCount: 3 });
    // The tutor reads their reviews, newest first.
    const mine = await app.inject({ method: 'GET', url: '/api/tutor/reviews', headers: { cookie: tutor.cookie } });
    expect(mine.statusCode).toBe(200);
    expect(
      reviewSchema
        .array()
        .parse(mine.json())
        .map((r) => r.rating)
        .sort(),
    ).toEqual([3, 4, 5]);
    // The family reads the reviews of their student's sessions; another family cannot.
    const own = await app.inject({
      method: 'GET',
      url: `/api/students/${child.studentId}/session-reviews`,
      headers: { cookie: parentCookie },
    });
    expect(own.json()).toHaveLength(3);
    const peek = await app.inject({
      method: 'GET',
      url: `/api/students/${child.studentId}/session-reviews`,
      headers: { cookie: stranger.cookie },
    });
    expect(peek.statusCode).toBe(404);
  });

  it('rates once; an attacker’s ratings, comment, session and stage are refused and change nothing', async () => {
    const id = await session();
    for (const rating of [0, 6, 2.5]) {
      const res = await rate(id, parentCookie, { rating });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: RATING_RANGE });
    }
    const big = await rate(id, parentCookie, { rating: 5, comment: 'x'.repeat(1_000_000) });
    // A megabyte is over the server's body limit: refused before any route runs.
    expect(big.statusCode).toBe(413);
    const long = await rate(id, parentCookie, { rating: 5, comment: 'x'.repeat(2001) });
    expect(long.json()).toMatchObject({ message: COMMENT_TOO_LONG, field: 'comment' });
    const nul = await rate(id, parentCookie, { rating: 5, comment: 'a\u0000b' });
    expect(nul.statusCode).toBe(400);
    const theirs = await rate(id, stranger.cookie, { rating: 1, comment: 'Terrible' });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ message: REVIEW_SESSION_NOT_FOUND });
    expect((await rate(id, tutor.cookie, { rating: 5 })).statusCode).toBe(403);
    expect((await rate(randomUUID(), parentCookie, { rating: 5 })).statusCode).toBe(404);
    const early = await rate(await session(false), parentCookie, { rating: 5 });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ message: REVIEW_NOT_COMPLETED });
    expect((await rate(id, parentCookie, { rating: 5 }, 'PUT')).statusCode).toBe(404);
    const events = await system.store.readStream(`sessionReview-${id}`);
    expect(events).toHaveLength(0);
    // Ten identical first reviews at once: one is recorded, the others are told it is rated.
    const answers = await Promise.all(Array.from({ length: 10 }, () => rate(id, parentCookie, { rating: 2, comment: 'Late' })));
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((r) => r.statusCode === 409)).toHaveLength(9);
    expect(answers.find((r) => r.statusCode === 409)?.json().message).toMatch(ALREADY_REVIEWED);
    expect(await system.store.readStream(`sessionReview-${id}`)).toHaveLength(1);
  });

  it('an admin hides an abusive comment with a reason: the tutor no longer sees it, the admin sees why', async () => {
    const id = await session();
    expect((await rate(id, parentCookie, { rating: 1, comment: 'Rude words' })).statusCode).toBe(201);
    const hide = (cookie: string, reason: string) =>
      app.inject({ method: 'POST', url: `/api/admin/reviews/${id}/hide`, headers: { cookie }, payload: { reason } });
    expect((await hide(tutor.cookie, 'Mine')).statusCode).toBe(403);
    expect((await hide(parentCookie, 'Mine')).statusCode).toBe(403);
    expect((await hide(admin, '   ')).json()).toMatchObject({ message: HIDE_REASON_REQUIRED });
    const hidden = await hide(admin, 'Abusive language');
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(hidden.json()).toMatchObject({ hidden: true, hiddenReason: 'Abusive language', comment: 'Rude words' });
    const mine = await app.inject({ method: 'GET', url: '/api/tutor/reviews', headers: { cookie: tutor.cookie } });
    expect(
      reviewSchema
        .array()
        .parse(mine.json())
        .find((r) => r.sessionId === id),
    ).toMatchObject({ comment: null, hidden: true, hiddenReason: null });
    const console = await app.inject({ method: 'GET', url: `/api/admin/reviews?tutorId=${tutor.tutorId}`, headers: { cookie: admin } });
    expect(
      reviewSchema
        .array()
        .parse(console.json())
        .find((r) => r.sessionId === id),
    ).toMatchObject({ comment: 'Rude words', hiddenReason: 'Abusive language' });
    const [row] = await system.sql<{ hidden_by: string }[]>`SELECT hidden_by FROM tutor_reviews WHERE session_id = ${id}`;
    expect(row?.hidden_by).not.toBeNull();
  });

  it('the comment is sealed with the reviewer’s key in the log: shredding the key erases it, the rating stays', async () => {
    const eraser = await registeredStudent(system, 'rev-erased');
    // The eraser's own session with the tutor, rated with a comment.
    const parties = { tutorId: tutor.tutorId, studentId: eraser.studentId, studentUserId: eraser.userId };
    const own = await appendBookedSession(system.store, parties, hourFromNow(-1));
    await system.store.append(
      `session-${own}`,
      [
        {
          id: randomUUID(),
          type: 'SessionCompleted',
          metadata: {},
          data: { sessionId: own, ...parties, courseId: 'c', completedBy: tutor.tutorId, notes: 'Done', at: new Date().toISOString() },
        },
      ],
      { exact: 0 },
    );
    // The family check reads the students read model: the new student must be in it first.
    expect(await waitForProjections(system.sql, ['students'], await system.store.committedPosition(), 30_000)).toBe(true);
    const rated = await rate(own, eraser.cookie, { rating: 4, comment: 'Secret words about my exam' });
    expect(rated.statusCode, rated.body).toBe(201);
    const [raw] = await system.sql<
      { data: string }[]
    >`SELECT data::text AS data FROM es_events WHERE stream_id = ${`sessionReview-${own}`}`;
    expect(raw?.data).not.toContain('Secret words');
    await system.vault.shred(`user-${eraser.userId}`);
    const [event] = await system.store.readStream(`sessionReview-${own}`);
    expect(event?.data).toMatchObject({ rating: 4, comment: '[erased]' });
  });
});
