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
export function recordEventParked(store: EventStore, fact: ParkedEventFact & { error: string }, now: Date): Promise<Recorded> {
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
  now: Date,
  by: Pick<CommandContext, 'actorId' | 'actorRole'> = { actorId: null, actorRole: 'operator' },
): Promise<Recorded> {
  const reason = plainReason(fact.reason, fact.actor);
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
  return record(store, fact, 'ParkedEventSkipped', data, commandContext({ ...by, commandId, now }));
}

/**
 * An operator's retry of a parked event's stream (`ParkedEventRetried`), with the reason. A
 * stream may be retried again after a later fix, so each request is its own fact: the command id
 * derives from the request's.
 */
export function recordParkedEventRetried(
  store: EventStore,
  fact: ParkedEventFact & { reason: string; actor: string | null },
  ctx: CommandContext,
): Promise<Recorded> {
  const reason = plainReason(fact.reason, fact.actor);
  const commandId = deterministicUuid(`parked-event-retried/${keyOf(fact)}/${ctx.commandId}`);
  const data = {
    projector: fact.projector,
    eventId: fact.eventId,
    eventType: fact.eventType,
    streamId: fact.streamId,
    reason,
    actor: fact.actor,
    retriedAt: ctx.now.toISOString(),
  };
  return record(store, fact, 'ParkedEventRetried', data, { ...ctx, commandId });
}

function plainReason(text: string, actor: string | null): string {
  const reason = text.trim();
  if (!reason) throw new Error('A retry or skip needs a reason');
  if (!isStorableText(reason) || (actor !== null && !isStorableText(actor))) throw new Error('The reason and the actor must be plain text');
  return reason;
}

/**
 * What the operator's tools (the ops CLI, the console) need of a projection runner: the
 * projection runner implements it; commands see it through this port.
 */
export interface ParkedEventRef {
  projector: string;
  eventId: string;
  type: string;
  streamId: string;
}
export interface ParkedEventsRunner<Resume, Skip> {
  readonly projectors: readonly { name: string }[];
  parked(name?: string, options?: { includeSkipped?: boolean }): Promise<ParkedEventRef[]>;
  retryParked(name: string, eventId: string): Promise<Resume>;
  skipParked(
    name: string,
    eventId: string,
    decision: { reason: string; actor: string | null },
    record: (event: ParkedEventRef) => Promise<void>,
  ): Promise<Skip>;
}

export const REACTOR_REASON = 'reactors (sagas) cannot be rebuilt: replaying them would repeat their side effects (mails, jobs)';

/** The runner (projectors or reactors) that follows `name`, or null. */
export function runnerFollowing<R extends { readonly projectors: readonly { name: string }[] }>(
  runners: readonly R[],
  name: string,
): R | null {
  return runners.find((runner) => runner.projectors.some((p) => p.name === name)) ?? null;
}

/**
 * Leaves a parked event out for good: records ParkedEventSkipped (reason, actor) under the
 * runner's checkpoint lock, then the runner applies what waited behind it in its stream.
 */
export function skipParkedEvent<Resume, Skip>(
  runner: ParkedEventsRunner<Resume, Skip>,
  store: EventStore,
  request: { projector: string; eventId: string; reason: string; actor: string | null },
  now: Date,
  by?: Pick<CommandContext, 'actorId' | 'actorRole'>,
): Promise<Skip> {
  const reason = plainReason(request.reason, request.actor);
  return runner.skipParked(request.projector, request.eventId, { reason, actor: request.actor }, async (event) => {
    await recordParkedEventSkipped(
      store,
      { projector: event.projector, eventId: event.eventId, eventType: event.type, streamId: event.streamId, reason, actor: request.actor },
      now,
      by,
    );
  });
}

/**
 * Applies a parked event's stream again after a fix, recording who asked and why
 * (ParkedEventRetried) first: the attempt is a fact whether or not the event applies this time.
 */
export async function retryParkedEvent<Resume, Skip>(
  runner: ParkedEventsRunner<Resume, Skip>,
  store: EventStore,
  request: { projector: string; eventId: string; reason: string; actor: string | null },
  ctx: CommandContext,
): Promise<Resume | null> {
  const event = (await runner.parked(request.projector)).find((e) => e.eventId === request.eventId);
  if (!event) return null;
  await recordParkedEventRetried(
    store,
    {
      projector: event.projector,
      eventId: event.eventId,
      eventType: event.type,
      streamId: event.streamId,
      reason: request.reason,
      actor: request.actor,
    },
    ctx,
  );
  return runner.retryParked(request.projector, request.eventId);
}
