import type { Sql } from '../../../adapters/db/db.ts';
import type { ReadRowOf } from '../../kit/table.ts';
import type { alerts } from './tables.ts';

export type Alert = ReadRowOf<typeof alerts>;

/** The alerts nobody resolved yet, newest first. */
export async function openAlerts(sql: Sql, limit = 100): Promise<Alert[]> {
  return sql<Alert[]>`SELECT * FROM alerts WHERE NOT is_resolved ORDER BY created_at DESC LIMIT ${limit}`;
}
