import type { z } from 'zod';

/**
 * What the system knows about one event type: its data schema (validated on write and on read)
 * and, where it carries personal data, which fields and whose they are, so that the store can
 * encrypt them with that person's key (crypto-shredding on deletion).
 */
export interface EventDefinition<Data = unknown> {
  schema: z.ZodType<Data>;
  personal?: {
    fields: readonly string[];
    /** The data subject whose key encrypts the fields; null: whoever the fallbacks of `personalSubjectOf` name. */
    subject: (data: Data) => string | null;
    /**
     * Free text an admin needs to read in the audit log (a cancellation's reason): kept there sealed
     * with the subject's key and shown while it exists, "[erased]" after. The other personal fields
     * are masked there.
     */
    auditShown?: readonly string[];
  };
  /** One line for the audit log; no personal data. */
  describe?: (data: Data) => string;
}

// biome-ignore lint/suspicious/noExplicitAny: a catalogue holds definitions of many data types
export type EventCatalog = Record<string, EventDefinition<any>>;

/** One event type: the schema types the `personal.subject` and `describe` callbacks. */
export function eventType<S extends z.ZodType>(
  schema: S,
  options: Omit<EventDefinition<z.output<S>>, 'schema'> = {},
): EventDefinition<z.output<S>> {
  return { schema: schema as unknown as z.ZodType<z.output<S>>, ...options };
}

/** The union of `{ type, data }` events a catalogue defines: the aggregate's event type derives from it. */
export type EventsOf<C extends EventCatalog> = {
  [K in keyof C & string]: { type: K; data: C[K] extends EventDefinition<infer D> ? D : never };
}[keyof C & string];

/** The data of one event type of a catalogue. */
export type DataOf<C extends EventCatalog, K extends keyof C> = C[K] extends EventDefinition<infer D> ? D : never;

/**
 * Whose personal data an event carries, data and request metadata alike: the subject its
 * definition names, else the user the data is about, else the acting user; null when nobody's.
 */
export function personalSubjectOf(
  definition: EventDefinition<unknown> | undefined,
  data: unknown,
  actorId: string | null | undefined,
): string | null {
  const named = definition?.personal?.subject(data);
  if (named) return named;
  const userId = (data as { userId?: unknown } | null)?.userId;
  if (typeof userId === 'string') return `user-${userId}`;
  return actorId ? `user-${actorId}` : null;
}

/** Request metadata that identifies a person and is sealed with the event's subject key. */
export const personalMetadataFields = ['ip', 'userAgent'] as const;
