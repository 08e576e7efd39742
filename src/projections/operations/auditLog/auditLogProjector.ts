import type { TransactionSql } from '../../../adapters/db/db.ts';
import { categoryOf } from '../../../adapters/eventstore/eventStore.ts';
import { ERASED, PersonalDataVault } from '../../../adapters/personalData/personalDataVault.ts';
import { definitionOf } from '../../../domain/eventCatalog.ts';
import { personalSubjectOf } from '../../../domain/kit/eventDefinition.ts';
import { type AnyEvent, defineProjection, isEvent } from '../../kit/defineProjection.ts';
import { copyRows, insertRows } from '../../kit/writes.ts';
import { type AuditFieldValuesRow, type AuditLogRow, auditFieldValues, auditLogs } from './tables.ts';

export const REDACTED = '[personal data]';

/** Who acted when an event carries no actor and came from no request: a saga, a workflow or a sweep. */
export const SYSTEM_ROLE = 'system';
/** A signed-out visitor whose request is about nobody's account (a contact message). */
export const ANONYMOUS_ROLE = 'anonymous';

/**
 * Who did it. Signed-out requests (registering, signing in, resetting a password) carry request
 * details but no actor: they act on the account the event is about.
 */
function actorOf(e: AnyEvent, data: Record<string, unknown>): { id: string | null; role: string | null } {
  const role = e.metadata.actorRole ?? null;
  if (e.metadata.actorId) return { id: e.metadata.actorId, role };
  if (e.metadata.ip == null && e.metadata.userAgent == null) return { id: null, role: role ?? SYSTEM_ROLE };
  return typeof data.userId === 'string' ? { id: data.userId, role } : { id: null, role: role ?? ANONYMOUS_ROLE };
}

/** A personal field the audit log keeps sealed (shown while the subject's key exists). */
interface ToSeal {
  /** Names the one value sealed (event id and field): the same sealed text on every rebuild. */
  seed: string;
  data: Record<string, unknown>;
  field: string;
  subject: string;
  value: string;
}

/**
 * The event's data with personal fields masked: a copy only when there is something to mask.
 * Fields the catalogue shows in the audit log (`auditShown`) are collected in `toSeal` instead.
 */
function recordedData(e: AnyEvent, toSeal: ToSeal[]): Record<string, unknown> {
  if (typeof e.data !== 'object' || e.data === null) return { value: e.data };
  const source = e.data as Record<string, unknown>;
  const definition = definitionOf(e.type);
  const personal = definition?.personal?.fields ?? [];
  if (!personal.some((field) => source[field] != null)) return source;
  const shown = definition?.personal?.auditShown ?? [];
  const subject = personalSubjectOf(definition, e.data, e.metadata.actorId);
  const data = { ...source };
  for (const field of personal) {
    const value = data[field];
    if (value == null) continue;
    data[field] = REDACTED;
    // Sealed below; an old event stored plain is sealed here as well, so its erasure reaches the copy.
    if (subject && shown.includes(field) && typeof value === 'string')
      toSeal.push({ seed: `${e.id}/${field}`, data, field, subject, value });
  }
  return data;
}

/**
 * Seals the collected values with their subject's existing key (one round trip per subject); a
 * subject already erased has none, and the value stays erased.
 */
async function sealShown(tx: TransactionSql, toSeal: ToSeal[]): Promise<void> {
  if (toSeal.length === 0) return;
  // Reads keys only (never makes one), inside the batch's transaction.
  const vault = new PersonalDataVault(tx as unknown as ConstructorParameters<typeof PersonalDataVault>[0]);
  const bySubject = new Map<string, ToSeal[]>();
  for (const t of toSeal) bySubject.set(t.subject, [...(bySubject.get(t.subject) ?? []), t]);
  for (const [subject, items] of bySubject) {
    const sealed = await vault.sealWithExistingKey(
      subject,
      items.map((i) => i.value),
      items.map((i) => i.seed),
    );
    items.forEach((item, i) => {
      item.data[item.field] = sealed?.[i] ?? ERASED;
    });
  }
}

function describe(e: AnyEvent): string | null {
  try {
    return definitionOf(e.type)?.describe?.(e.data) ?? null;
  } catch {
    return null;
  }
}

/**
 * The values the stream's earlier events gave the fields this event sets. Events carry whole
 * facts rather than diffs, so a field's "before" is the value the last event naming it recorded;
 * a field no earlier event named has none (a creation, or history older than this table).
 */
function earlierValues(known: Record<string, unknown> | undefined, data: Record<string, unknown>): Record<string, unknown> | null {
  if (known === undefined) return null;
  let before: Record<string, unknown> | null = null;
  for (const field in data) {
    if (Object.hasOwn(known, field)) {
      before ??= {};
      before[field] = known[field];
    }
  }
  return before;
}

async function loadFieldValues(tx: TransactionSql, streams: string[]): Promise<Map<string, Record<string, unknown>>> {
  const rows = await tx<AuditFieldValuesRow[]>`SELECT stream_id, fields FROM audit_field_values WHERE stream_id = ANY(${streams}::text[])`;
  return new Map(rows.map((r) => [r.stream_id, r.fields]));
}

/** Every event becomes one audit row: who did what to which entity, when, from where, and what it changed. */
export const auditLogProjector = defineProjection({
  name: 'audit_log',
  handles: '*',
  tables: [auditLogs, auditFieldValues],
  async apply(tx, events, target) {
    const known = await loadFieldValues(tx, [...new Set(events.map((e) => e.streamId))]);
    const touched = new Set<string>();
    const toSeal: ToSeal[] = [];
    const datas = events.map((e) => recordedData(e, toSeal));
    await sealShown(tx, toSeal);
    const rows = events.map((e, i): AuditLogRow => {
      const data = datas[i] as Record<string, unknown>;
      const previous = known.get(e.streamId);
      const old_values = earlierValues(previous, data);
      // The stream's values are this batch's own objects (read from the table or made here): updated in place.
      if (previous) Object.assign(previous, data);
      else known.set(e.streamId, { ...data });
      touched.add(e.streamId);
      const category = categoryOf(e.streamId);
      const actor = actorOf(e, data);
      return {
        id: e.id,
        position: e.position,
        user_id: actor.id,
        user_role: actor.role,
        action: e.type,
        entity_type: category,
        entity_id: e.streamId.slice(category.length + 1) || e.streamId,
        old_values,
        new_values: data,
        description: describe(e),
        ip_address: e.metadata.ip ?? null,
        user_agent: e.metadata.userAgent ?? null,
        subject: personalSubjectOf(definitionOf(e.type), e.data, e.metadata.actorId),
        created_at: e.recordedAt.toISOString(),
      };
    });
    // A rebuild's fresh table holds none of these rows yet: bulk-load it (a third of the insert's cost).
    if (target === 'fresh') await copyRows(tx, auditLogs, rows);
    else await insertRows(tx, auditLogs, rows, 'nothing');
    await insertRows(
      tx,
      auditFieldValues,
      [...touched].map((stream_id) => ({ stream_id, fields: known.get(stream_id) ?? {} })),
      'update',
    );
    // An erased person's addresses and browsers leave the audit trail; what happened stays.
    const erased = events.flatMap((e) =>
      isEvent(e, 'AccountDeleted') ? [`user-${e.data.userId}`] : isEvent(e, 'ContactMessageErased') ? [`contact-${e.data.contactId}`] : [],
    );
    if (erased.length > 0) {
      await tx`UPDATE audit_logs SET ip_address = NULL, user_agent = NULL WHERE subject = ANY(${erased}::text[])`;
    }
  },
});
