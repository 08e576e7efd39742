import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { alertStreamId } from '../../domain/operations/alert.ts';
import { alertDecider } from '../../domain/operations/alertDecider.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { commandHandler } from '../kit/handleCommand.ts';

export function alertHandlers(store: EventStore) {
  return { alerts: commandHandler(store, alertDecider, alertStreamId) };
}
export type AlertHandlers = ReturnType<typeof alertHandlers>;

/** Closes an alert with what was done; `raised` is the alert as the read model knows it. */
export function resolveAlert(
  handlers: AlertHandlers,
  input: { alertId: string; note: string; raised: { resolved: boolean } | null },
  ctx: CommandContext,
) {
  return handlers.alerts.handle(input.alertId, { type: 'ResolveAlert', data: input }, ctx);
}
