import type { TransactionSql } from '../../adapters/db/db.ts';
import type { RecordedEvent } from '../../adapters/eventstore/eventStore.ts';

/**
 * Set-based projection of entity rows: load the current rows of every entity the batch touches
 * (one query), fold the batch's events over them in memory, in order, then write all changed
 * rows in one upsert and remove the deleted ones in one delete.
 */
export async function foldRows<Row extends { id: string }>(
  tx: TransactionSql,
  events: RecordedEvent[],
  spec: {
    table: string;
    columns: readonly (keyof Row & string)[];
    /** Which row an event touches (null: none). */
    keyOf: (event: RecordedEvent) => string | null;
    /** The next row, or null to delete it; `row` is null when it does not exist yet. */
    apply: (row: Row | null, event: RecordedEvent) => Row | null;
    /** jsonb_to_recordset column types, in `columns` order. */
    types: readonly string[];
  },
): Promise<void> {
  const ids = [...new Set(events.map(spec.keyOf).filter((k): k is string => k !== null))];
  if (ids.length === 0) return;
  const existing = await tx.unsafe<Row[]>(
    `SELECT ${spec.columns.map((c) => `"${c}"`).join(', ')} FROM ${spec.table} WHERE id = ANY($1::text[])`,
    [ids],
  );
  const rows = new Map<string, Row | null>(existing.map((r) => [r.id, r]));
  const touched = new Set<string>();
  for (const event of events) {
    const id = spec.keyOf(event);
    if (id === null) continue;
    rows.set(id, spec.apply(rows.get(id) ?? null, event));
    touched.add(id);
  }
  const upserts = [...touched].map((id) => rows.get(id)).filter((r): r is Row => r != null);
  const deletes = [...touched].filter((id) => rows.get(id) == null);
  if (upserts.length > 0) {
    const cols = spec.columns.map((c) => `"${c}"`).join(', ');
    const defs = spec.columns.map((c, i) => `"${c}" ${spec.types[i]}`).join(', ');
    const updates = spec.columns
      .filter((c) => c !== 'id')
      .map((c) => `"${c}" = EXCLUDED."${c}"`)
      .join(', ');
    await tx.unsafe(
      `INSERT INTO ${spec.table} (${cols}) SELECT ${cols} FROM jsonb_to_recordset($1::text::jsonb) AS x(${defs})
       ON CONFLICT (id) DO UPDATE SET ${updates}`,
      [JSON.stringify(upserts)],
    );
  }
  if (deletes.length > 0) await tx.unsafe(`DELETE FROM ${spec.table} WHERE id = ANY($1::text[])`, [deletes]);
}
