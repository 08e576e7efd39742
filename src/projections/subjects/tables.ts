import type { GradeLevel } from '../../domain/subjects/gradeLevels.ts';
import { boolean, int, type RowOf, table, text, timestamptz } from '../kit/table.ts';

/** The subject catalogue (spec part 1 §3 "subjects"); deactivated subjects stay, with is_active false. */
export const subjects = table('subjects', {
  id: text().primaryKey(),
  name: text(),
  description: text().nullable(),
  category: text().nullable(),
  grade_level: text<GradeLevel>(),
  is_active: boolean().default(true),
  created_at: timestamptz(),
  updated_at: timestamptz(),
});
export type SubjectRow = RowOf<typeof subjects>;

/** The per-session base price of each level (spec part 1 §3 "gradetiers"), in cents. */
export const gradeTiers = table('gradetiers', {
  id: text<GradeLevel>().primaryKey(),
  name: text(),
  description: text().nullable(),
  base_price_cents: int(),
  is_active: boolean().default(true),
});
export type GradeTierRow = RowOf<typeof gradeTiers>;
