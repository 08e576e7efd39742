import type { EventStore, RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import { definitionOf } from '../../domain/eventCatalog.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import {
  type CorrelationEvents,
  type EntityEvents,
  type EntityState,
  HISTORY_PAGE_MAX,
  type HistoryEvent,
  SECRET_MARKER,
} from '../../domain/operations/entityHistoryApi.ts';
import { type EntityKind, entityKinds } from '../../domain/operations/entityKinds.ts';
import { type EntityModel, entityModels } from './entityRegistry.ts';

export const ENTITY_NOT_FOUND = 'Entity not found';

/** Credentials are not history: an admin reading a timeline never sees them (personal data is shown). */
const SECRET_KEYS = new Set(['passwordHash', 'secondaryPasswordHash', 'codeHash', 'accessToken', 'refreshToken']);
/** One-time codes sent by mail: `code` elsewhere is a promo code, which is not secret. */
const CODE_EVENTS = /CodeIssued$/;

function withoutSecrets(value: unknown, hideCode: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutSecrets(v, false));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const secret = SECRET_KEYS.has(key) || (hideCode && key === 'code');
    out[key] = secret && v != null ? SECRET_MARKER : withoutSecrets(v, false);
  }
  return out;
}

function modelOf(kind: EntityKind): EntityModel {
  const model = entityModels[kind];
  if (!model) throw new DomainError(ENTITY_NOT_FOUND, 'not_found');
  return model;
}

/** The entity a stream belongs to, when it is one (`session-<id>` → session); the prefix is the kind's own. */
export function entityOfStream(streamId: string): { kind: EntityKind; id: string } | null {
  for (const kind of entityKinds) {
    const prefix = entityModels[kind]?.streamIdOf('');
    if (prefix && streamId.startsWith(prefix) && streamId.length > prefix.length) return { kind, id: streamId.slice(prefix.length) };
  }
  return null;
}

/** The event's data as its schema reads it; erased values that no longer fit are folded as stored. */
function domainData(event: RecordedEvent): unknown {
  const parsed = definitionOf(event.type)?.schema.safeParse(event.data);
  return parsed?.success ? parsed.data : event.data;
}

function describe(event: RecordedEvent): string {
  const definition = definitionOf(event.type);
  try {
    const line = definition?.describe?.(domainData(event));
    if (line) return line;
  } catch {
    // An erased or older event the line cannot be made from: its type says enough.
  }
  return event.type.replace(/([a-z])([A-Z])/g, '$1 $2');
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function historyEvent(event: RecordedEvent): HistoryEvent {
  const m = event.metadata;
  return {
    revision: event.revision,
    position: event.position,
    streamId: event.streamId,
    entity: entityOfStream(event.streamId),
    type: event.type,
    description: describe(event),
    recordedAt: event.recordedAt.toISOString(),
    actor: { id: text(m.actorId), role: text(m.actorRole) },
    commandId: text(m.commandId),
    correlationId: text(m.correlationId),
    causationId: text(m.causationId),
    data: withoutSecrets(event.data, CODE_EVENTS.test(event.type)),
  };
}

/**
 * One page of an entity's events by revision (`from`, at most `limit`). The store reads it as a
 * range on (stream, revision), one more than asked to tell whether a next page exists.
 */
export async function entityEvents(
  store: EventStore,
  kind: EntityKind,
  id: string,
  page: { from: number; limit: number },
): Promise<EntityEvents> {
  const streamId = modelOf(kind).streamIdOf(id);
  const limit = Math.min(page.limit, HISTORY_PAGE_MAX);
  const read = await store.readStream(streamId, { fromRevision: page.from, toRevision: page.from + limit });
  if (read.length === 0 && (page.from === 0 || (await store.readStream(streamId, { toRevision: 0 })).length === 0))
    throw new DomainError(ENTITY_NOT_FOUND, 'not_found');
  const shown = read.slice(0, limit);
  return { events: shown.map(historyEvent), nextRevision: read.length > limit ? page.from + limit : null };
}

export type PointInTime = { revision: number } | { at: Date };

/**
 * The entity's state folded by its own evolve up to a revision, or up to the last event recorded
 * at or before an instant (null revision and the initial state before its first event). A
 * revision past the entity's last is refused (400) rather than quietly answered with the head.
 */
export async function entityStateAt(store: EventStore, kind: EntityKind, id: string, point: PointInTime): Promise<EntityState> {
  const model = modelOf(kind);
  const events = await store.readStream(model.streamIdOf(id));
  const last = events[events.length - 1];
  if (!last) throw new DomainError(ENTITY_NOT_FOUND, 'not_found');
  if ('revision' in point && point.revision > last.revision)
    throw new DomainError(`Revision ${point.revision} is past the entity's last revision (${last.revision})`, 'invalid');
  const upTo =
    'revision' in point ? point.revision : (events.findLast((e) => e.recordedAt.getTime() <= point.at.getTime())?.revision ?? -1);
  let state = model.initialState;
  for (const event of events) {
    if (event.revision > upTo) break;
    // An evolve without a case for a type its stream never holds would answer undefined: keep the state.
    state = model.evolve(state, { type: event.type, data: domainData(event) }) ?? state;
  }
  const at = upTo >= 0 ? events.find((e) => e.revision === upTo) : undefined;
  return {
    revision: at ? at.revision : null,
    recordedAt: at ? at.recordedAt.toISOString() : null,
    head: last.revision,
    state: withoutSecrets(state, false),
  };
}

/** Most events one story answers with; a booking's is a few dozen. */
export const STORY_MAX = 1000;

/** Every event recorded under one correlation id, across streams, in log order. */
export async function correlationStory(store: EventStore, correlationId: string): Promise<CorrelationEvents> {
  const events = await store.readByCorrelation(correlationId, { limit: STORY_MAX + 1 });
  return { events: events.slice(0, STORY_MAX).map(historyEvent), truncated: events.length > STORY_MAX };
}
