import { describe, expect, it } from 'vitest';
import { catalogGradeTiers, catalogSubjects } from './catalog.ts';
import { gradeLevelRank, gradeLevels, normalizeSubjectName } from './gradeLevels.ts';
import {
  impliedSubjectNames,
  levelOfSubjectName,
  type Qualification,
  qualificationMapping,
  qualificationPolicy,
} from './qualifications.ts';

// Ids unlike names, so the policy's look-up is exercised.
const idOf = (name: string) => `id:${normalizeSubjectName(name)}`;
const policy = qualificationPolicy(catalogSubjects.map((s) => ({ id: idOf(s.name), name: s.name })));
const q = (name: string, maxGradeLevel = levelOfSubjectName(name)): Qualification => ({ subjectId: idOf(name), maxGradeLevel });
const names = (list: readonly Qualification[]) =>
  list.map((x) => catalogSubjects.find((s) => idOf(s.name) === x.subjectId)?.name ?? x.subjectId);

const mappings = Object.entries(qualificationMapping);

describe('level derivation from a subject name (spec part 2 §4)', () => {
  it.each([
    ['Calculus (University/College)', 'university'],
    ['Intro to university physics', 'university'],
    ['Calculus (Grade 11-12)', 'grade_11_12'],
    ['English (Grade 11-12)', 'grade_11_12'],
    ['Advanced Functions', 'grade_11_12'],
    ['Functions', 'grade_10_under'],
    ['Math (Grade 10 & Under)', 'grade_10_under'],
    ['Piano', 'grade_10_under'],
  ])('%s → %s', (name, level) => {
    expect(levelOfSubjectName(name)).toBe(level);
  });

  it('"University" wins over "Grade 11-12" when a name has both', () => {
    expect(levelOfSubjectName('Bridging Grade 11-12 to University')).toBe('university');
  });
});

