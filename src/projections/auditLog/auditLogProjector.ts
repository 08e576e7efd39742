import { categoryOf } from '../../adapters/eventstore/eventStore.ts';
import { definitionOf } from '../../domain/eventCatalog.ts';
import { personalSubjectOf } from '../../domain/eventDefinition.ts';
import type { Projector } from '../runner/projector.ts';

export const REDACTED = '[personal data]';

/** Every event becomes one audit row: who did what to which entity, when, from where. */
export const auditLogProjector: Projector = {
  name: 'audit_log',
  handles: '*',
  tables: ['audit_logs'],
  async setup(tx) {
    await tx.unsafe(`
      CREATE TABLE IF NOT EXISTS audit_logs (
        id          uuid PRIMARY KEY,
        position    text COLLATE "C" NOT NULL,
        user_id     text,
        user_role   text,
        action      text NOT NULL,
        entity_type text NOT NULL,
        entity_id   text NOT NULL,
        old_values  jsonb,
        new_values  jsonb,
        description text,
        ip_address  text,
        user_agent  text,
        -- whose personal data the row's request details are (cleared when that person is erased)
        subject     text,
        created_at  timestamptz NOT NULL
      );
      -- tables created before the column existed
      ALTER TABLE audit_logs ADD COLUMN IF NOT EXISTS subject text;`);
  },
  async indexes(tx) {
    await tx.unsafe(`
      CREATE INDEX IF NOT EXISTS audit_logs_entity ON audit_logs (entity_type, entity_id, position);
      CREATE INDEX IF NOT EXISTS audit_logs_created ON audit_logs (created_at DESC);
      CREATE INDEX IF NOT EXISTS audit_logs_subject ON audit_logs (subject);`);
  },
  async apply(tx, events) {
    const rows = events.map((e) => {
      const definition = definitionOf(e.type);
      const data = { ...(e.data as Record<string, unknown>) };
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
        new_values: data,
        description,
        ip_address: e.metadata.ip ?? null,
        user_agent: e.metadata.userAgent ?? null,
        subject: personalSubjectOf(definition, e.data, e.metadata.actorId),
        created_at: e.recordedAt.toISOString(),
      };
    });
    await tx`
      INSERT INTO audit_logs (id, position, user_id, user_role, action, entity_type, entity_id, new_values, description, ip_address, user_agent, subject, created_at)
      SELECT id, position, user_id, user_role, action, entity_type, entity_id, new_values, description, ip_address, user_agent, subject, created_at
      FROM jsonb_to_recordset(${tx.json(rows as never)}) AS x(
        id uuid, position text, user_id text, user_role text, action text, entity_type text, entity_id text,
        new_values jsonb, description text, ip_address text, user_agent text, subject text, created_at timestamptz)
      ON CONFLICT (id) DO NOTHING`;
    // An erased person's addresses and browsers leave the audit trail; what happened stays.
    const erased = events.flatMap((e) =>
      e.type === 'AccountDeleted'
        ? [`user-${(e.data as { userId: string }).userId}`]
        : e.type === 'ContactMessageErased'
          ? [`contact-${(e.data as { contactId: string }).contactId}`]
          : [],
    );
    if (erased.length > 0) {
      await tx`UPDATE audit_logs SET ip_address = NULL, user_agent = NULL WHERE subject = ANY(${erased}::text[])`;
    }
  },
};
