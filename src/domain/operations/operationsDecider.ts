import { type Command, type Decider, decideWith } from '../kit/decider.ts';
import type { DataOf } from '../kit/eventDefinition.ts';
import {
  evolveOperations,
  initialOperationsState,
  type OperationsEvent,
  type OperationsState,
  type operationsEvents,
} from './operationsEvents.ts';

export type OperationsCommand =
  | Command<'RecordProjectorStopped', DataOf<typeof operationsEvents, 'ProjectorStopped'>>
  | Command<'RecordJobGaveUp', DataOf<typeof operationsEvents, 'JobGaveUp'>>;

export const decideOperations = decideWith<OperationsCommand, OperationsEvent, OperationsState>({
  RecordProjectorStopped: ({ data }, state) => (state.recorded ? [] : [{ type: 'ProjectorStopped', data }]),
  RecordJobGaveUp: ({ data }, state) => (state.recorded ? [] : [{ type: 'JobGaveUp', data }]),
});

export const operationsDecider: Decider<OperationsCommand, OperationsEvent, OperationsState> = {
  initialState: initialOperationsState,
  evolve: evolveOperations,
  decide: decideOperations,
};
