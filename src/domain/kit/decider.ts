/**
 * The decider pattern: `decide(command, state) → events`, `evolve(state, event) → state`.
 * Pure: no I/O, no clock (time arrives in the command's metadata).
 */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** What every command carries besides its data: the time of the decision and who asked. */
export interface CommandMetadata {
  now: Date;
  actorId?: string | null;
  actorRole?: string | null;
}

/** Every command has one form: `{ type, data, metadata: { now, … } }`. */
export interface Command<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
  metadata: CommandMetadata;
}

export interface Decider<C extends Command, E extends DomainEvent, S> {
  initialState: S;
  evolve(state: S, event: E): S;
  decide(command: C, state: S): E[];
}

/** One function per command type; the compiler refuses a decider that forgets one. */
export type CommandHandlers<C extends Command, E extends DomainEvent, S> = {
  [K in C['type']]: (command: Extract<C, { type: K }>, state: S) => E[];
};

/** An exhaustive `decide` from one function per command type. */
export function decideWith<C extends Command, E extends DomainEvent, S>(handlers: CommandHandlers<C, E, S>): (command: C, state: S) => E[] {
  return (command, state) => (handlers[command.type as C['type']] as (c: C, s: S) => E[])(command, state);
}

export function fold<E extends DomainEvent, S>(decider: Pick<Decider<Command, E, S>, 'initialState' | 'evolve'>, events: readonly E[]): S {
  return events.reduce(decider.evolve, decider.initialState);
}

/** The command's data with its metadata: what callers pass to a command handler (it adds `metadata`). */
export type CommandInput<C extends Command> = C extends Command ? Omit<C, 'metadata'> & { metadata?: Partial<CommandMetadata> } : never;

export { DomainError, type DomainErrorKind } from './domainError.ts';
