import { type AuditLogEntry, humanAction } from '../../../domain/operations/auditLogApi.ts';
import { DELETED_USER } from '../../../projections/operations/entityNames.ts';

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab or carriage return before one) as a
 * formula: such cells get a leading apostrophe, which shows as text and runs nothing.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

const shown = (value: unknown) => (value === null || value === undefined ? '∅' : typeof value === 'string' ? value : JSON.stringify(value));

export const auditCsvHeader = [
  'at',
  'position',
  'actor_id',
  'actor_role',
  'actor_name',
  'action',
  'event',
  'description',
  'entity_type',
  'entity_id',
  'entity_kind',
  'entity_name',
  'changes',
  'ip',
  'user_agent',
];

/** The actor as the console names them: their name, "Deleted user" once erased (or unknown), "System" when nobody acted. */
const actorName = (actor: AuditLogEntry['actor']) => actor.name ?? (actor.id ? DELETED_USER : 'System');

/**
 * One row of the export: ids for whoever joins the file to other data, and beside them the names
 * and words staff read in the console (issue 24 item 4): the actor's name, the event type in
 * words ("Session booked"), the entity's name (`entry.entity.name`, resolved by the caller).
 */
export function auditCsvLine(entry: AuditLogEntry): string {
  const changes = entry.changes.map((c) => `${c.field}: ${shown(c.before)} → ${shown(c.after)}`).join('; ');
  return [
    entry.at,
    entry.position,
    entry.actor.id,
    entry.actor.role,
    actorName(entry.actor),
    entry.action,
    humanAction(entry.action),
    entry.description,
    entry.entity.type,
    entry.entity.id,
    entry.entity.kind,
    entry.entity.name,
    changes,
    entry.ip,
    entry.userAgent,
  ]
    .map(csvCell)
    .join(',');
}
