import { expect } from 'vitest';
import type { Decider, DomainEvent } from '../../src/domain/decider.ts';

/** Decider specification: given past events, when a command, then these events or this error. */
export function deciderSpec<Command, Event extends DomainEvent, State>(decider: Decider<Command, Event, State>) {
  return {
    given(events: Event[]) {
      const state = events.reduce(decider.evolve, decider.initialState);
      return {
        when(command: Command) {
          const run = () => decider.decide(command, state);
          return {
            thenEvents(expected: Event[]) {
              expect(run()).toEqual(expected);
            },
            thenNothing() {
              expect(run()).toEqual([]);
            },
            thenThrows(message: string | RegExp, status?: number) {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught, 'expected the command to be refused').toBeInstanceOf(Error);
              expect((caught as Error).message).toMatch(message);
              if (status !== undefined) expect((caught as { status?: number }).status).toBe(status);
            },
          };
        },
      };
    },
  };
}
