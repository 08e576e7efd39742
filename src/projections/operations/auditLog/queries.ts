import type { Sql } from '../../../adapters/db/db.ts';
import type { ReadRowOf } from '../../kit/table.ts';
import type { auditLogs } from './tables.ts';

export type AuditLogEntry = ReadRowOf<typeof auditLogs>;

/** What happened to one entity (`user`, `contact`, … and its id), in log order. */
export async function auditTrailOf(sql: Sql, entityType: string, entityId: string): Promise<AuditLogEntry[]> {
  return sql<AuditLogEntry[]>`
    SELECT * FROM audit_logs WHERE entity_type = ${entityType} AND entity_id = ${entityId} ORDER BY position`;
}
