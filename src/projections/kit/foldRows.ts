import type { TransactionSql } from '../../adapters/db/db.ts';
import type { AnyTable, RowOf } from './table.ts';
import { quoted } from './table.ts';
import { deleteWhereIn, insertRows } from './writes.ts';

/**
 * Set-based projection of entity rows: load the rows of every entity the batch touches (one
 * query), fold the batch's events over them in memory, in order, then remove the stored rows
 * the batch changed or deleted (one delete) and write the changed ones (one insert).
 *
 * Deleting before inserting, rather than upserting, keeps unique indexes on values that move
 * between rows within one batch (a username one student gives up and another takes) from
 * failing on an intermediate state: only the batch's final rows meet the index.
 */
export async function foldRows<T extends AnyTable, E>(
  tx: TransactionSql,
  table: T,
  events: readonly E[],
  fold: {
    /** The primary key of the row an event touches (null: none). */
    keyOf: (event: E) => string | null;
    /** The next row, or null to delete it; `row` is null when it does not exist (yet). */
    apply: (row: RowOf<T> | null, event: E) => RowOf<T> | null;
  },
): Promise<void> {
  const keys = [...new Set(events.map(fold.keyOf).filter((k): k is string => k !== null))];
  if (keys.length === 0) return;
  const key = table.primaryKey;
  const loaded = await tx.unsafe<Record<string, unknown>[]>(
    `SELECT ${table.columnNames.map(quoted).join(', ')} FROM ${table.name} WHERE ${quoted(key)} = ANY($1::${table.sqlTypeOf(key)}[])`,
    [keys],
  );
  // Rows as projectors write them: timestamps back to the ISO strings events carry.
  const timestamps = table.columnNames.filter((c) => table.sqlTypeOf(c) === 'timestamptz');
  for (const row of loaded) for (const c of timestamps) if (row[c] instanceof Date) row[c] = row[c].toISOString();
  const rows = new Map<string, RowOf<T> | null>(loaded.map((r) => [String(r[key]), r as RowOf<T>]));
  const stored = new Map(rows);
  const touched = new Set<string>();
  for (const event of events) {
    const id = fold.keyOf(event);
    if (id === null) continue;
    rows.set(id, fold.apply(rows.get(id) ?? null, event));
    touched.add(id);
  }
  // A row the batch left as it was loaded is not written again.
  const changed = [...touched].filter((id) => rows.get(id) !== stored.get(id));
  await deleteWhereIn(
    tx,
    table,
    key,
    changed.filter((id) => stored.has(id)),
  );
  const written = changed.flatMap((id): RowOf<T>[] => {
    const row = rows.get(id);
    return row ? [row] : [];
  });
  await insertRows(tx, table, written, 'update');
}