describe('the auto-selection mapping (spec part 2 §4)', () => {
  it('is the example of the spec for calculus', () => {
    const { qualifications, autoSelected } = policy.select([], idOf('Calculus (University/College)'));
    expect(names(qualifications)).toEqual([
      'Calculus (University/College)',
      'Calculus (Grade 11-12)',
      'Advanced Functions',
      'Functions',
      'Math (Grade 10 & Under)',
    ]);
    expect(qualifications.map((x) => x.maxGradeLevel)).toEqual([
      'university',
      'grade_11_12',
      'grade_11_12',
      'grade_10_under',
      'grade_10_under',
    ]);
    expect(autoSelected).toHaveLength(4);
  });

  it('covers every area the spec names: each university subject, and English from Grade 11-12', () => {
    const keys = mappings.map(([key]) => key);
    for (const area of [
      'Calculus',
      'Linear Algebra',
      'Discrete Math',
      'Statistics',
      'Biology',
      'Chemistry',
      'Physics',
      'Accounting',
      'Economics',
      'Finance',
      'Computer Science',
    ]) {
      expect(keys, area).toContain(`${area} (University/College)`);
    }
    expect(qualificationMapping['English (Grade 11-12)']).toEqual(['English (Grade 10 & Under)']);
    expect(keys.filter((k) => levelOfSubjectName(k) !== 'university')).toEqual(['English (Grade 11-12)']);
  });

  it.each(mappings)('%s selects itself and %j, each at the level its name implies', (key, implied) => {
    const { qualifications, autoSelected } = policy.select([], idOf(key));
    const expected = [key, ...impliedSubjectNames(key)];
    expect(names(qualifications)).toEqual(expected);
    for (const name of implied) expect(expected).toContain(name);
    expect(qualifications).toEqual(expected.map((name) => q(name)));
    expect(autoSelected).toEqual(expected.slice(1).map(idOf));
  });

  it.each(mappings)('what %s selects is of a lower level and in the catalogue', (key, implied) => {
    const catalogued = new Set(catalogSubjects.map((s) => normalizeSubjectName(s.name)));
    expect(catalogued.has(normalizeSubjectName(key)), key).toBe(true);
    for (const name of implied) {
      expect(catalogued.has(normalizeSubjectName(name)), name).toBe(true);
      expect(gradeLevelRank(levelOfSubjectName(name)), name).toBeLessThan(gradeLevelRank(levelOfSubjectName(key)));
    }
  });

  it('follows the mapping transitively: English at university selects Grade 11-12 and, through it, Grade 10 & Under', () => {
    expect(impliedSubjectNames('English (University/College)')).toEqual(['English (Grade 11-12)', 'English (Grade 10 & Under)']);
    expect(impliedSubjectNames('english  (grade 11-12)')).toEqual(['English (Grade 10 & Under)']);
    expect(impliedSubjectNames('Math (Grade 10 & Under)')).toEqual([]);
  });

  it('gives an implied subject a level only when it is not already set', () => {
    const current = [q('Functions', 'university'), q('Math (Grade 10 & Under)', 'grade_11_12')];
    const { qualifications, autoSelected } = policy.select(current, idOf('Calculus (University/College)'));
    expect(qualifications).toEqual([
      q('Functions', 'university'),
      q('Math (Grade 10 & Under)', 'grade_11_12'),
      q('Calculus (University/College)'),
      q('Calculus (Grade 11-12)'),
      q('Advanced Functions'),
    ]);
    expect(autoSelected).toEqual([idOf('Calculus (Grade 11-12)'), idOf('Advanced Functions')]);
  });

  it('selecting a subject already selected keeps its level and adds only what is missing', () => {
    const current = [q('Biology (University/College)', 'grade_11_12')];
    const { qualifications } = policy.select(current, idOf('Biology (University/College)'));
    expect(qualifications).toEqual([
      q('Biology (University/College)', 'grade_11_12'),
      q('Biology (Grade 11-12)'),
      q('Biology (Grade 10 & Under)'),
    ]);
    expect(policy.select(qualifications, idOf('Biology (University/College)')).autoSelected).toEqual([]);
  });

  it('a subject outside the mapping selects only itself; one outside the catalogue gets the default level', () => {
    expect(policy.select([], idOf('Math (Grade 10 & Under)'))).toEqual({
      qualifications: [q('Math (Grade 10 & Under)')],
      autoSelected: [],
    });
    expect(policy.select([], 'unknown')).toEqual({
      qualifications: [{ subjectId: 'unknown', maxGradeLevel: 'grade_10_under' }],
      autoSelected: [],
    });
  });

  it('skips implied subjects the catalogue lacks (deactivated ones are not listed)', () => {
    const partial = qualificationPolicy([
      { id: 'calc', name: 'Calculus (University/College)' },
      { id: 'math', name: 'Math (Grade 10 & Under)' },
    ]);
    expect(partial.select([], 'calc')).toEqual({
      qualifications: [
        { subjectId: 'calc', maxGradeLevel: 'university' },
        { subjectId: 'math', maxGradeLevel: 'grade_10_under' },
      ],
      autoSelected: ['math'],
    });
  });
});

describe('unchecking a subject', () => {
  it.each(mappings.flatMap(([key, implied]) => implied.map((name) => [name, key] as const)))(
    'unchecking %s removes %s, which depended on it',
    (name, key) => {
      const { qualifications } = policy.select([], idOf(key));
      const after = policy.unselect(qualifications, idOf(name));
      expect(names(after)).not.toContain(name);
      expect(names(after)).not.toContain(key);
      // What does not imply the unchecked subject stays.
      const stays = names(qualifications).filter((n) => n !== name && !impliedSubjectNames(n).includes(name));
      expect(names(after)).toEqual(stays);
    },
  );

  it.each(mappings)('unchecking %s itself leaves what it selected', (key) => {
    const { qualifications } = policy.select([], idOf(key));
    expect(names(policy.unselect(qualifications, idOf(key)))).toEqual(impliedSubjectNames(key));
  });

  it('removes every higher-level subject depending on it, and nothing else', () => {
    let current = policy.select([], idOf('Calculus (University/College)')).qualifications;
    current = policy.select(current, idOf('Linear Algebra (University/College)')).qualifications;
    current = policy.select(current, idOf('Statistics (University/College)')).qualifications;
    current = policy.select(current, idOf('Chemistry (Grade 10 & Under)')).qualifications;
    expect(names(policy.unselect(current, idOf('Functions')))).toEqual([
      'Calculus (Grade 11-12)',
      'Advanced Functions',
      'Math (Grade 10 & Under)',
      'Statistics (University/College)',
      'Data Management (Grade 11-12)',
      'Chemistry (Grade 10 & Under)',
    ]);
    expect(names(policy.unselect(current, idOf('Math (Grade 10 & Under)')))).toEqual([
      'Calculus (Grade 11-12)',
      'Advanced Functions',
      'Functions',
      'Data Management (Grade 11-12)',
      'Chemistry (Grade 10 & Under)',
    ]);
  });

  it('English: Grade 10 & Under takes Grade 11-12 and University with it; Grade 11-12 takes University', () => {
    const current = policy.select([], idOf('English (University/College)')).qualifications;
    expect(names(policy.unselect(current, idOf('English (Grade 10 & Under)')))).toEqual([]);
    expect(names(policy.unselect(current, idOf('English (Grade 11-12)')))).toEqual(['English (Grade 10 & Under)']);
  });

  it('unchecking what is not selected changes nothing', () => {
    const current = [q('Physics (Grade 11-12)')];
    expect(policy.unselect(current, idOf('Physics (Grade 10 & Under)'))).toEqual(current);
  });
});

