import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { devSubjectOf } from '../../adapters/identity/devIdentity.ts';
import { waitForProjections } from '../../projections/runner/projectionRunner.ts';
import { listSubjects } from '../../projections/subjects/queries.ts';
import { demoTutorAccounts } from '../accounts/seedDemo.ts';
import { seedSubjectCatalog } from '../subjects/seedCatalog.ts';
import { demoTutors, seedDemoTutors } from './seedDemoTutors.ts';
import { tutorHandlers } from './tutorHandlers.ts';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem('all');
  await seedSubjectCatalog(system);
  await waitForProjections(system.sql, ['subjects'], await system.store.committedPosition(), 30_000);
});
afterAll(async () => system.dispose());

const eventCount = async () => Number((await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events`)[0]?.n);

describe('seeding the demo tutors', () => {
  it('creates onboarded tutors with subjects (implied levels included) and weekly hours, once', async () => {
    const catalog = await listSubjects(system.sql);
    const credentials = await seedDemoTutors(
      { store: system.store, accounts: demoTutorAccounts(system.accounts), clock: system.clock },
      catalog,
      {
        calendarConnected: true,
        googleIdOf: devSubjectOf,
      },
    );
    expect(credentials.map((c) => c.username)).toEqual(demoTutors.map((t) => t.username));

    await waitForProjections(system.sql, ['users'], await system.store.committedPosition(), 30_000);
    const seeded = await system.sql<{ id: string; username: string; role: string; timezone: string; terms: string | null }[]>`
      SELECT id, username, role, timezone, terms_accepted_version AS terms FROM users WHERE username LIKE 'demo.tutor.%' ORDER BY username`;
    // Terms accepted as at a tutor's sign-in: a demo tutor is not shown the Student/Parent Agreement.
    expect(seeded.map((u) => [u.username, u.role, u.timezone, u.terms])).toEqual([
      ['demo.tutor.daniel', 'tutor', 'America/Vancouver', '1.0'],
      ['demo.tutor.maya', 'tutor', 'America/Toronto', '1.0'],
    ]);

    const maya = await tutorHandlers(system.store).tutors.load(seeded[1]?.id ?? '');
    const nameOf = new Map(catalog.map((s) => [s.id, s.name]));
    const taught = maya.qualifications.map((q) => nameOf.get(q.subjectId));
    // Calculus (University/College) brings its lower-level equivalents (spec part 2 §4).
    for (const name of [
      'Calculus (University/College)',
      'Calculus (Grade 11-12)',
      'Advanced Functions',
      'Functions',
      'Math (Grade 10 & Under)',
    ])
      expect(taught).toContain(name);
    expect(maya.weeklyHours).toHaveLength(6);
    expect(maya.timeZone).toBe('America/Toronto');
    expect(maya.onboardingCompleted).toBe(true);
    expect(maya.bio).toMatch(/calculus/);

    const before = await eventCount();
    await seedDemoTutors({ store: system.store, accounts: demoTutorAccounts(system.accounts), clock: system.clock }, catalog, {
      calendarConnected: true,
      googleIdOf: devSubjectOf,
    });
    expect(await eventCount()).toBe(before);
  });
});
