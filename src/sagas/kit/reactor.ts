import type { RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import type { JobQueue, JobRequest } from '../../adapters/jobs/jobQueue.ts';
import type { Projector } from '../../projections/runner/projector.ts';

/**
 * Turns events into jobs. It follows the log like a projector (same runner, same checkpoint
 * transaction) but owns no tables; job ids derive from event ids, so a batch replayed after a
 * crash enqueues nothing twice. Reactors are never rebuilt, so side effects never re-fire.
 */
export interface Reactor {
  name: string;
  handles: readonly string[];
  jobsFor(event: RecordedEvent): JobRequest[];
}

export function reactorProjector(reactor: Reactor, queue: JobQueue): Projector {
  return {
    name: reactor.name,
    handles: reactor.handles,
    tables: [],
    async setup() {},
    async apply(_tx, events) {
      // One insert per queue for the whole batch.
      await queue.sendMany(events.flatMap((event) => reactor.jobsFor(event)));
    },
  };
}
