import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { approvedTutor } from '../../../../tests/support/tutors.ts';
import { commandContext } from '../../../commands/kit/commandContext.ts';
import { seedPackages } from '../../../commands/packages/seedPackages.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { tutorHandlers } from '../../../commands/tutors/tutorHandlers.ts';
import { packageSchema, subjectWithTutorsSchema } from '../../../domain/packages/packageApi.ts';
import { catalogSubjects } from '../../../domain/subjects/catalog.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { listSubjects } from '../../../projections/subjects/queries.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

/** Polls until `ready` holds: a fresh system's projector may not have its checkpoint yet. */
async function eventually<T>(read: () => Promise<T>, ready: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 300 && !ready(value); i++) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

beforeAll(async () => {
  await seedSubjectCatalog(system);
  await seedPackages(system);
  await waitForProjections(system.sql, ['subjects', 'packages'], await system.store.committedPosition(), 30_000);
  const catalog = (
    await eventually(
      () => listSubjects(system.sql),
      (rows) => rows.length === catalogSubjects.length,
    )
  ).map((s) => ({ id: s.id, name: s.name }));
  const idOf = (name: string) => catalog.find((s) => s.name === name)?.id as string;
  const { tutors } = tutorHandlers(system.store);
  for (const [n, subject, complete] of [
    ['pk-listed', 'Chemistry (University/College)', true],
    ['pk-onboarding', 'Physics (University/College)', false],
  ] as const) {
    const tutor = await approvedTutor(system, n);
    const ctx = () => commandContext({ actorId: tutor.userId, actorRole: 'tutor', now: system.clock.now() });
    const tutorId = tutor.tutorId;
    const qualifications = [{ subjectId: idOf(subject), maxGradeLevel: 'university' as const }];
    await tutors.handle(tutorId, { type: 'EditTutorProfile', data: { tutorId, bio: 'Teaching for years.', experience: 4 } }, ctx());
    await tutors.handle(tutorId, { type: 'SetQualifications', data: { tutorId, qualifications, catalog } }, ctx());
    await tutors.handle(
      tutorId,
      {
        type: 'SetWeeklyHours',
        data: { tutorId, availability: [{ dayOfWeek: 1, startTime: '09:00', endTime: '12:00' }], timeZone: 'UTC' },
      },
      ctx(),
    );
    if (complete) await tutors.handle(tutorId, { type: 'CompleteOnboarding', data: { tutorId, calendarConnected: true } }, ctx());
  }
  await waitForProjections(system.sql, ['tutors'], await system.store.committedPosition(), 30_000);
});

describe('packages', () => {
  it('GET /api/packages lists 1x/2x/3x per week for every tier, priced in whole dollars by the policy', async () => {
    const packages = await eventually(
      async () => packageSchema.array().parse((await app.inject({ method: 'GET', url: '/api/packages' })).json()),
      (list) => list.length === 9,
    );
    expect(packages.map((p) => [p.gradeTier.name, p.sessionCount, p.totalPrice])).toEqual([
      ['Grade 10 & Under', 4, 240],
      ['Grade 10 & Under', 8, 456],
      ['Grade 10 & Under', 12, 648],
      ['Grade 11-12', 4, 300],
      ['Grade 11-12', 8, 570],
      ['Grade 11-12', 12, 810],
      ['University', 4, 360],
      ['University', 8, 684],
      ['University', 12, 972],
    ]);
    for (const p of packages) expect(Object.keys(p).sort()).toEqual(['gradeTier', 'id', 'name', 'sessionCount', 'totalPrice']);
    const one = packages[4];
    const res = await app.inject({ method: 'GET', url: `/api/packages/${one?.id}` });
    expect([res.statusCode, res.json()]).toEqual([200, one]);
  });

  it('GET /api/packages/{id} answers 404 JSON for an unknown id or a NUL byte (400), 414 for an over-long id', async () => {
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000', encodeURIComponent('a\u0000b'), 'x'.repeat(101)]) {
      const res = await app.inject({ method: 'GET', url: `/api/packages/${id}` });
      expect([400, 404, 414], `${id.slice(0, 10)} → ${res.statusCode}`).toContain(res.statusCode);
      expect(res.json()).toHaveProperty('message');
    }
    const unknown = await app.inject({ method: 'GET', url: '/api/packages/nope' });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: 'Package not found' }]);
  });
});

describe('GET /api/subjects/with-tutors', () => {
  it('lists active subjects a listed tutor teaches; a tutor still onboarding lists nothing', async () => {
    const subjects = await eventually(
      async () => subjectWithTutorsSchema.array().parse((await app.inject({ method: 'GET', url: '/api/subjects/with-tutors' })).json()),
      (list) => list.length > 0,
    );
    const names = subjects.map((s) => s.name);
    expect(names).toContain('Chemistry (University/College)');
    expect(names).not.toContain('Physics (University/College)');
    expect(names).not.toContain('English (University/College)');
  });
});
