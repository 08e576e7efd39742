import {
  type EventStore,
  type NewEvent,
  type Position,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../../adapters/eventstore/eventStore.ts';
import { definitionOf } from '../../domain/eventCatalog.ts';
import { type Command, type CommandInput, type Decider, DomainError, type DomainEvent } from '../../domain/kit/decider.ts';
import { findUnstorableText } from '../../domain/kit/storableText.ts';
import { type CommandContext, eventIdFor, metadataOf } from './commandContext.ts';
import { FoldedStateCache } from './foldedStateCache.ts';

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

/**
 * Nothing a projector cannot write enters the log: every event is parsed by its schema and its
 * text checked for what PostgreSQL cannot store (NUL, lone surrogates) before it is appended.
 */
function checkedForAppend(type: string, data: unknown): unknown {
  const parsed = parseEventData(type, data);
  const found = findUnstorableText(parsed);
  if (found) throw new DomainError(`${found.path.join('.') || 'Input'} contains characters that cannot be stored`, 'invalid');
  return parsed;
}

/** The command's events as the store takes them: ids derived from the command id, data checked, metadata stamped. */
export function toNewEvents(events: readonly DomainEvent[], ctx: CommandContext): NewEvent[] {
  const metadata = metadataOf(ctx);
  return events.map((e, i) => ({ id: eventIdFor(ctx.commandId, i), type: e.type, data: checkedForAppend(e.type, e.data), metadata }));
}

/**
 * Records facts no decision reads back (sign-ins, mails sent, parked events) on their stream with
 * `any`: no read, no contention; a retried command appends nothing new (its event ids repeat).
 */
export function appendFacts(store: EventStore, streamId: string, events: readonly DomainEvent[], ctx: CommandContext) {
  return store.append(streamId, toNewEvents(events, ctx), 'any');
}

interface Loaded<State> {
  state: State;
  revision: number | null;
  /** Command ids already in the stream: a retried command is answered from the stream, not decided again. */
  commandIds: ReadonlySet<string>;
}

export interface CommandHandler<C extends Command, E extends DomainEvent, S> {
  /** Load, decide, append with the revision read; on a conflict reload and decide again (bounded). */
  handle(id: string, command: CommandInput<C>, ctx: CommandContext, options?: HandleOptions): Promise<CommandResult<E>>;
  /** The stream's folded state, for facts a caller must compute before deciding (a password check). */
  load(id: string): Promise<S>;
  readonly decider: Decider<C, E, S>;
  streamIdOf(id: string): string;
}

/**
 * The one way commands run: `commandHandler(decider, streamIdOf)`. Folded state of recently used
 * streams is kept in a bounded cache keyed by stream and revision; the expected-revision check of
 * the append corrects a stale entry (another process wrote): the conflict reads the events after
 * the entry's revision and decides again. A decision that appends nothing (a refusal, a no-op) has
 * no such check, so it is only ever answered from the stream read to its head.
 */
export function commandHandler<C extends Command, E extends DomainEvent, S>(
  store: EventStore,
  decider: Decider<C, E, S>,
  streamIdOf: (id: string) => string,
  cache: FoldedStateCache = sharedCache(store),
): CommandHandler<C, E, S> {
  /**
   * The stream folded to its head. From a cached entry only the events after its revision are
   * read and folded onto it: an entry is the state the stream had at that revision (the cache
   * holds nothing else), so a refuted guess costs the events it missed, not the whole stream.
   */
  const readFolded = async (streamId: string, from?: Loaded<S>): Promise<Loaded<S>> => {
    const after = from?.revision ?? null;
    const recorded = await store.readStream(streamId, after === null ? undefined : { fromRevision: after + 1 });
    let state = after === null ? decider.initialState : (from as Loaded<S>).state;
    const commandIds = new Set<string>(after === null ? [] : (from as Loaded<S>).commandIds);
    for (const e of recorded) {
      state = decider.evolve(state, toDomainEvent<E>(e));
      if (e.metadata.commandId) commandIds.add(e.metadata.commandId);
    }
    const last = recorded[recorded.length - 1];
    return { state, revision: last ? last.revision : after, commandIds };
  };

  const alreadyHandled = async (streamId: string, commandId: string): Promise<CommandResult<E>> => {
    const mine = (await store.readStream(streamId)).filter((e) => e.metadata.commandId === commandId);
    return {
      events: mine.map((e) => toDomainEvent<E>(e)),
      position: mine.length > 0 ? (mine[mine.length - 1] as RecordedEvent).position : null,
      alreadyHandled: true,
    };
  };

  const newStream: Loaded<S> = { state: decider.initialState, revision: null, commandIds: new Set() };
  /** A first attempt decides on a guess at the head: a new stream, or the cached entry. */
  const guessOf = (streamId: string, expectNewStream: boolean) => (expectNewStream ? newStream : cache.get<Loaded<S>>(decider, streamId));
  /** The stream at its head, read on from the cached entry (which it then replaces). */
  const current = async (streamId: string): Promise<Loaded<S>> => {
    const loaded = await readFolded(streamId, cache.get<Loaded<S>>(decider, streamId));
    cache.set(decider, streamId, loaded);
    return loaded;
  };

  /** Decides and appends; RETRY when the state was a guess the stream refuted (or a race was lost). */
  const decideAndAppend = async (
    streamId: string,
    command: C,
    loaded: Loaded<S>,
    ctx: CommandContext,
    guessed: boolean,
  ): Promise<CommandResult<E> | typeof RETRY> => {
    let events: E[];
    try {
      events = decider.decide(command, loaded.state);
    } catch (error) {
      // A refusal on a guessed state may be the guess's fault: decide again on the stream itself.
      if (!guessed) throw error;
      return RETRY;
    }
    if (events.length === 0) {
      // "Nothing to do" appends nothing, so no expected revision would refute a stale guess (another
      // process may have written since): a no-op is answered only from the stream itself.
      if (guessed) return RETRY;
      cache.set(decider, streamId, loaded);
      return { events, position: null, alreadyHandled: false };
    }
    try {
      const result = await store.append(
        streamId,
        toNewEvents(events, ctx),
        loaded.revision === null ? 'no_stream' : { exact: loaded.revision },
      );
      if (result.alreadyAppended) return alreadyHandled(streamId, ctx.commandId);
      const state = events.reduce(decider.evolve, loaded.state);
      cache.set(decider, streamId, { state, revision: result.nextRevision, commandIds: new Set([...loaded.commandIds, ctx.commandId]) });
      return { events, position: result.position, alreadyHandled: false };
    } catch (error) {
      // The entry stays: it is still the stream at its revision, and the retry reads on from there.
      if (error instanceof WrongExpectedRevisionError) return RETRY;
      throw error;
    }
  };

  return {
    decider,
    streamIdOf,
    // Always read: a decision taken on this state appends nowhere that would refute a stale cache entry.
    async load(id) {
      return (await current(streamIdOf(id))).state;
    },
    async handle(id, input, ctx, options = {}) {
      const streamId = streamIdOf(id);
      const command = { ...input, metadata: { now: ctx.now, actorId: ctx.actorId, actorRole: ctx.actorRole, ...input.metadata } } as C;
      const maxAttempts = options.maxAttempts ?? 5;
      for (let attempt = 1; ; attempt++) {
        const first = attempt === 1;
        const guess = first ? guessOf(streamId, options.expectNewStream === true) : undefined;
        const loaded = guess ?? (await current(streamId));
        if (loaded.commandIds.has(ctx.commandId)) return alreadyHandled(streamId, ctx.commandId);
        const outcome = await decideAndAppend(streamId, command, loaded, ctx, guess !== undefined);
        if (outcome !== RETRY) return outcome;
        if (attempt >= maxAttempts) throw new WrongExpectedRevisionError(streamId, 'any', 'no_stream');
        // A conflict after guessing (cache, new stream) reloads at once; a real race backs off a little.
        if (!first || guess === undefined) await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
      }
    },
  };
}

const RETRY = Symbol('retry');

const caches = new WeakMap<EventStore, FoldedStateCache>();
/** One cache per event store (per process): handlers of the same decider share entries. */
function sharedCache(store: EventStore): FoldedStateCache {
  let cache = caches.get(store);
  if (!cache) {
    cache = new FoldedStateCache();
    caches.set(store, cache);
  }
  return cache;
}
