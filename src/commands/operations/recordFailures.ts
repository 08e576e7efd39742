import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { operationsDecider } from '../../domain/operations/operationsDecider.ts';
import { jobFailureStreamId, projectorFailureStreamId } from '../../domain/operations/operationsEvents.ts';
import { commandContext, deterministicUuid } from '../kit/commandContext.ts';
import { commandHandler } from '../kit/handleCommand.ts';

const system = { actorRole: 'system' } as const;

export function recordProjectorStopped(
  store: EventStore,
  data: { projector: string; eventId: string; eventType: string; error: string },
  now: Date,
) {
  const key = `${data.projector}/${data.eventId}`;
  return commandHandler(store, operationsDecider, projectorFailureStreamId).handle(
    deterministicUuid(key),
    { type: 'RecordProjectorStopped', data: { ...data, stoppedAt: now.toISOString() } },
    commandContext({ ...system, commandId: deterministicUuid(`projector-stopped/${key}`), now }),
  );
}

export function recordJobGaveUp(store: EventStore, data: { queue: string; jobId: string; error: string; attempts: number }, now: Date) {
  return commandHandler(store, operationsDecider, jobFailureStreamId).handle(
    data.jobId,
    { type: 'RecordJobGaveUp', data: { ...data, gaveUpAt: now.toISOString() } },
    commandContext({ ...system, commandId: deterministicUuid(`job-gave-up/${data.jobId}`), now }),
  );
}
