import { describe, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { gradeTierDecider } from './gradeTierDecider.ts';

const now = new Date('2026-11-20T12:00:00.000Z');
const at = now.toISOString();
const metadata = { now };
const spec = deciderSpec(gradeTierDecider);
const terms = { tierId: 'grade_11_12' as const, name: 'Grade 11-12', description: null, basePriceCents: 7500 };
const defined = { type: 'GradeTierDefined' as const, data: { ...terms, at } };

describe('grade tier decider', () => {
  it('defines a tier with its price in cents', () => {
    spec
      .given([])
      .when({ type: 'DefineGradeTier', data: { ...terms, name: ' Grade 11-12 ', description: '  ' }, metadata })
      .thenEvents([defined]);
  });

  it('defining it again as it is changes nothing; other terms are refused', () => {
    spec.given([defined]).when({ type: 'DefineGradeTier', data: terms, metadata }).thenNothing();
    spec
      .given([defined])
      .when({ type: 'DefineGradeTier', data: { ...terms, basePriceCents: 8000 }, metadata })
      .thenThrows('This grade tier is already defined with other terms', 'conflict');
  });

  it.each([0, -100, 75.5, Number.NaN])('refuses a base price of %s cents', (basePriceCents) => {
    spec
      .given([])
      .when({ type: 'DefineGradeTier', data: { ...terms, basePriceCents }, metadata })
      .thenThrows('The base price must be a positive whole number of cents', 'invalid');
  });

  it('refuses a blank name', () => {
    spec
      .given([])
      .when({ type: 'DefineGradeTier', data: { ...terms, name: ' ' }, metadata })
      .thenThrows('Name is required', 'invalid');
  });
});
