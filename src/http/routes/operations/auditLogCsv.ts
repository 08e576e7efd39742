import { type AuditLogEntry, humanAction } from '../../../domain/operations/auditLogApi.ts';
import { DELETED_USER } from '../../../projections/operations/entityNames.ts';
import { csvRecords, neutraliseFormula } from '../../kit/csv.ts';

/** A cell as text (JSON for anything but a string), neutralised: any value may hold what a user typed. */
const cellText = (value: unknown): string =>
  neutraliseFormula(value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

const shown = (value: unknown) => (value === null || value === undefined ? '∅' : typeof value === 'string' ? value : JSON.stringify(value));

const auditCsvHeader = [
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
function auditCsvRow(entry: AuditLogEntry): string[] {
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
  ].map(cellText);
}

/** The export's first line: the column names. Every cell of the file is quoted. */
export const auditCsvHeaderLine = () => csvRecords([auditCsvHeader], { quoteAll: true });

/** The entries' lines, each ending in CRLF. */
export const auditCsvLines = (entries: readonly AuditLogEntry[]) => csvRecords(entries.map(auditCsvRow), { quoteAll: true });
