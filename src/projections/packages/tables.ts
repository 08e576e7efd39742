import type { GradeLevel } from '../../domain/subjects/gradeLevels.ts';
import { boolean, int, type RowOf, table, text, timestamptz } from '../kit/table.ts';

/** The session packages (spec part 1 §3 "packages" with its "package_types" facts), the total in cents (CAD). */
export const packages = table('packages', {
  id: text().primaryKey(),
  grade_tier_id: text<GradeLevel>(),
  grade_tier_name: text(),
  package_type_id: text(),
  name: text(),
  session_count: int(),
  multiplier_hundredths: int(),
  recommended: boolean().default(false),
  total_price_cents: int(),
  validity_days: int().default(30),
  is_active: boolean().default(true),
  created_at: timestamptz(),
});
export type PackageRow = RowOf<typeof packages>;
