import { z } from 'zod';
import { isIsoInstant, isSupportedInstant, outsideSupportedDates } from '../kit/supportedDates.ts';
import { type EntityKind, entityKinds } from './entityKinds.ts';

/** The console's audit log (issue 12 §5): one row per recorded event. */

export const AUDIT_LOG_PAGE_DEFAULT = 50;
export const AUDIT_LOG_PAGE_MAX = 200;
/** The CSV export stops here; narrower filters reach older rows (the file says when it was cut). */
export const AUDIT_LOG_CSV_MAX_ROWS = 100_000;
export const RECENT_ACTIVITY_DEFAULT = 15;
export const RECENT_ACTIVITY_MAX = 50;

export const AUDIT_CURSOR_INVALID = 'cursor is not one this server gave out: start again from the first page';
export const AUDIT_RANGE_INVALID = 'from must not be later than to';

/**
 * The stream categories whose entity the console's history opens (`EntityKind`). Streams that
 * only serve an entity (its activity, its calendar side, its schedule) open that entity.
 */
const kindOfCategory: Record<string, EntityKind> = {
  user: 'user',
  userActivity: 'user',
  promoGuessing: 'user',
  student: 'student',
  tutor: 'tutor',
  tutorSchedule: 'tutor',
  tutorApplication: 'application',
  course: 'course',
  purchase: 'purchase',
  session: 'session',
  sessionCalendar: 'session',
  promoCode: 'promo',
  payoutPeriod: 'payoutPeriod',
};

export function entityKindOfCategory(category: string): EntityKind | null {
  return Object.hasOwn(kindOfCategory, category) ? (kindOfCategory[category] ?? null) : null;
}

const optionalText = (max: number, label: string) => z.string().max(max, `${label} must be at most ${max} characters`).optional();

/** Empty instants are absent (a cleared date field); the rest must be ISO instants with an offset, in the supported years. */
const instant = (label: string) => {
  const format = `${label} must be an ISO date and time, e.g. 2026-01-31T00:00:00Z`;
  return z
    .string()
    .max(40, { error: format, abort: true })
    .refine((v) => v === '' || isIsoInstant(v), { error: format, abort: true })
    .refine((v) => v === '' || isSupportedInstant(v), { error: outsideSupportedDates(label) })
    .optional();
};

const filterFields = {
  entityId: optionalText(200, 'entityId'),
  actorId: optionalText(200, 'actorId'),
  /** Part of the actor's name or username ("ada", "Lovelace"): the server resolves it to their accounts. */
  actorName: optionalText(100, 'actorName'),
  type: z
    .string()
    .max(100, 'type must be at most 100 characters')
    .regex(/^([A-Za-z][A-Za-z0-9_.]*)?$/, 'type must be an event type, e.g. SessionBooked')
    .optional(),
  from: instant('from'),
  to: instant('to'),
};

const rangeInOrder = (q: { from?: string | undefined; to?: string | undefined }) =>
  !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to);

/** The audit log's filters, combined (AND); empty values are no filter. */
export const auditLogFilterSchema = z.object(filterFields).refine(rangeInOrder, { message: AUDIT_RANGE_INVALID, path: ['from'] });
export type AuditLogFilter = z.output<typeof auditLogFilterSchema>;

/** GET /api/admin/audit-log: filters combined, newest first, keyset-paged by an opaque cursor. */
export const auditLogQuerySchema = z
  .object({
    ...filterFields,
    cursor: z
      .string()
      .max(200, AUDIT_CURSOR_INVALID)
      .regex(/^[A-Za-z0-9_-]*$/, AUDIT_CURSOR_INVALID)
      .optional(),
    limit: z.coerce
      .number()
      .int()
      .min(1, `limit must be between 1 and ${AUDIT_LOG_PAGE_MAX}`)
      .max(AUDIT_LOG_PAGE_MAX, `limit must be between 1 and ${AUDIT_LOG_PAGE_MAX}`)
      .default(AUDIT_LOG_PAGE_DEFAULT),
  })
  .refine(rangeInOrder, { message: AUDIT_RANGE_INVALID, path: ['from'] });
export type AuditLogQuery = z.input<typeof auditLogQuerySchema>;

export const auditChangeSchema = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });
export type AuditChange = z.output<typeof auditChangeSchema>;

/**
 * Which entity a row is about; `name` is what staff read instead of the id ("Ann Lee",
 * "Algebra 1 · Ann Lee with Tom Tutor", "Deleted user"), resolved when the row is read.
 */
export const entitySchema = z.object({
  type: z.string(),
  id: z.string(),
  kind: z.enum(entityKinds).optional(),
  name: z.string().optional(),
});

export const auditLogEntrySchema = z.object({
  id: z.string(),
  position: z.string(),
  at: z.string(),
  actor: z.object({
    /** Null when no person acted (role `system`). */
    id: z.string().nullable(),
    role: z.string().nullable(),
    /** The actor's name while their account exists. */
    name: z.string().optional(),
  }),
  action: z.string(),
  description: z.string().nullable(),
  entity: entitySchema,
  changes: z.array(auditChangeSchema),
  /** Null once the person the request came from is erased, or when no request was involved. */
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type AuditLogEntry = z.output<typeof auditLogEntrySchema>;

export const auditLogPageSchema = z.object({
  rows: z.array(auditLogEntrySchema),
  /** Pass back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AuditLogPage = z.output<typeof auditLogPageSchema>;

export const recentActivityQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, `limit must be between 1 and ${RECENT_ACTIVITY_MAX}`)
    .max(RECENT_ACTIVITY_MAX, `limit must be between 1 and ${RECENT_ACTIVITY_MAX}`)
    .default(RECENT_ACTIVITY_DEFAULT),
});

/** One line of the Overview's feed: who did what to which entity, when. */
export const recentActivitySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** "Ada Lovelace (admin)", "a student", "The system". */
  who: z.string(),
  /** The account that acted (its history opens from the name); null when no person acted. */
  actorId: z.string().nullable().optional(),
  what: z.string(),
  entity: entitySchema,
});
export type RecentActivity = z.output<typeof recentActivitySchema>;

/** One choice of the audit log's type picker: a recorded event type and its words. */
export const auditEventTypeSchema = z.object({ type: z.string(), label: z.string() });
export type AuditEventType = z.output<typeof auditEventTypeSchema>;

/** How a recorded type reads in a sentence: `SessionBooked` → "Session booked". */
export function humanAction(type: string): string {
  const words = type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
