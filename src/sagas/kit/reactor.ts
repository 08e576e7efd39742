import type { RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import type { JobQueue, JobRequest } from '../../adapters/jobs/jobQueue.ts';
import { parseEventData } from '../../commands/kit/handleCommand.ts';
import type { EventType, eventCatalog } from '../../domain/eventCatalog.ts';
import type { DataOf } from '../../domain/kit/eventDefinition.ts';
import type { Projector } from '../../projections/runner/projector.ts';

/**
 * A recorded event of one of the types a reactor declares, its data parsed by the type's schema:
 * a union discriminated by `type`, so a reactor reads its fields without casting.
 */
export type ReactorEvent<T extends EventType> = {
  [K in T]: Omit<RecordedEvent, 'type' | 'data'> & { type: K; data: DataOf<typeof eventCatalog, K> };
}[T];

/**
 * Turns events into jobs. It follows the log like a projector (same runner, same checkpoint
 * transaction) but owns no tables; job ids derive from event ids, so a batch replayed after a
 * crash enqueues nothing twice. Reactors are never rebuilt, so side effects never re-fire.
 * Built by `reactor`, which parses each recorded event it is given.
 */
export interface Reactor {
  name: string;
  handles: readonly EventType[];
  jobsFor(event: RecordedEvent): JobRequest[];
}

/** What a reactor is written as: the catalogue's type names it handles (an unknown name does not compile) and its jobs per event. */
export interface ReactorDefinition<T extends EventType> {
  name: string;
  handles: readonly T[];
  jobsFor(event: ReactorEvent<T>): JobRequest[];
}

/**
 * The reactor of a definition. Each recorded event is parsed once, here, by its type's schema;
 * data that does not parse throws, so the runner parks the event and raises an alert, as for any
 * error of a reactor. An event of a type the reactor does not declare (the runner hands it none)
 * makes no jobs.
 */
export function reactor<const T extends EventType>(definition: ReactorDefinition<T>): Reactor {
  const handled = new Set<string>(definition.handles);
  return {
    name: definition.name,
    handles: definition.handles,
    jobsFor(recorded) {
      if (!handled.has(recorded.type)) return [];
      let data: unknown;
      try {
        data = parseEventData(recorded.type, recorded.data);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`${definition.name}: the data of event ${recorded.id} (${recorded.type}) does not parse: ${reason}`, {
          cause: error,
        });
      }
      // The type is one the definition declares and the data its schema's output: the union's member.
      return definition.jobsFor({ ...recorded, data } as ReactorEvent<T>);
    },
  };
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
