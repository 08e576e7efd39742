/**
 * The decider pattern: `decide(command, state) → events`, `evolve(state, event) → state`.
 * Pure: no I/O, no clock (time arrives inside the command).
 */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

export interface Decider<Command, Event extends DomainEvent, State> {
  initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}

export type DomainErrorStatus = 400 | 401 | 403 | 404 | 409 | 422 | 429;

/** A rule the command broke; its message is shown to the user as is. */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly status: DomainErrorStatus = 409,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function fold<Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  events: readonly Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState);
}
