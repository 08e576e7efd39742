import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import type { GradeLevel } from '../../domain/subjects/gradeLevels.ts';
import { event, type ProjectionSpec, projectionSpec } from '../kit/projectionSpec.ts';
import { findSubject, listSubjects } from './queries.ts';
import { subjectsProjector } from './subjectsProjector.ts';
import { subjects } from './tables.ts';

let n = 0;
const subjectId = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const entry = (name: string, gradeLevel: GradeLevel, category: string | null = 'Science', description: string | null = null) => ({
  name,
  description,
  category,
  gradeLevel,
});
const added = (id: string, e: ReturnType<typeof entry>, at = '2025-06-01T00:00:00.000Z') =>
  event(`subject-${id}`, 'SubjectAdded', { subjectId: id, ...e, at });
const edited = (id: string, e: ReturnType<typeof entry>, at = '2025-06-02T00:00:00.000Z') =>
  event(`subject-${id}`, 'SubjectEdited', { subjectId: id, ...e, at });
const deactivated = (id: string, at = '2025-06-03T00:00:00.000Z') => event(`subject-${id}`, 'SubjectDeactivated', { subjectId: id, at });
const reactivated = (id: string, at = '2025-06-04T00:00:00.000Z') => event(`subject-${id}`, 'SubjectReactivated', { subjectId: id, at });

describe.each([{ batchSize: 1000 }, { batchSize: 1 }])('subjects, batches of $batchSize', ({ batchSize }) => {
  let db: TestDatabase;
  let spec: ProjectionSpec;
  beforeAll(async () => {
    db = await createTestDatabase('subjects');
    await migrate(db.sql);
    spec = await projectionSpec(db.sql, [subjectsProjector], { batchSize });
  });
  afterAll(() => db.drop());

  it('an added subject becomes an active row', async () => {
    const id = subjectId();
    await spec.given(added(id, entry('Physics (Grade 11-12)', 'grade_11_12', 'Science', 'Motion.')));
    expect(await spec.rows(subjects, { id })).toEqual([
      {
        id,
        name: 'Physics (Grade 11-12)',
        description: 'Motion.',
        category: 'Science',
        grade_level: 'grade_11_12',
        is_active: true,
        created_at: new Date('2025-06-01T00:00:00.000Z'),
        updated_at: new Date('2025-06-01T00:00:00.000Z'),
      },
    ]);
  });

  it('an edit replaces the entry; deactivation and reactivation flip is_active, in one batch or several', async () => {
    const [a, b] = [subjectId(), subjectId()];
    await spec.given(added(a, entry('Chem', 'grade_10_under')));
    await spec.given(
      edited(a, entry('Chemistry (University/College)', 'university', null, 'Organic.')),
      deactivated(a),
      added(b, entry('Biology (Grade 11-12)', 'grade_11_12')),
      deactivated(b),
      reactivated(b),
    );
    expect(await spec.rows(subjects, { id: a })).toMatchObject([
      {
        name: 'Chemistry (University/College)',
        description: 'Organic.',
        category: null,
        grade_level: 'university',
        is_active: false,
        created_at: new Date('2025-06-01T00:00:00.000Z'),
        updated_at: new Date('2025-06-03T00:00:00.000Z'),
      },
    ]);
    expect(await spec.rows(subjects, { id: b })).toMatchObject([{ is_active: true, updated_at: new Date('2025-06-04T00:00:00.000Z') }]);
  });

  it('an edit keeps a deactivated subject deactivated', async () => {
    const id = subjectId();
    await spec.given(added(id, entry('Physics (Grade 10 & Under)', 'grade_10_under')), deactivated(id));
    await spec.given(edited(id, entry('Physics (Grade 10 & Under)', 'grade_10_under', 'Science', 'Forces.')));
    expect(await spec.rows(subjects, { id })).toMatchObject([{ description: 'Forces.', is_active: false }]);
  });

  it('lists active subjects by category (uncategorised last), lower levels first, then by name; finds any by id', async () => {
    const listed = await listSubjects(db.sql);
    expect(listed.map((s) => [s.category, s.gradeLevel, s.name])).toEqual([
      ['Science', 'grade_11_12', 'Biology (Grade 11-12)'],
      ['Science', 'grade_11_12', 'Physics (Grade 11-12)'],
    ]);
    const all = await listSubjects(db.sql, { includeInactive: true });
    expect(all.map((s) => s.name)).toEqual([
      'Physics (Grade 10 & Under)',
      'Biology (Grade 11-12)',
      'Physics (Grade 11-12)',
      'Chemistry (University/College)',
    ]);
    const chemistry = all.find((s) => s.name.startsWith('Chemistry'));
    expect(await findSubject(db.sql, chemistry?.id ?? '')).toEqual({
      id: chemistry?.id,
      name: 'Chemistry (University/College)',
      description: 'Organic.',
      category: null,
      gradeLevel: 'university',
      isActive: false,
    });
    expect(await findSubject(db.sql, 'unknown')).toBeNull();
  });

  it('a rebuild from the log yields exactly the live rows', async () => {
    const live = await spec.snapshot();
    await spec.rebuild();
    expect(await spec.snapshot()).toEqual(live);
    expect(spec.failures()).toEqual([]);
  });
});
