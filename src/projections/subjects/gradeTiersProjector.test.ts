import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { gradeTiersProjector } from './gradeTiersProjector.ts';
import { listGradeTiers } from './queries.ts';
import { gradeTiers } from './tables.ts';

const defined = (tierId: 'grade_10_under' | 'grade_11_12' | 'university', name: string, basePriceCents: number) =>
  event(`gradeTier-${tierId}`, 'GradeTierDefined', { tierId, name, description: null, basePriceCents, at: '2025-06-01T00:00:00.000Z' });

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('grade tiers, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('tiers');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [gradeTiersProjector], { batchSize });
  });
  afterAll(() => db.drop());

  it('a defined tier becomes a row priced in cents', async () => {
    await spec.given(defined('university', 'University', 9000));
    expect(await spec.rows(gradeTiers)).toEqual([
      { id: 'university', name: 'University', description: null, base_price_cents: 9000, is_active: true },
    ]);
  });

  it('lists the tiers cheapest first, with the base price in dollars', async () => {
    await spec.given(defined('grade_11_12', 'Grade 11-12', 7500), defined('grade_10_under', 'Grade 10 & Under', 6050));
    expect(await listGradeTiers(db.sql)).toEqual([
      { id: 'grade_10_under', name: 'Grade 10 & Under', basePrice: 60.5 },
      { id: 'grade_11_12', name: 'Grade 11-12', basePrice: 75 },
      { id: 'university', name: 'University', basePrice: 90 },
    ]);
  });

  it('a rebuild from the log yields exactly the live rows', async () => {
    const live = await spec.snapshot();
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
    expect(spec.failures()).toEqual([]);
  });
});
