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
    /** The values the entity's earlier events gave the fields this event sets (null: none known). */
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
    // The console pages newest first by position under any one filter: each filter leads an
    // index that ends in position, so a filtered first page reads `limit` index entries. An
    // entity's trail (type and id, in log order) reads its id's entries of entity_id_position.
    indexes: [
      { name: 'audit_logs_created', on: ['created_at DESC'] },
      { name: 'audit_logs_subject', on: ['subject'] },
      { name: 'audit_logs_position', on: ['position'] },
      { name: 'audit_logs_entity_id_position', on: ['entity_id', 'position'] },
      { name: 'audit_logs_actor_position', on: ['user_id', 'position'] },
      { name: 'audit_logs_action_position', on: ['action', 'position'] },
    ],
  },
);
export type AuditLogRow = RowOf<typeof auditLogs>;

/**
 * The last value the audit log saw for each field of each stream, so that an event's row can say
 * what its fields were before (`old_values`). Personal fields are kept redacted, as in the log.
 */
export const auditFieldValues = table('audit_field_values', {
  stream_id: text().primaryKey().collate('C'),
  fields: jsonb<Record<string, unknown>>(),
});
export type AuditFieldValuesRow = RowOf<typeof auditFieldValues>;
