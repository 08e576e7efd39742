import type { Sql } from '../../../adapters/db/db.ts';
import { PersonalDataVault } from '../../../adapters/personalData/personalDataVault.ts';
import {
  type AuditChange,
  type AuditLogEntry,
  type AuditLogFilter,
  entityKindOfCategory,
  humanAction,
  type RecentActivity,
} from '../../../domain/operations/auditLogApi.ts';
import type { ReadRowOf } from '../../kit/table.ts';
import { type EntityRef, entityKey, entityNames } from '../entityNames.ts';
import { ANONYMOUS_ROLE, REDACTED, SYSTEM_ROLE } from './auditLogProjector.ts';
import type { auditLogs } from './tables.ts';

export type AuditLogRecord = ReadRowOf<typeof auditLogs>;

/** What happened to one entity (`user`, `contact`, … and its id), in log order. */
export async function auditTrailOf(sql: Sql, entityType: string, entityId: string): Promise<AuditLogRecord[]> {
  return opened(
    sql,
    await sql<AuditLogRecord[]>`
      SELECT * FROM audit_logs WHERE entity_type = ${entityType} AND entity_id = ${entityId} ORDER BY position`,
  );
}

/** A row with the actor's name while their account exists (deleted accounts leave no name behind). */
export type AuditLogListed = AuditLogRecord & { actor_name: string | null; actor_account_role: string | null };

/** Log positions are 40 digits (both store adapters); a cursor carries one, base64url-encoded. */
const POSITION = /^\d{40}$/;

export function encodeAuditCursor(position: string): string {
  return Buffer.from(`p:${position}`, 'utf8').toString('base64url');
}

/** The position a cursor we gave out names; null for anything else (garbled, forged, another format). */
export function decodeAuditCursor(cursor: string): string | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const position = text.startsWith('p:') ? text.slice(2) : '';
  return POSITION.test(position) && encodeAuditCursor(position) === cursor ? position : null;
}

const present = (value: string | undefined): value is string => value !== undefined && value !== '';

/**
 * The ids of the accounts whose name or username contains the words typed (every word, any case):
 * staff search by name and the log is read by id. Erased accounts have no row, so no name finds them.
 */
function accountsNamed(sql: Sql, typed: string) {
  const words = typed.trim().split(/\s+/).filter(Boolean).slice(0, 5);
  const like = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`
    SELECT u.id FROM users u WHERE TRUE
    ${words.map((w) => sql`AND (u.first_name || ' ' || u.last_name || ' ' || u.username) ILIKE ${like(w)}`)}`;
}

function whereOf(sql: Sql, filter: AuditLogFilter, before: string | null) {
  // Each filter leads an index ending in position (tables.ts), so the planner walks it backwards.
  return sql`
    WHERE TRUE
    ${present(filter.entityId) ? sql`AND a.entity_id = ${filter.entityId}` : sql``}
    ${present(filter.actorId) ? sql`AND a.user_id = ${filter.actorId}` : sql``}
    ${present(filter.actorName?.trim()) ? sql`AND a.user_id IN (${accountsNamed(sql, filter.actorName ?? '')})` : sql``}
    ${present(filter.type) ? sql`AND a.action = ${filter.type}` : sql``}
    ${present(filter.from) ? sql`AND a.created_at >= ${new Date(filter.from)}` : sql``}
    ${present(filter.to) ? sql`AND a.created_at <= ${new Date(filter.to)}` : sql``}
    ${before ? sql`AND a.position < ${before}` : sql``}`;
}

function selectListed(sql: Sql, filter: AuditLogFilter, before: string | null, limit: number) {
  return sql<AuditLogListed[]>`
    SELECT a.*, CASE WHEN u.id IS NULL THEN NULL ELSE trim(u.first_name || ' ' || u.last_name) END AS actor_name,
           u.role AS actor_account_role
    FROM (SELECT * FROM audit_logs a ${whereOf(sql, filter, before)} ORDER BY a.position DESC LIMIT ${limit}) a
    LEFT JOIN users u ON u.id = a.user_id
    ORDER BY a.position DESC`;
}

/**
 * Opens the values the projector kept sealed (free text the catalogue shows in the audit log): the
 * text while the subject's key exists, "[erased]" after. One look-up of keys for all the rows.
 */
