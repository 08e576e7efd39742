import { defineProjection } from '../kit/defineProjection.ts';
import { insertRows } from '../kit/writes.ts';
import { type PackageRow, packages } from './tables.ts';

/** The session packages and their prices. */
export const packagesProjector = defineProjection({
  name: 'packages',
  handles: ['PackageDefined'],
  tables: [packages],
  async apply(tx, events) {
    const rows = new Map<string, PackageRow>();
    for (const { data } of events) {
      rows.set(data.packageId, {
        id: data.packageId,
        grade_tier_id: data.gradeTierId,
        grade_tier_name: data.gradeTierName,
        package_type_id: data.packageTypeId,
        name: data.name,
        session_count: data.sessionCount,
        multiplier_hundredths: data.multiplierHundredths,
        recommended: data.recommended,
        total_price_cents: data.totalPriceCents,
        validity_days: 30,
        is_active: true,
        created_at: data.at,
      });
    }
    await insertRows(tx, packages, [...rows.values()], 'update');
  },
});
