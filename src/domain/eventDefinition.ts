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
    /** The data subject whose key encrypts the fields. */
    subject: (data: Data) => string;
  };
  /** One line for the audit log; no personal data. */
  describe?: (data: Data) => string;
}

export type EventCatalog = Record<string, EventDefinition<unknown>>;

/** Erases the data type so definitions of different events can share one catalog. */
export const defineEvent = <Data>(definition: EventDefinition<Data>) => definition as unknown as EventDefinition<unknown>;

/**
 * Whose personal data an event carries, data and request metadata alike: the subject its
 * definition names, else the user the data is about, else the acting user; null when nobody's.
 */
export function personalSubjectOf(
  definition: EventDefinition<unknown> | undefined,
  data: unknown,
  actorId: string | null | undefined,
): string | null {
  if (definition?.personal) return definition.personal.subject(data);
  const userId = (data as { userId?: unknown } | null)?.userId;
  if (typeof userId === 'string') return `user-${userId}`;
  return actorId ? `user-${actorId}` : null;
}

/** Request metadata that identifies a person and is sealed with the event's subject key. */
export const personalMetadataFields = ['ip', 'userAgent'] as const;
