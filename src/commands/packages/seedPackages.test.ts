import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { packageStreamId } from '../../domain/packages/package.ts';
import { listPackages } from '../../projections/packages/queries.ts';
import { waitForProjections } from '../../projections/runner/projectionRunner.ts';
import { seedSubjectCatalog } from '../subjects/seedCatalog.ts';
import { packageIdOf, seedPackages } from './seedPackages.ts';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem('all');
});
afterAll(() => system.dispose());

describe('seeding packages', () => {
  it('skips tiers not defined yet, then defines 1x/2x/3x per week for every tier, once', async () => {
    const warnings: string[] = [];
    await seedPackages(system, (m) => warnings.push(m));
    expect(warnings).toHaveLength(3);
    await seedSubjectCatalog(system);
    await Promise.all([seedPackages(system), seedPackages(system)]);
    await seedPackages(system);
    const events = await system.store.readStream(packageStreamId(packageIdOf('grade_11_12', 'weekly_2')));
    expect(events).toHaveLength(1);
    expect(await waitForProjections(system.sql, ['packages'], await system.store.committedPosition(), 30_000)).toBe(true);
    // A fresh system's projector may still be starting (no checkpoint yet): wait for the rows too.
    let listed = await listPackages(system.sql);
    for (let i = 0; i < 300 && listed.length < 9; i++) {
      await new Promise((r) => setTimeout(r, 100));
      listed = await listPackages(system.sql);
    }
    expect(listed.map((p) => [p.gradeTier.id, p.sessionCount, p.totalPrice])).toEqual([
      ['grade_10_under', 4, 240],
      ['grade_10_under', 8, 456],
      ['grade_10_under', 12, 648],
      ['grade_11_12', 4, 300],
      ['grade_11_12', 8, 570],
      ['grade_11_12', 12, 810],
      ['university', 4, 360],
      ['university', 8, 684],
      ['university', 12, 972],
    ]);
  });
});
