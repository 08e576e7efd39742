import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor } from '../../../../tests/support/tutors.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { tutorHandlers } from '../../../commands/tutors/tutorHandlers.ts';
import { tutorListEntrySchema } from '../../../domain/tutors/tutorApi.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { listSubjects } from '../../../projections/subjects/queries.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

let idOf: (name: string) => string;
let maya: ApprovedTutor;
let dan: ApprovedTutor;
let newcomer: ApprovedTutor;

/** A tutor through onboarding: bio, subjects, weekly hours, then completion (calendar connected as a fact). */
async function onboard(tutor: ApprovedTutor, subjects: string[], complete = true) {
  const { tutors } = tutorHandlers(system.store);
  const ctx = () => commandContext({ actorId: tutor.userId, actorRole: 'tutor', now: system.clock.now() });
  const tutorId = tutor.tutorId;
  const catalog = (await listSubjects(system.sql)).map((s) => ({ id: s.id, name: s.name }));
  await tutors.handle(tutorId, { type: 'EditTutorProfile', data: { tutorId, bio: 'Teaching for years.', experience: 4 } }, ctx());
  const qualifications = subjects.map((name) => ({ subjectId: idOf(name), maxGradeLevel: 'university' as const }));
  await tutors.handle(tutorId, { type: 'SetQualifications', data: { tutorId, qualifications, catalog } }, ctx());
  await tutors.handle(
    tutorId,
    { type: 'SetWeeklyHours', data: { tutorId, availability: [{ dayOfWeek: 1, startTime: '09:00', endTime: '12:00' }], timeZone: 'UTC' } },
    ctx(),
  );
  if (complete) await tutors.handle(tutorId, { type: 'CompleteOnboarding', data: { tutorId, calendarConnected: true } }, ctx());
}

beforeAll(async () => {
  await seedSubjectCatalog(system);
  await waitForProjections(system.sql, ['subjects'], await system.store.committedPosition(), 30_000);
  const catalog = await listSubjects(system.sql);
  idOf = (name) => catalog.find((s) => s.name === name)?.id as string;
  maya = await approvedTutor(system, 'dir-maya', { firstName: 'Maya', lastName: 'Okafor' });
  dan = await approvedTutor(system, 'dir-dan', { firstName: 'Dan', lastName: 'Reyes' });
  newcomer = await approvedTutor(system, 'dir-new', { firstName: 'Nell', lastName: 'New' });
  await onboard(maya, ['Calculus (University/College)']);
  await onboard(dan, ['Chemistry (University/College)']);
  await onboard(newcomer, ['Calculus (University/College)'], false);
  if (!(await waitForProjections(system.sql, ['tutors', 'users'], await system.store.committedPosition(), 30_000)))
    throw new Error('the read models did not catch up');
});

const list = async (query = '') => {
  const res = await app.inject({ method: 'GET', url: `/api/tutors${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return tutorListEntrySchema.array().parse(res.json());
};

describe('the tutor directory', () => {
  it('lists onboarded tutors publicly, with names, bio, experience and subjects; no ratings yet', async () => {
    const tutors = await list();
    expect(tutors.map((t) => t.id)).toEqual([dan.tutorId, maya.tutorId]);
    expect(tutors[1]).toMatchObject({
      user: { firstName: 'Maya', lastName: 'Okafor', profileImage: null },
      rating: null,
      reviewCount: 0,
      totalSessions: 0,
      bio: 'Teaching for years.',
      experience: 4,
    });
    expect(tutors[1]?.subjects.map((s) => s.name)).toContain('Functions');
  });

  it('filters by subject (implied subjects count) and by level', async () => {
    expect((await list(`?subjectId=${idOf('Functions')}`)).map((t) => t.id)).toEqual([maya.tutorId]);
    expect((await list(`?subjectId=${idOf('Calculus (University/College)')}&gradeLevel=university`)).map((t) => t.id)).toEqual([
      maya.tutorId,
    ]);
    // Dan's implied Chemistry (Grade 10 & Under) was saved at its own level, grade_10_under.
    expect(await list(`?subjectId=${idOf('Chemistry (Grade 10 & Under)')}&gradeLevel=grade_11_12`)).toEqual([]);
    expect((await list(`?subjectId=${idOf('Chemistry (Grade 10 & Under)')}&gradeLevel=grade_10_under`)).map((t) => t.id)).toEqual([
      dan.tutorId,
    ]);
    expect(await list('?subjectId=unknown')).toEqual([]);
  });

  it('refuses unknown levels and parameters', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/tutors?gradeLevel=phd' })).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/tutors?sort=1' })).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: `/api/tutors?subjectId=${'x'.repeat(101)}` })).statusCode).toBe(400);
  });

  it('answers one listed tutor, and 404 for a tutor still onboarding or unknown', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/tutors/${maya.tutorId}` });
    expect(res.statusCode).toBe(200);
    expect(tutorListEntrySchema.parse(res.json()).user.firstName).toBe('Maya');
    expect((await app.inject({ method: 'GET', url: `/api/tutors/${newcomer.tutorId}` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/tutors/nobody' })).statusCode).toBe(404);
  });

  it('shows a name change at once', async () => {
    const res = await app.inject({
      method: 'PATCH',
      url: '/api/user/name',
      headers: { cookie: maya.cookie },
      payload: { firstName: 'Mayowa', lastName: 'Okafor' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await list()).find((t) => t.id === maya.tutorId)?.user.firstName).toBe('Mayowa');
  });

  it('drops a tutor whose account is deleted, and deletes their picture files', async () => {
    const cookie = { cookie: dan.cookie };
    const { uploadURL } = (await app.inject({ method: 'POST', url: '/api/tutor/profile-picture/upload', headers: cookie })).json();
    const gif = Buffer.from('GIF89a\u0001\u0000\u0001\u0000', 'latin1');
    expect(
      (await app.inject({ method: 'PUT', url: uploadURL, headers: { ...cookie, 'content-type': 'image/gif' }, payload: gif })).statusCode,
    ).toBe(200);
    const set = await app.inject({
      method: 'PUT',
      url: '/api/tutor/profile-picture',
      headers: cookie,
      payload: { profileImageURL: uploadURL },
    });
    expect(set.statusCode, set.body).toBe(200);
    await app.inject({ method: 'POST', url: '/api/tutor/profile-picture/upload', headers: cookie });
    expect(await system.files.list(`profile-pictures/${dan.tutorId}/`)).toHaveLength(1);
    const res = await app.inject({ method: 'DELETE', url: '/api/user/delete', headers: { cookie: dan.cookie } });
    expect(res.statusCode, res.body).toBeLessThan(300);
    await waitForProjections(system.sql, ['tutors', 'users'], await system.store.committedPosition(), 30_000);
    expect((await list()).map((t) => t.id)).toEqual([maya.tutorId]);
    expect((await app.inject({ method: 'GET', url: `/api/tutors/${dan.tutorId}` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/tutors/${dan.tutorId}/picture` })).statusCode).toBe(404);
    expect(await system.files.list(`profile-pictures/${dan.tutorId}/`)).toEqual([]);
    expect(await system.files.list(`uploads/${dan.tutorId}/`)).toEqual([]);
  });
});
