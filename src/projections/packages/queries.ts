import type { Sql } from '../../adapters/db/db.ts';
import type { GradeLevel } from '../../domain/subjects/gradeLevels.ts';
import type { ReadRowOf } from '../kit/table.ts';
import type { packages } from './tables.ts';

type PackageRead = Pick<
  ReadRowOf<typeof packages>,
  'id' | 'name' | 'session_count' | 'total_price_cents' | 'grade_tier_id' | 'grade_tier_name'
>;

/** A package as the API shows it: the total in dollars. `totalPriceCents` stays for the server's own arithmetic. */
export interface PackageView {
  id: string;
  name: string;
  sessionCount: number;
  totalPrice: number;
  totalPriceCents: number;
  gradeTier: { id: GradeLevel; name: string };
}

const view = (r: PackageRead): PackageView => ({
  id: r.id,
  name: r.name,
  sessionCount: r.session_count,
  totalPrice: r.total_price_cents / 100,
  totalPriceCents: r.total_price_cents,
  gradeTier: { id: r.grade_tier_id, name: r.grade_tier_name },
});

/** The active packages: lower tiers first, then fewer sessions. */
export async function listPackages(sql: Sql): Promise<PackageView[]> {
  const rows = await sql<PackageRead[]>`
    SELECT id, name, session_count, total_price_cents, grade_tier_id, grade_tier_name FROM packages
    WHERE is_active
    ORDER BY array_position(ARRAY['grade_10_under', 'grade_11_12', 'university'], grade_tier_id), session_count, id`;
  return rows.map(view);
}

/** One active package, or null. */
export async function findPackage(sql: Sql, packageId: string): Promise<PackageView | null> {
  const [row] = await sql<PackageRead[]>`
    SELECT id, name, session_count, total_price_cents, grade_tier_id, grade_tier_name FROM packages
    WHERE id = ${packageId} AND is_active`;
  return row ? view(row) : null;
}
