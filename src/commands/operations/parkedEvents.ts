import type { EventStore, Position } from '../../adapters/eventstore/eventStore.ts';
import { isStorableText } from '../../domain/kit/storableText.ts';
import { parkedEventStreamId } from '../../domain/operations/operationsEvents.ts';
import { type CommandContext, commandContext, deterministicUuid } from '../kit/commandContext.ts';
import { appendFacts } from '../kit/handleCommand.ts';

/**
 * What the platform records about events a projector parked: one stream per parked event and
 * projector (`parkedEvent-<uuid of projector/eventId>`). Each fact has one deterministic event id,
 * so recording it again (a retried alert, a skip run again after a failure) appends nothing.
 * These are records of facts the runner has already established under its checkpoint lock, not
 * decisions over the stream's state: they are appended with `any`, without reading the stream.
 */
export interface ParkedEventFact {
  projector: string;
  eventId: string;
  eventType: string;
  streamId: string;
}

export interface Recorded {
  position: Position;
  /** The fact was already in the log (a retry). */
  alreadyRecorded: boolean;
}

const keyOf = (fact: ParkedEventFact) => `${fact.projector}/${fact.eventId}`;

async function record(store: EventStore, fact: ParkedEventFact, type: string, data: unknown, ctx: CommandContext): Promise<Recorded> {
  const key = keyOf(fact);
  const result = await appendFacts(store, parkedEventStreamId(deterministicUuid(key)), [{ type, data }], ctx);
  return { position: result.position, alreadyRecorded: result.alreadyAppended };
}

/** The alert's source: a projector parked an event it could not apply (`EventParked`). */
export function recordEventParked(store: EventStore, fact: ParkedEventFact & { error: string }, now = new Date()): Promise<Recorded> {
  const commandId = deterministicUuid(`event-parked/${keyOf(fact)}`);
  const data = { ...fact, parkedAt: now.toISOString() };
  return record(store, fact, 'EventParked', data, commandContext({ actorRole: 'system', commandId, now }));
}

/**
 * An operator's decision to leave a parked event out of a projection (`ParkedEventSkipped`),
 * with the reason and who decided. `actor` is the operator's name as given to the CLI.
 */
export function recordParkedEventSkipped(
  store: EventStore,
  fact: ParkedEventFact & { reason: string; actor: string | null },
  now = new Date(),
): Promise<Recorded> {
  const reason = fact.reason.trim();
  if (!reason) throw new Error('A skip needs a reason');
  if (!isStorableText(reason) || (fact.actor !== null && !isStorableText(fact.actor))) {
    throw new Error('The reason and the actor must be plain text');
  }
  const commandId = deterministicUuid(`parked-event-skipped/${keyOf(fact)}`);
  const data = {
    projector: fact.projector,
    eventId: fact.eventId,
    eventType: fact.eventType,
    streamId: fact.streamId,
    reason,
    actor: fact.actor,
    skippedAt: now.toISOString(),
  };
  return record(store, fact, 'ParkedEventSkipped', data, commandContext({ actorRole: 'operator', actorId: null, commandId, now }));
}
