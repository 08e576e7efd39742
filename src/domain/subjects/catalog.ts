import { type GradeLevel, gradeLevelLabels } from './gradeLevelNames.ts';
import type { GradeTierTerms } from './gradeTier.ts';
import { levelOfSubjectName } from './qualifications.ts';
import type { SubjectEntry } from './subject.ts';

/**
 * The catalogue a fresh install starts with: the subjects of spec part 1 §1 at each of its three
 * levels, by category, with every course the qualification mapping (spec part 2 §4) names. Each
 * name carries its level, so the level the qualification policy derives from a name is the
 * subject's own. Seeded through commands at every start (`src/commands/subjects/seedCatalog.ts`).
 */

const levelled = (area: string) => [`${area} (Grade 10 & Under)`, `${area} (Grade 11-12)`, `${area} (University/College)`];

const byCategory: Record<string, readonly [name: string, description: string][]> = {
  Mathematics: [
    ['Math (Grade 10 & Under)', 'Number sense, algebra, linear relations, geometry and measurement up to Grade 10.'],
    ['Functions', 'Functions and their transformations, exponential functions, trigonometry and financial applications.'],
    ['Advanced Functions', 'Polynomial, rational, logarithmic and trigonometric functions and rates of change.'],
    ['Calculus (Grade 11-12)', 'Limits, derivatives and their applications, with vectors, lines and planes.'],
    ['Data Management (Grade 11-12)', 'Counting, probability, probability distributions and statistical analysis of data.'],
    ['Calculus (University/College)', 'Differential and integral calculus, series and multivariable calculus.'],
    ['Linear Algebra (University/College)', 'Vectors, matrices, linear systems, vector spaces, eigenvalues and linear maps.'],
    ['Discrete Math (University/College)', 'Logic, proofs, sets, combinatorics, recurrences and graph theory.'],
    ['Statistics (University/College)', 'Probability, distributions, estimation, hypothesis testing and regression.'],
  ],
  Science: [
    ...levelled('Biology').map((name): [string, string] => [name, 'Cells, genetics, evolution, living systems and ecology.']),
    ...levelled('Chemistry').map((name): [string, string] => [
      name,
      'Matter, bonding, reactions, stoichiometry, equilibrium and organic chemistry.',
    ]),
    ...levelled('Physics').map((name): [string, string] => [name, 'Motion, forces, energy, waves, electricity and magnetism, and fields.']),
  ],
  English: levelled('English').map((name): [string, string] => [name, 'Reading, writing, literary analysis, grammar and essays.']),
  'Computer Science': levelled('Computer Science').map((name): [string, string] => [
    name,
    'Programming, problem solving, data structures and algorithms.',
  ]),
  Business: [
    ...levelled('Accounting').map((name): [string, string] => [name, 'The accounting cycle, financial statements and their analysis.']),
    ...levelled('Economics').map((name): [string, string] => [name, 'Markets, supply and demand, firms, and macroeconomic policy.']),
    ...levelled('Finance').map((name): [string, string] => [
      name,
      'Time value of money, valuation, risk and return, and corporate finance.',
    ]),
  ],
};

export const catalogSubjects: readonly SubjectEntry[] = Object.entries(byCategory).flatMap(([category, entries]) =>
  entries.map(([name, description]) => ({ name, description, category, gradeLevel: levelOfSubjectName(name) })),
);

/** Spec part 1 §9: Grade 10 & Under $60, Grade 11-12 $75, University $90 per session. */
export const catalogGradeTiers: readonly (GradeTierTerms & { tierId: GradeLevel })[] = (
  [
    ['grade_10_under', 6000],
    ['grade_11_12', 7500],
    ['university', 9000],
  ] as const
).map(([tierId, basePriceCents]) => ({
  tierId,
  name: gradeLevelLabels[tierId],
  description: `Per-session base price at ${gradeLevelLabels[tierId]}`,
  basePriceCents,
}));
