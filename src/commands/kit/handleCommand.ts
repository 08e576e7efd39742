import { type EventStore, type Position, type RecordedEvent, WrongExpectedRevisionError } from '../../adapters/eventstore/eventStore.ts';
import { type Decider, type DomainEvent, fold } from '../../domain/decider.ts';
import { definitionOf } from '../../domain/eventCatalog.ts';
import { type CommandContext, eventIdFor, metadataOf } from './commandContext.ts';

export interface CommandResult<Event extends DomainEvent> {
  events: Event[];
  /** Position of the last event appended (or already appended); null when nothing happened. */
  position: Position | null;
  /** The stream already held this command's events: a retry, answered without appending. */
  alreadyHandled: boolean;
}

export interface HandleOptions {
  /** Attempts on a concurrency conflict before giving up with the conflict error. */
  maxAttempts?: number;
  /**
   * The command normally creates its stream (e.g. the stream id derives from the command id):
   * decide on the initial state and append with `no_stream` without reading first. A conflict
   * (the stream exists, e.g. a retried command) falls back to the normal load-and-decide path.
   */
  expectNewStream?: boolean;
}

/** Validates event data against its catalogue schema; an unknown type is a programming error. */
export function parseEventData(type: string, data: unknown): unknown {
  const definition = definitionOf(type);
  if (!definition) throw new Error(`Unknown event type ${type}`);
  return definition.schema.parse(data);
}

export function toDomainEvent<Event extends DomainEvent>(recorded: RecordedEvent): Event {
  return { type: recorded.type, data: parseEventData(recorded.type, recorded.data) } as Event;
}

/** A stream's state for a decision taken outside a command (sign-in checks, look-ups). */
export async function loadState<Command, Event extends DomainEvent, State>(
  store: EventStore,
  decider: Decider<Command, Event, State>,
  streamId: string,
): Promise<State> {
  return fold(
    decider,
    (await store.readStream(streamId)).map((e) => toDomainEvent<Event>(e)),
  );
}

/**
 * Load the stream, fold it, decide, append with the revision that was read. A conflict means
 * someone else wrote in between: reload and decide again, a bounded number of times.
 */
export async function handleCommand<Command, Event extends DomainEvent, State>(
  store: EventStore,
  decider: Decider<Command, Event, State>,
  streamId: string,
  command: Command,
  ctx: CommandContext,
  options: HandleOptions = {},
): Promise<CommandResult<Event>> {
  const maxAttempts = options.maxAttempts ?? 5;
  const firstId = eventIdFor(ctx.commandId, 0);
  for (let attempt = 1; ; attempt++) {
    const recorded = attempt === 1 && options.expectNewStream ? [] : await store.readStream(streamId);
    const already = recorded.findIndex((e) => e.id === firstId);
    if (already !== -1) {
      const mine = recorded.slice(already).filter((e) => e.metadata.commandId === ctx.commandId);
      return {
        events: mine.map((e) => toDomainEvent<Event>(e)),
        position: (mine[mine.length - 1] as RecordedEvent).position,
        alreadyHandled: true,
      };
    }
    let state = decider.initialState;
    for (const e of recorded) state = decider.evolve(state, toDomainEvent<Event>(e));
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, position: null, alreadyHandled: false };
    const metadata = metadataOf(ctx);
    const newEvents = events.map((e, i) => ({
      id: eventIdFor(ctx.commandId, i),
      type: e.type,
      data: parseEventData(e.type, e.data),
      metadata,
    }));
    const last = recorded[recorded.length - 1];
    try {
      const result = await store.append(streamId, newEvents, last ? { exact: last.revision } : 'no_stream');
      return { events, position: result.position, alreadyHandled: result.alreadyAppended };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw error;
      if (attempt === 1 && options.expectNewStream) continue;
      await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
    }
  }
}
