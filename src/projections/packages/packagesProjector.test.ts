import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { packageTermsOf } from '../../domain/packages/packageDecider.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { packagesProjector } from './packagesProjector.ts';
import { findPackage, listPackages } from './queries.ts';

const at = '2026-11-23T12:00:00.000Z';
const defined = (packageId: string, gradeTierId: 'grade_10_under' | 'university', packageTypeId: 'weekly_1' | 'weekly_3') =>
  event(`package-${packageId}`, 'PackageDefined', {
    ...packageTermsOf({
      packageId,
      gradeTierId,
      gradeTierName: gradeTierId === 'university' ? 'University' : 'Grade 10 & Under',
      basePriceCents: gradeTierId === 'university' ? 9000 : 6000,
      packageTypeId,
    }),
    at,
  });

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('packages, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('pkgs');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [packagesProjector], { batchSize });
  });
  afterAll(() => db.drop());

  it('lists packages lower tiers first, the total in dollars', async () => {
    await spec.given(defined('u3', 'university', 'weekly_3'), defined('g1', 'grade_10_under', 'weekly_1'));
    expect((await listPackages(db.sql)).map((p) => [p.id, p.name, p.sessionCount, p.totalPrice, p.gradeTier])).toEqual([
      ['g1', 'Grade 10 & Under - 4 Sessions (1x/week)', 4, 240, { id: 'grade_10_under', name: 'Grade 10 & Under' }],
      ['u3', 'University - 12 Sessions (3x/week)', 12, 972, { id: 'university', name: 'University' }],
    ]);
    expect(await findPackage(db.sql, 'u3')).toMatchObject({ totalPriceCents: 97_200 });
    expect(await findPackage(db.sql, 'nope')).toBeNull();
  });

  it('a rebuild from the log yields exactly the live rows', async () => {
    const live = await spec.snapshot();
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
    expect(spec.failures()).toEqual([]);
  });
});
