import { correlationEventsSchema, entityEventsSchema, entityStateSchema } from '@shared/operations/entityHistoryApi.ts';
import type { EntityKind } from '@shared/operations/entityKinds.ts';
import { api } from '../../app/api.ts';

const segment = (value: string) => encodeURIComponent(value);
const entityPath = (kind: EntityKind, id: string) => `/api/admin/entities/${kind}/${segment(id)}`;

/** Entity history and time travel (issue 12 §6); answers read through `@shared/operations/entityHistoryApi.ts`. */
export const entityHistoryApi = {
  eventsKey: (kind: EntityKind, id: string) => ['/api/admin/entities', kind, id, 'events'] as const,
  /** One page of events from a revision (the server pages by 1,000). */
  events: (kind: EntityKind, id: string, from: number, signal?: AbortSignal) =>
    api.get(`${entityPath(kind, id)}/events?from=${from}`, entityEventsSchema, signal ? { signal } : {}),

  stateKey: (kind: EntityKind, id: string, point: string) => ['/api/admin/entities', kind, id, 'state', point] as const,
  /** `point` is `revision=N` or `at=ISO`, as the server takes it. */
  state: (kind: EntityKind, id: string, point: string, signal?: AbortSignal) =>
    api.get(`${entityPath(kind, id)}/state?${point}`, entityStateSchema, signal ? { signal } : {}),

  correlationKey: (correlationId: string) => ['/api/admin/correlations', correlationId] as const,
  correlation: (correlationId: string, signal?: AbortSignal) =>
    api.get(`/api/admin/correlations/${segment(correlationId)}/events`, correlationEventsSchema, signal ? { signal } : {}),
};
