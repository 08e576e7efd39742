import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';
import { gradeLevelSchema } from './gradeLevels.ts';

/**
 * A grade tier (spec part 1 §3 "gradetiers", §9): the per-session base price of a level. Its id
 * is the level's id. Money is integer cents in events; the API shows dollars.
 */
export const gradeTierDefined = z.object({
  tierId: gradeLevelSchema,
  name: z.string(),
  description: z.string().nullable(),
  basePriceCents: z.number().int().positive(),
  at: z.string(),
});

export const gradeTierEvents = {
  GradeTierDefined: eventType(gradeTierDefined, {
    describe: (d) => `Grade tier ${d.name} defined at $${(d.basePriceCents / 100).toFixed(2)} per session`,
  }),
};

export type GradeTierEvent = EventsOf<typeof gradeTierEvents>;

export interface GradeTierTerms {
  name: string;
  description: string | null;
  basePriceCents: number;
}

export interface GradeTierState {
  defined: GradeTierTerms | null;
}

export const initialGradeTierState: GradeTierState = { defined: null };

export const evolveGradeTier = (_state: GradeTierState, event: GradeTierEvent): GradeTierState => ({
  defined: { name: event.data.name, description: event.data.description, basePriceCents: event.data.basePriceCents },
});

export const gradeTierStreamId = (tierId: string) => `gradeTier-${tierId}`;
