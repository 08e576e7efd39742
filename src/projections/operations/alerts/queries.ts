import type { Sql } from '../../../adapters/db/db.ts';
import type { AlertListQuery, AlertPage, AlertSubject, AlertView } from '../../../domain/operations/alertApi.ts';
import type { ReadRowOf } from '../../kit/table.ts';
import { type EntityRef, entityKey, entityNames } from '../entityNames.ts';
import type { alerts } from './tables.ts';

export type Alert = ReadRowOf<typeof alerts>;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function alertView(row: Alert): AlertView {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    description: row.description,
    severity: row.severity,
    isResolved: row.is_resolved,
    resolvedAt: iso(row.resolved_at),
    resolvedBy: row.resolved_by,
    resolutionNote: row.resolution_note,
    userId: row.user_id,
    studentId: row.student_id,
    sessionId: row.session_id,
    purchaseId: row.purchase_id,
    metadata: row.metadata,
    createdAt: iso(row.created_at) as string,
  };
}

/** The entities an alert names, most specific first: its purchase, session, student, person. */
function subjectsOf(view: AlertView): EntityRef[] {
  const refs: EntityRef[] = [];
  if (view.purchaseId) refs.push({ kind: 'purchase', id: view.purchaseId });
  if (view.sessionId) refs.push({ kind: 'session', id: view.sessionId });
  if (view.studentId) refs.push({ kind: 'student', id: view.studentId });
  if (view.userId) refs.push({ kind: 'user', id: view.userId });
  return refs;
}

/** The alerts with what they are about, named from the read models at read time (one look-up per kind). */
export async function withAlertSubjects(sql: Sql, views: AlertView[]): Promise<AlertView[]> {
  const refs = views.flatMap(subjectsOf);
  const names = refs.length > 0 ? await entityNames(sql, refs) : new Map<string, string>();
  return views.map((view) => ({
    ...view,
    about: subjectsOf(view).map((ref): AlertSubject => ({ ...ref, name: names.get(entityKey(ref)) ?? null })),
  }));
}

/** The alerts nobody resolved yet, newest first. */
export async function openAlerts(sql: Sql, limit = 100): Promise<Alert[]> {
  return sql<Alert[]>`SELECT * FROM alerts WHERE NOT is_resolved ORDER BY created_at DESC, id LIMIT ${limit}`;
}

export async function findAlert(sql: Sql, id: string): Promise<Alert | null> {
  const [row] = await sql<Alert[]>`SELECT * FROM alerts WHERE id = ${id}`;
  return row ?? null;
}

// Sort keys are whitelisted here, never taken from the request as SQL.
const ORDER_BY: Record<AlertListQuery['sort'], string> = {
  createdAt: 'created_at',
  severity: "CASE severity WHEN 'high' THEN 3 WHEN 'medium' THEN 2 ELSE 1 END",
  type: 'type',
};

/** One page of alerts for the console's table: filtered by status and type, sorted, with the total. */
export async function listAlerts(sql: Sql, query: AlertListQuery): Promise<AlertPage> {
  const resolved = query.status === 'all' ? null : query.status === 'resolved';
  const where = sql`WHERE (${resolved}::boolean IS NULL OR is_resolved = ${resolved})
                      AND (${query.type ?? null}::text IS NULL OR type = ${query.type ?? null})`;
  const direction = query.order === 'asc' ? sql`ASC` : sql`DESC`;
  const rows = await sql<Alert[]>`
    SELECT * FROM alerts ${where}
    ORDER BY ${sql.unsafe(ORDER_BY[query.sort])} ${direction}, created_at DESC, id
    LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`;
  const [count] = await sql<{ n: string }[]>`SELECT count(*) AS n FROM alerts ${where}`;
  return {
    rows: await withAlertSubjects(sql, rows.map(alertView)),
    total: Number(count?.n ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}