describe('expanding saved qualifications (the server side)', () => {
  it('adds every implied subject not already saved, keeping saved levels, each subject once', () => {
    const saved = [
      q('Physics (University/College)'),
      q('Physics (Grade 10 & Under)', 'grade_11_12'),
      q('Physics (University/College)', 'grade_10_under'),
    ];
    expect(policy.expand(saved)).toEqual([
      q('Physics (University/College)'),
      q('Physics (Grade 10 & Under)', 'grade_11_12'),
      q('Physics (Grade 11-12)'),
    ]);
  });

  it('is a fixed point: expanding twice is expanding once, and a selection is already expanded', () => {
    for (const [key] of mappings) {
      const { qualifications } = policy.select([], idOf(key));
      expect(policy.expand(qualifications)).toEqual(qualifications);
    }
    const saved = [q('Calculus (University/College)'), q('English (Grade 11-12)')];
    expect(policy.expand(policy.expand(saved))).toEqual(policy.expand(saved));
  });

  it('keeps subjects outside the catalogue as saved', () => {
    expect(policy.expand([{ subjectId: 'gone', maxGradeLevel: 'university' }])).toEqual([
      { subjectId: 'gone', maxGradeLevel: 'university' },
    ]);
  });

  it('works on names alone, each name its own id', () => {
    const byName = qualificationPolicy(catalogSubjects.map((s) => ({ id: s.name, name: s.name })));
    expect(byName.select([], 'English (Grade 11-12)')).toEqual({
      qualifications: [
        { subjectId: 'English (Grade 11-12)', maxGradeLevel: 'grade_11_12' },
        { subjectId: 'English (Grade 10 & Under)', maxGradeLevel: 'grade_10_under' },
      ],
      autoSelected: ['English (Grade 10 & Under)'],
    });
    expect(byName.impliedBy('Statistics (University/College)')).toEqual(['Data Management (Grade 11-12)', 'Math (Grade 10 & Under)']);
    expect(byName.levelOf('Advanced Functions')).toBe('grade_11_12');
  });
});

describe('the seeded catalogue', () => {
  it('offers the subjects of spec part 1 §1 at each of the three levels', () => {
    for (const area of ['Physics', 'Chemistry', 'Biology', 'English', 'Computer Science', 'Accounting', 'Finance', 'Economics']) {
      for (const level of gradeLevels) {
        expect(
          catalogSubjects.some((s) => s.name.startsWith(`${area} (`) && s.gradeLevel === level),
          `${area} at ${level}`,
        ).toBe(true);
      }
    }
    for (const level of gradeLevels) {
      expect(
        catalogSubjects.some((s) => s.category === 'Mathematics' && s.gradeLevel === level),
        `Mathematics at ${level}`,
      ).toBe(true);
    }
  });

  it('names each subject once per level, at the level its name implies, with a category and a description', () => {
    const keys = catalogSubjects.map((s) => `${s.gradeLevel}:${normalizeSubjectName(s.name)}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const s of catalogSubjects) {
      expect(s.gradeLevel, s.name).toBe(levelOfSubjectName(s.name));
      expect(s.category, s.name).toBeTruthy();
      expect(s.description, s.name).toBeTruthy();
    }
  });

  it('prices the three grade tiers as spec part 1 §9 does, in cents', () => {
    expect(catalogGradeTiers.map((t) => [t.tierId, t.name, t.basePriceCents])).toEqual([
      ['grade_10_under', 'Grade 10 & Under', 6000],
      ['grade_11_12', 'Grade 11-12', 7500],
      ['university', 'University', 9000],
    ]);
  });
});
