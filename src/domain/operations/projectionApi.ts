import { z } from 'zod';

/** GET /api/admin/projections: one row per projection (read models) and reactor (sagas, never rebuilt). */
export const rebuildPhases = ['requested', 'replaying', 'indexing', 'swapping', 'completed', 'failed'] as const;

export const rebuildProgressSchema = z.object({
  rebuildId: z.string().nullable(),
  status: z.string(),
  phase: z.enum(rebuildPhases),
  done: z.number(),
  total: z.number(),
  eventsPerSecond: z.number().nullable(),
  /** The indexing phase's own progress (table blocks scanned and tuples loaded), null outside it. */
  stepDone: z.number().nullable(),
  stepTotal: z.number().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
});
export type RebuildProgressView = z.output<typeof rebuildProgressSchema>;

export const projectionSchema = z.object({
  name: z.string(),
  kind: z.enum(['projector', 'reactor']),
  /** Reactors run side effects (mails, jobs): replaying them would repeat those. */
  rebuildable: z.boolean(),
  position: z.string(),
  /** When the last event it applied was recorded (null before its first): the position in people's terms. */
  lastEventAt: z.string().nullable(),
  lagEvents: z.number(),
  lagMs: z.number(),
  rows: z.number().nullable(),
  /** running, rebuilding (a rebuild requested or under way), or what the runner recorded (e.g. stopped). */
  status: z.string(),
  lastError: z.string().nullable(),
  parked: z.number(),
  rebuild: rebuildProgressSchema.nullable(),
});
export type ProjectionView = z.output<typeof projectionSchema>;
export const projectionListSchema = z.array(projectionSchema);

export const rebuildAcceptedSchema = z.object({ rebuildId: z.string(), projections: z.array(z.string()) });

export const parkedEventSchema = z.object({
  projector: z.string(),
  eventId: z.string(),
  position: z.string(),
  streamId: z.string(),
  revision: z.number(),
  type: z.string(),
  /** failed: its own apply failed; blocked: waits behind a failed event of its stream. */
  status: z.enum(['failed', 'blocked', 'skipped']),
  error: z.string().nullable(),
  attempts: z.number(),
  parkedAt: z.string(),
});
export type ParkedEventView = z.output<typeof parkedEventSchema>;
export const parkedEventListSchema = z.array(parkedEventSchema);

export const PARKED_REASON_MAX = 500;
/** The reason an operator gives for a retry or a skip (recorded in the event). */
export const parkedDecisionBodySchema = z.object({
  reason: z.string().trim().min(1, 'Say why').max(PARKED_REASON_MAX, `At most ${PARKED_REASON_MAX} characters`),
});

export const parkedOutcomeSchema = z.object({
  projector: z.string(),
  streamId: z.string(),
  applied: z.array(z.string()),
  stillParked: z.number(),
  failedEventId: z.string().nullable(),
  error: z.string().nullable(),
});
export type ParkedOutcomeView = z.output<typeof parkedOutcomeSchema>;
