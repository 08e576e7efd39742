import { z } from 'zod';
import { supportedInstant } from '../kit/supportedDates.ts';
import { entityKinds } from './entityKinds.ts';

/**
 * Entity history and time travel (issue 12 §6): one entity's events, its state folded at a
 * revision or an instant, and the events of every stream one request touched (its correlation id).
 */

/** Ids are opaque but short and plain, as `parseEntityRef` accepts them: no way to name another stream. */
export const ENTITY_ID_PATTERN = /^[A-Za-z0-9._:@-]{1,160}$/;
export const entityIdSchema = z.string().regex(ENTITY_ID_PATTERN, 'Invalid entity id');

/** A page holds at most this many events: a 1,000-event entity answers in one page. */
export const HISTORY_PAGE_MAX = 1000;

/** Personal data of an erased subject reads as this marker (the vault's shredded key). */
export const ERASED_MARKER = '[erased]';
/** Password hashes, one-time codes and OAuth tokens are never shown, not even to admins. */
export const SECRET_MARKER = '[secret]';

export const entityParamsSchema = z.object({
  kind: z.enum(entityKinds),
  id: entityIdSchema,
});

export const entityEventsQuerySchema = z.object({
  /** First revision of the page (default 0). */
  from: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(HISTORY_PAGE_MAX).default(HISTORY_PAGE_MAX),
});
export type EntityEventsQuery = z.input<typeof entityEventsQuerySchema>;

export const entityRefSchema = z.object({ kind: z.enum(entityKinds), id: z.string() });

export const historyEventSchema = z.object({
  revision: z.number().int(),
  position: z.string(),
  streamId: z.string(),
  /** The entity whose stream holds the event; null for streams that are no entity (schedules, activity). */
  entity: entityRefSchema.nullable(),
  type: z.string(),
  /** One line saying what happened (the catalogue's `describe`), without personal data. */
  description: z.string(),
  recordedAt: z.string(),
  /** `name` while the account exists, "Deleted user" once erased (resolved when read). */
  actor: z.object({ id: z.string().nullable(), role: z.string().nullable(), name: z.string().optional() }),
  commandId: z.string().nullable(),
  correlationId: z.string().nullable(),
  causationId: z.string().nullable(),
  data: z.unknown(),
});
export type HistoryEvent = z.output<typeof historyEventSchema>;

export const entityEventsSchema = z.object({
  events: z.array(historyEventSchema),
  /** What staff call the entity ("Ann Lee", "Algebra 1 · Ann Lee"); absent when it has no natural name. */
  name: z.string().optional(),
  /** Revision of the next page's first event; null on the last page. */
  nextRevision: z.number().int().nullable(),
});
export type EntityEvents = z.output<typeof entityEventsSchema>;

/** `?revision=N` or `?at=ISO-time`, exactly one. */
export const entityStateQuerySchema = z
  .object({
    revision: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    at: supportedInstant({ format: 'at must be an ISO date and time, e.g. 2026-01-31T00:00:00Z', label: 'at' }).optional(),
  })
  .refine((q) => (q.revision === undefined) !== (q.at === undefined), { message: 'Give either revision or at, not both' });

export const entityStateSchema = z.object({
  /** The last event folded; null when the entity did not exist yet at that time. */
  revision: z.number().int().nullable(),
  /** When that event was recorded. */
  recordedAt: z.string().nullable(),
  /** The entity's last revision now. */
  head: z.number().int(),
  state: z.unknown(),
});
export type EntityState = z.output<typeof entityStateSchema>;

export const correlationParamsSchema = z.object({ correlationId: entityIdSchema });

export const correlationEventsSchema = z.object({
  events: z.array(historyEventSchema),
  /** True when the story has more events than one answer holds. */
  truncated: z.boolean(),
});
export type CorrelationEvents = z.output<typeof correlationEventsSchema>;
