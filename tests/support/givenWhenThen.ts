import { expect } from 'vitest';
import type { Command, Decider, DomainErrorKind, DomainEvent } from '../../src/domain/kit/decider.ts';

/** Decider specification: given past events, when a command, then these events or this refusal. */
export function deciderSpec<C extends Command, E extends DomainEvent, S>(decider: Decider<C, E, S>) {
  return {
    given(events: E[]) {
      const state = events.reduce(decider.evolve, decider.initialState);
      return {
        when(command: C) {
          const run = () => decider.decide(command, state);
          return {
            thenEvents(expected: E[]) {
              expect(run()).toEqual(expected);
            },
            thenNothing() {
              expect(run()).toEqual([]);
            },
            thenThrows(message: string | RegExp, kind?: DomainErrorKind) {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught, 'expected the command to be refused').toBeInstanceOf(Error);
              expect((caught as Error).message).toMatch(message);
              if (kind !== undefined) expect((caught as { kind?: string }).kind).toBe(kind);
            },
          };
        },
      };
    },
  };
}
