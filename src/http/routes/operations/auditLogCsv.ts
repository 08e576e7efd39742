import type { AuditLogEntry } from '../../../domain/operations/auditLogApi.ts';

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
  'description',
  'entity_type',
  'entity_id',
  'entity_kind',
  'changes',
  'ip',
  'user_agent',
];

export function auditCsvLine(entry: AuditLogEntry): string {
  const changes = entry.changes.map((c) => `${c.field}: ${shown(c.before)} → ${shown(c.after)}`).join('; ');
  return [
    entry.at,
    entry.position,
    entry.actor.id,
    entry.actor.role,
    entry.actor.name,
    entry.action,
    entry.description,
    entry.entity.type,
    entry.entity.id,
    entry.entity.kind,
    changes,
    entry.ip,
    entry.userAgent,
  ]
    .map(csvCell)
    .join(',');
}
