import type { TransactionSql } from '../../adapters/db/db.ts';
import { type AnyTable, type ColumnOf, quoted, type RowOf } from './table.ts';

/**
 * Set-based writes of a batch: one statement per kind of change, whatever the number of rows.
 * Rows travel as one JSON parameter unpacked by `jsonb_to_recordset` with the table's types.
 */

const recordset = (table: AnyTable, columns: readonly string[]) =>
  `jsonb_to_recordset($1::text::jsonb) AS x(${table.recordDefinition(columns)})`;

/** Inserts whole rows; on a primary-key conflict keeps the stored row (`nothing`) or replaces it (`update`). */
export async function insertRows<T extends AnyTable>(
  tx: TransactionSql,
  table: T,
  rows: readonly RowOf<T>[],
  onConflict: 'nothing' | 'update',
): Promise<void> {
  if (rows.length === 0) return;
  const columns = table.columnNames;
  const list = columns.map(quoted).join(', ');
  const conflict =
    onConflict === 'nothing'
      ? 'DO NOTHING'
      : `DO UPDATE SET ${columns
          .filter((c) => c !== table.primaryKey)
          .map((c) => `${quoted(c)} = EXCLUDED.${quoted(c)}`)
          .join(', ')}`;
  await tx.unsafe(
    `INSERT INTO ${table.name} (${list}) SELECT ${list} FROM ${recordset(table, columns)}
     ON CONFLICT (${quoted(table.primaryKey)}) ${conflict}`,
    [JSON.stringify(rows)],
  );
}

/**
 * Sets `columns` of the rows named by their primary key; rows that do not exist are skipped.
 * Of several changes to one row, the last wins (an UPDATE … FROM would pick any of them).
 */
export async function updateRows<T extends AnyTable, C extends ColumnOf<T>>(
  tx: TransactionSql,
  table: T,
  columns: readonly C[],
  rows: readonly Pick<RowOf<T>, C | T['primaryKey']>[],
): Promise<void> {
  if (rows.length === 0) return;
  const key = table.primaryKey;
  const last = [...new Map(rows.map((r) => [(r as Record<string, unknown>)[key], r])).values()];
  await tx.unsafe(
    `UPDATE ${table.name} t SET ${columns.map((c) => `${quoted(c)} = x.${quoted(c)}`).join(', ')}
     FROM ${recordset(table, [key, ...columns])} WHERE t.${quoted(key)} = x.${quoted(key)}`,
    [JSON.stringify(last)],
  );
}

/** Deletes the rows whose `column` is one of `values`. */
export function deleteRows<T extends AnyTable, C extends ColumnOf<T>>(
  tx: TransactionSql,
  table: T,
  column: C,
  values: readonly NonNullable<RowOf<T>[C]>[],
): Promise<void> {
  return deleteWhereIn(tx, table, column, values as readonly (string | number | boolean)[]);
}

/** `deleteRows` for code generic over the table (the fold): the column and values unchecked. */
export async function deleteWhereIn(
  tx: TransactionSql,
  table: AnyTable,
  column: string,
  values: readonly (string | number | boolean)[],
): Promise<void> {
  if (values.length === 0) return;
  await tx.unsafe(`DELETE FROM ${table.name} WHERE ${quoted(column)} = ANY($1::${table.sqlTypeOf(column)}[])`, [[...new Set(values)]]);
}
