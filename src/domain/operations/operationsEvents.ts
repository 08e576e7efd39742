import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

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

/** A projector could not apply an event: it parked it (and its stream's later events) and went on. */
export const eventParked = z.object({
  projector: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  streamId: z.string(),
  error: z.string(),
  parkedAt: z.string(),
});

/** An operator left a parked event out of a projection for good, saying why. */
export const parkedEventSkipped = z.object({
  projector: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  streamId: z.string(),
  reason: z.string().min(1),
  actor: z.string().nullable(),
  skippedAt: z.string(),
});

/** An operator applied a parked event's stream again (after a fix), saying why. */
export const parkedEventRetried = z.object({
  projector: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  streamId: z.string(),
  reason: z.string().min(1),
  actor: z.string().nullable(),
  retriedAt: z.string(),
});

export const operationsEvents = {
  ProjectorStopped: eventType(projectorStopped, {
    describe: (d) => `Projection ${d.projector} stopped at a ${d.eventType} event`,
  }),
  JobGaveUp: eventType(jobGaveUp, {
    describe: (d) => `Job ${d.queue} gave up after ${d.attempts} attempts`,
  }),
  EventParked: eventType(eventParked, {
    describe: (d) => `Projection ${d.projector} parked a ${d.eventType} event it could not apply`,
  }),
  ParkedEventSkipped: eventType(parkedEventSkipped, {
    describe: (d) => `Projection ${d.projector} skips a parked ${d.eventType} event`,
  }),
  ParkedEventRetried: eventType(parkedEventRetried, {
    describe: (d) => `Projection ${d.projector} retries a parked ${d.eventType} event`,
  }),
};

export type OperationsEvent = EventsOf<typeof operationsEvents>;

/** One stream per failure: recording the same failure twice is a no-op. */
export interface OperationsState {
  recorded: boolean;
}
export const initialOperationsState: OperationsState = { recorded: false };
export const evolveOperations = (_state: OperationsState, _event: OperationsEvent): OperationsState => ({ recorded: true });

export const projectorFailureStreamId = (key: string) => `projectorFailure-${key}`;
export const jobFailureStreamId = (jobId: string) => `jobFailure-${jobId}`;
/** One stream per parked event and projector: its parking and what an operator decided. */
export const parkedEventStreamId = (key: string) => `parkedEvent-${key}`;
