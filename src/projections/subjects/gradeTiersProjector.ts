import { defineProjection } from '../kit/defineProjection.ts';
import { insertRows } from '../kit/writes.ts';
import { type GradeTierRow, gradeTiers } from './tables.ts';

/** The grade tiers and their base prices. */
export const gradeTiersProjector = defineProjection({
  name: 'gradetiers',
  handles: ['GradeTierDefined'],
  tables: [gradeTiers],
  async apply(tx, events) {
    // One row per tier, the last definition in the batch winning.
    const rows = new Map<string, GradeTierRow>();
    for (const { data } of events) {
      rows.set(data.tierId, {
        id: data.tierId,
        name: data.name,
        description: data.description,
        base_price_cents: data.basePriceCents,
        is_active: true,
      });
    }
    await insertRows(tx, gradeTiers, [...rows.values()], 'update');
  },
});