async function opened<R extends Pick<AuditLogRecord, 'old_values' | 'new_values'>>(sql: Sql, rows: R[]): Promise<R[]> {
  const sealed = rows.flatMap((r) =>
    [r.old_values, r.new_values].flatMap((values) => Object.values(values ?? {}).filter((v) => PersonalDataVault.isEncrypted(v))),
  );
  if (sealed.length === 0) return rows;
  const plain = await new PersonalDataVault(sql).decryptAll(sealed);
  const open = (values: Record<string, unknown> | null) =>
    values && Object.fromEntries(Object.entries(values).map(([k, v]) => [k, PersonalDataVault.isEncrypted(v) ? plain.get(v) : v]));
  return rows.map((r) => ({ ...r, old_values: open(r.old_values), new_values: open(r.new_values) }));
}

/** One page, newest first: rows before the cursor's position, and the cursor of the next page. */
export async function listAuditLog(
  sql: Sql,
  filter: AuditLogFilter,
  page: { before: string | null; limit: number },
): Promise<{ rows: AuditLogListed[]; nextCursor: string | null }> {
  const rows = await opened(sql, await selectListed(sql, filter, page.before, page.limit + 1));
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return { rows: shown, nextCursor: rows.length > page.limit && last ? encodeAuditCursor(last.position) : null };
}

/** Every matching row, newest first, at most `max`, read in chunks (the CSV export streams them). */
export async function* eachAuditLogRow(sql: Sql, filter: AuditLogFilter, max: number): AsyncGenerator<AuditLogListed> {
  for await (const chunk of selectListed(sql, filter, null, max).cursor(500)) yield* await opened(sql, chunk);
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields an event set, with the value the entity's earlier events had given them. A field
 * that kept its value is no change; a personal field is always shown (masked), since its
 * redacted before and after cannot say whether it changed.
 */
export function changesOf(row: Pick<AuditLogRecord, 'old_values' | 'new_values'>): AuditChange[] {
  const after = row.new_values ?? {};
  const before = row.old_values ?? {};
  return Object.entries(after).flatMap(([field, value]): AuditChange[] => {
    const earlier = Object.hasOwn(before, field) ? before[field] : null;
    if (value !== REDACTED && sameValue(earlier, value ?? null)) return [];
    return [{ field, before: earlier ?? null, after: value ?? null }];
  });
}

export function auditLogEntry(row: AuditLogListed): AuditLogEntry {
  const kind = entityKindOfCategory(row.entity_type);
  return {
    id: row.id,
    position: row.position,
    at: row.created_at.toISOString(),
    actor: { id: row.user_id, role: roleOf(row), ...(row.actor_name ? { name: row.actor_name } : {}) },
    action: row.action,
    description: row.description,
    entity: { type: row.entity_type, id: row.entity_id, ...(kind ? { kind } : {}) },
    changes: changesOf(row),
    ip: row.ip_address,
    userAgent: row.user_agent,
  };
}

/** The entries with their entities' names (one look-up per kind for the whole page). */
export async function withEntityNames<T extends { entity: { kind?: EntityRef['kind'] | undefined; id: string; name?: string } }>(
  sql: Sql,
  entries: T[],
): Promise<T[]> {
  const refs = entries.flatMap((e): EntityRef[] => (e.entity.kind ? [{ kind: e.entity.kind, id: e.entity.id }] : []));
  if (refs.length === 0) return entries;
  const names = await entityNames(sql, refs);
  return entries.map((e) => {
    const name = e.entity.kind ? names.get(entityKey({ kind: e.entity.kind, id: e.entity.id })) : undefined;
    return name ? { ...e, entity: { ...e.entity, name } } : e;
  });
}

/** The role the event recorded, else (a signed-out request on one's own account) the account's. */
const roleOf = (row: AuditLogListed) => row.user_role ?? row.actor_account_role;

const ARTICLE = /^[aeiou]/i;

function whoOf(row: AuditLogListed): string {
  const role = roleOf(row)?.replaceAll('_', ' ');
  if (row.actor_name) return role ? `${row.actor_name} (${role})` : row.actor_name;
  if (row.user_role === ANONYMOUS_ROLE) return 'A signed-out visitor';
  if (!row.user_id || row.user_role === SYSTEM_ROLE) return 'The system';
  if (!role) return 'Someone';
  return `${ARTICLE.test(role) ? 'An' : 'A'} ${role}`;
}

/** The Overview's feed: the latest rows as sentences. */
export async function recentActivity(sql: Sql, limit: number): Promise<RecentActivity[]> {
  const rows = await selectListed(sql, {}, null, limit);
  return withEntityNames(
    sql,
    rows.map((row): RecentActivity => {
      const kind = entityKindOfCategory(row.entity_type);
      return {
        id: row.id,
        at: row.created_at.toISOString(),
        who: whoOf(row),
        actorId: row.actor_name ? row.user_id : null,
        what: row.description ?? humanAction(row.action),
        entity: { type: row.entity_type, id: row.entity_id, ...(kind ? { kind } : {}) },
      };
    }),
  );
}
