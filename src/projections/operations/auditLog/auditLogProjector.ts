import { categoryOf } from '../../../adapters/eventstore/eventStore.ts';
import { definitionOf } from '../../../domain/eventCatalog.ts';
import { personalSubjectOf } from '../../../domain/kit/eventDefinition.ts';
import { defineProjection, isEvent } from '../../kit/defineProjection.ts';
import { insertRows } from '../../kit/writes.ts';
import { type AuditLogRow, auditLogs } from './tables.ts';

export const REDACTED = '[personal data]';

/** Every event becomes one audit row: who did what to which entity, when, from where. */
export const auditLogProjector = defineProjection({
  name: 'audit_log',
  handles: '*',
  tables: [auditLogs],
  async apply(tx, events) {
    const rows = events.map((e): AuditLogRow => {
      const definition = definitionOf(e.type);
      const data: Record<string, unknown> = typeof e.data === 'object' && e.data !== null ? { ...e.data } : { value: e.data };
      for (const field of definition?.personal?.fields ?? []) if (data[field] != null) data[field] = REDACTED;
      const category = categoryOf(e.streamId);
      let description: string | null = null;
      try {
        description = definition?.describe?.(e.data) ?? null;
      } catch {
        description = null;
      }
      return {
        id: e.id,
        position: e.position,
        user_id: e.metadata.actorId ?? null,
        user_role: e.metadata.actorRole ?? null,
        action: e.type,
        entity_type: category,
        entity_id: e.streamId.slice(category.length + 1) || e.streamId,
        old_values: null,
        new_values: data,
        description,
        ip_address: e.metadata.ip ?? null,
        user_agent: e.metadata.userAgent ?? null,
        subject: personalSubjectOf(definition, e.data, e.metadata.actorId),
        created_at: e.recordedAt.toISOString(),
      };
    });
    await insertRows(tx, auditLogs, rows, 'nothing');
    // An erased person's addresses and browsers leave the audit trail; what happened stays.
    const erased = events.flatMap((e) =>
      isEvent(e, 'AccountDeleted') ? [`user-${e.data.userId}`] : isEvent(e, 'ContactMessageErased') ? [`contact-${e.data.contactId}`] : [],
    );
    if (erased.length > 0) {
      await tx`UPDATE audit_logs SET ip_address = NULL, user_agent = NULL WHERE subject = ANY(${erased}::text[])`;
    }
  },
});
