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
