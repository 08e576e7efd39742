import { jsonb, type RowOf, table, text, timestamptz, uuid } from '../../kit/table.ts';

/** One row per event: who did what to which entity, when, from where. */
export const auditLogs = table(
  'audit_logs',
  {
    id: uuid().primaryKey(),
    position: text().collate('C'),
    user_id: text().nullable(),
    user_role: text().nullable(),
    action: text(),
    entity_type: text(),
    entity_id: text(),
    old_values: jsonb<Record<string, unknown>>().nullable(),
    new_values: jsonb<Record<string, unknown>>().nullable(),
    description: text().nullable(),
    ip_address: text().nullable(),
    user_agent: text().nullable(),
    /** Whose personal data the row's request details are (cleared when that person is erased). */
    subject: text().nullable(),
    created_at: timestamptz(),
  },
  {
    indexes: [
      { name: 'audit_logs_entity', on: ['entity_type', 'entity_id', 'position'] },
      { name: 'audit_logs_created', on: ['created_at DESC'] },
      { name: 'audit_logs_subject', on: ['subject'] },
    ],
  },
);
export type AuditLogRow = RowOf<typeof auditLogs>;
