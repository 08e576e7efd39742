import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { catalogGradeTiers } from '../subjects/catalog.ts';
import { packageDecider, packageTermsOf } from './packageDecider.ts';

const now = new Date('2026-11-23T12:00:00.000Z');
const system = { now, actorId: null, actorRole: 'system' };
const define = (packageTypeId: 'weekly_1' | 'weekly_2' | 'weekly_3', basePriceCents = 7500) => ({
  type: 'DefinePackage' as const,
  data: { packageId: 'p1', gradeTierId: 'grade_11_12' as const, gradeTierName: 'Grade 11-12', basePriceCents, packageTypeId },
  metadata: system,
});

describe('package decider', () => {
  const spec = deciderSpec(packageDecider);
  it('prices a package by the policy: base × sessions × multiplier, whole dollars', () => {
    const totals = catalogGradeTiers.flatMap((t) =>
      (['weekly_1', 'weekly_2', 'weekly_3'] as const).map(
        (f) =>
          packageTermsOf({
            packageId: 'x',
            gradeTierId: t.tierId,
            gradeTierName: t.name,
            basePriceCents: t.basePriceCents,
            packageTypeId: f,
          }).totalPriceCents / 100,
      ),
    );
    expect(totals).toEqual([240, 456, 648, 300, 570, 810, 360, 684, 972]);
    expect(packageTermsOf(define('weekly_2').data)).toMatchObject({
      name: 'Grade 11-12 - 8 Sessions (2x/week)',
      sessionCount: 8,
      multiplierHundredths: 95,
      recommended: true,
    });
  });

  it('defines once; the same terms again record nothing; other terms are refused', () => {
    const terms = packageTermsOf(define('weekly_1').data);
    spec
      .given([])
      .when(define('weekly_1'))
      .thenEvents([{ type: 'PackageDefined', data: { ...terms, at: now.toISOString() } }]);
    spec
      .given([{ type: 'PackageDefined', data: { ...terms, at: now.toISOString() } }])
      .when(define('weekly_1'))
      .thenNothing();
    spec
      .given([{ type: 'PackageDefined', data: { ...terms, at: now.toISOString() } }])
      .when(define('weekly_1', 8000))
      .thenThrows('This package is already defined with other terms', 'conflict');
  });
});
