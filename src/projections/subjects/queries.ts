import type { Sql } from '../../adapters/db/db.ts';
import type { GradeLevel } from '../../domain/subjects/gradeLevels.ts';
import type { ReadRowOf } from '../kit/table.ts';
import type { gradeTiers, subjects } from './tables.ts';

type SubjectRead = ReadRowOf<typeof subjects>;

/** A subject as the API shows it. */
export interface SubjectView {
  id: string;
  name: string;
  description: string | null;
  category: string | null;
  gradeLevel: GradeLevel;
  isActive: boolean;
}

const view = (r: Pick<SubjectRead, 'id' | 'name' | 'description' | 'category' | 'grade_level' | 'is_active'>): SubjectView => ({
  id: r.id,
  name: r.name,
  description: r.description,
  category: r.category,
  gradeLevel: r.grade_level,
  isActive: r.is_active,
});

/** The catalogue by category (uncategorised last), lower levels first, then by name; deactivated subjects only when asked. */
export async function listSubjects(sql: Sql, options: { includeInactive?: boolean } = {}): Promise<SubjectView[]> {
  const rows = await sql<SubjectRead[]>`
    SELECT id, name, description, category, grade_level, is_active FROM subjects
    WHERE is_active OR ${options.includeInactive ?? false}
    ORDER BY category NULLS LAST, array_position(ARRAY['grade_10_under', 'grade_11_12', 'university'], grade_level), name, id`;
  return rows.map(view);
}

/** One subject, deactivated or not (courses bought before keep naming it); null when unknown. */
export async function findSubject(sql: Sql, subjectId: string): Promise<SubjectView | null> {
  const [row] = await sql<SubjectRead[]>`
    SELECT id, name, description, category, grade_level, is_active FROM subjects WHERE id = ${subjectId}`;
  return row ? view(row) : null;
}

/** A grade tier as the API shows it: the base price per session in dollars. */
export interface GradeTierView {
  id: GradeLevel;
  name: string;
  basePrice: number;
}

/** The active grade tiers, cheapest first. */
export async function listGradeTiers(sql: Sql): Promise<GradeTierView[]> {
  const rows = await sql<Pick<ReadRowOf<typeof gradeTiers>, 'id' | 'name' | 'base_price_cents'>[]>`
    SELECT id, name, base_price_cents FROM gradetiers WHERE is_active ORDER BY base_price_cents, id`;
  return rows.map((r) => ({ id: r.id, name: r.name, basePrice: r.base_price_cents / 100 }));
}
