import type { DomainEvent } from './decider.ts';

/**
 * A process that spans streams (deletion, booking, purchase, payout): events in, commands out.
 * Pure like a decider. Its state is folded per instance (e.g. per user) from the events it
 * handles; `react` answers each event with the steps to take, each named, so that the runner can
 * derive every command id from (workflow, event, step): a replayed event takes no step twice.
 * A step that fails compensates by the events it then causes (e.g. a claim released), never by
 * a swallowed error.
 */
export interface Workflow<Input extends DomainEvent, State, Step extends { step: string }> {
  name: string;
  handles: readonly Input['type'][];
  /** Which instance an event belongs to; null: not this workflow's business. */
  instanceOf(event: Input): string | null;
  initialState: State;
  evolve(state: State, event: Input): State;
  /** The steps an event calls for, given the instance's state after the event. */
  react(state: State, event: Input): Step[];
  /** A finished instance's state is forgotten. */
  isFinished(state: State): boolean;
}

/** Given events (folded), when an event, then these steps: the workflow's specification form. */
export function stepsAfter<Input extends DomainEvent, State, Step extends { step: string }>(
  workflow: Workflow<Input, State, Step>,
  given: readonly Input[],
  when: Input,
): Step[] {
  const state = [...given, when].reduce(workflow.evolve, workflow.initialState);
  return workflow.react(state, when);
}
