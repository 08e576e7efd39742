import { z } from 'zod';
import { defineEvent } from '../eventDefinition.ts';

/** Events the platform records about itself: they feed the alerts an admin must act on. */
export const projectorStopped = z.object({
  projector: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  error: z.string(),
  stoppedAt: z.string(),
});

export const jobGaveUp = z.object({
  queue: z.string(),
  jobId: z.string(),
  error: z.string(),
  attempts: z.number(),
  gaveUpAt: z.string(),
});

export const operationsEventCatalog = {
  ProjectorStopped: defineEvent({
    schema: projectorStopped,
    describe: (d: z.infer<typeof projectorStopped>) => `Projection ${d.projector} stopped at a ${d.eventType} event`,
  }),
  JobGaveUp: defineEvent({
    schema: jobGaveUp,
    describe: (d: z.infer<typeof jobGaveUp>) => `Job ${d.queue} gave up after ${d.attempts} attempts`,
  }),
};
