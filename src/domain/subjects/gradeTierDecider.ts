import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import type { GradeLevel } from './gradeLevels.ts';
import { evolveGradeTier, type GradeTierEvent, type GradeTierState, type GradeTierTerms, initialGradeTierState } from './gradeTier.ts';

export type GradeTierCommand = Command<'DefineGradeTier', GradeTierTerms & { tierId: GradeLevel }>;

export const decideGradeTier = decideWith<GradeTierCommand, GradeTierEvent, GradeTierState>({
  DefineGradeTier({ data, metadata: { now } }, state) {
    const { tierId, basePriceCents } = data;
    const name = data.name.trim();
    const description = data.description?.trim() || null;
    if (!Number.isSafeInteger(basePriceCents) || basePriceCents <= 0) {
      throw new DomainError('The base price must be a positive whole number of cents', 'invalid');
    }
    if (name === '') throw new DomainError('Name is required', 'invalid');
    const defined = state.defined;
    if (defined) {
      // Defining it again as it is changes nothing; different terms are a change this command does not make.
      if (defined.name === name && defined.description === description && defined.basePriceCents === basePriceCents) return [];
      throw new DomainError('This grade tier is already defined with other terms', 'conflict');
    }
    return [{ type: 'GradeTierDefined', data: { tierId, name, description, basePriceCents, at: now.toISOString() } }];
  },
});

export const gradeTierDecider: Decider<GradeTierCommand, GradeTierEvent, GradeTierState> = {
  initialState: initialGradeTierState,
  evolve: evolveGradeTier,
  decide: decideGradeTier,
};
