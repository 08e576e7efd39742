import type { z } from 'zod';
import type { Decider } from '../decider.ts';
import type { jobGaveUp, projectorStopped } from './operationsEvents.ts';

export type OperationsEvent =
  | { type: 'ProjectorStopped'; data: z.infer<typeof projectorStopped> }
  | { type: 'JobGaveUp'; data: z.infer<typeof jobGaveUp> };

export type OperationsCommand =
  | { type: 'RecordProjectorStopped'; data: z.infer<typeof projectorStopped> }
  | { type: 'RecordJobGaveUp'; data: z.infer<typeof jobGaveUp> };

/** One stream per failure: recording the same failure twice is a no-op. */
export const operationsDecider: Decider<OperationsCommand, OperationsEvent, { recorded: boolean }> = {
  initialState: { recorded: false },
  evolve: () => ({ recorded: true }),
  decide(command, state) {
    if (state.recorded) return [];
    return command.type === 'RecordProjectorStopped'
      ? [{ type: 'ProjectorStopped', data: command.data }]
      : [{ type: 'JobGaveUp', data: command.data }];
  },
};
