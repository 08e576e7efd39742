import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { EventStore, RecordedEvent } from '../../src/adapters/eventstore/eventStore.ts';
import { MemoryEventStore } from '../../src/adapters/eventstore/memory/memoryEventStore.ts';
import { type CommandContext, commandContext } from '../../src/commands/kit/commandContext.ts';
import { toNewEvents } from '../../src/commands/kit/handleCommand.ts';
import { DomainError, type DomainErrorKind, type DomainEvent } from '../../src/domain/kit/decider.ts';

/**
 * API specification of a feature's use cases, over the in-memory event store (no database):
 *
 *   given  the events already on some streams (checked against the event catalogue, as appended),
 *   when   a use case of the feature's command module is called (handlers built over that store),
 *   then   exactly these events were appended, per stream, and this was the answer (thenAppended)
 *          — or thenRefused: this rule's message and kind, and nothing (or only these) appended.
 *
 * It runs the real command kit (load, decide, expected-revision append, retries on conflict,
 * idempotent retries, compensations), so a rule that spans streams or holds under concurrency is
 * specified here; what needs PostgreSQL (read models, SQL, the store's own behaviour) keeps its
 * PostgreSQL suite. Files named `*.api.test.ts` are such specifications: `npm run test:nodb`
 * (tests/vitest.nodb.config.ts) runs them with no database.
 */

/** What a specification's `when` receives: the feature's module, the store, and contexts at the spec's time. */
export interface ApiCall {
  store: EventStore;
  now: Date;
  /** A command context for `actorId` in `actorRole`, at the spec's time (a fresh command id each call). */
  as(actorRole: string, actorId?: string | null, partial?: Partial<CommandContext>): CommandContext;
}

export interface Appended {
  /** Every event appended by `when`, in log order. */
  events: RecordedEvent[];
  /** The same, as `{ type, data }` per stream. */
  byStream: Record<string, DomainEvent[]>;
}

export interface Expected<Answer = unknown> {
  /**
   * Every stream `when` appended to, with its events in order; a stream not named must have
   * nothing new. A function of the answer when the use case names its streams (ids it derives).
   */
  appended: Record<string, DomainEvent[]> | ((answer: Answer) => Record<string, DomainEvent[]>);
  /** The answer of `when` (toEqual: asymmetric matchers welcome); unchecked when left out. */
  answer?: unknown;
}

export const SPEC_NOW = new Date('2030-03-04T10:00:00.000Z');

export function apiSpec<Module>(build: (store: EventStore) => Module, options: { now?: Date } = {}) {
  const now = options.now ?? SPEC_NOW;
  return {
    given(streams: Record<string, DomainEvent[]> = {}) {
      return {
        when<Answer>(act: (module: Module, call: ApiCall) => Promise<Answer>) {
          const run = async () => {
            const store = new MemoryEventStore({ now: () => now });
            for (const [streamId, events] of Object.entries(streams)) {
              if (events.length === 0) continue;
              const ctx = commandContext({ actorId: 'given', actorRole: 'system', now });
              await store.append(streamId, toNewEvents(events, ctx), 'no_stream');
            }
            const from = await store.headPosition();
            const call: ApiCall = {
              store,
              now,
              as: (actorRole, actorId = null, partial = {}) => commandContext({ actorRole, actorId, ...partial, now: partial.now ?? now }),
            };
            const outcome = await act(build(store), call).then(
              (answer) => ({ ok: true as const, answer }),
              (error: unknown) => ({ ok: false as const, error }),
            );
            return { outcome, appended: await appendedAfter(store, from) };
          };
          return {
            /** The use case succeeded with exactly these appends (and this answer). */
            async thenAppended(expected: Expected<Answer>): Promise<Appended & { answer: Answer }> {
              const { outcome, appended } = await run();
              if (!outcome.ok) throw outcome.error;
              const streams = typeof expected.appended === 'function' ? expected.appended(outcome.answer) : expected.appended;
              expect(appended.byStream).toEqual(streams);
              if ('answer' in expected) expect(outcome.answer).toEqual(expected.answer);
              return { ...appended, answer: outcome.answer };
            },
            /**
             * The use case was refused by a rule: a DomainError with this message (and kind), and
             * nothing appended unless `appended` says what (a claim and its compensation).
             */
            async thenRefused(
              message: string | RegExp,
              kind?: DomainErrorKind,
              expected: { appended: Record<string, DomainEvent[]> } = { appended: {} },
            ): Promise<Appended & { error: DomainError }> {
              const { outcome, appended } = await run();
              if (outcome.ok) throw new Error(`expected a refusal (${String(message)}), got ${JSON.stringify(outcome.answer)}`);
              expect(outcome.error, 'expected a DomainError').toBeInstanceOf(DomainError);
              const error = outcome.error as DomainError;
              expect(error.message).toMatch(message);
              if (kind !== undefined) expect(error.kind).toBe(kind);
              expect(appended.byStream).toEqual(expected.appended);
              return { ...appended, error };
            },
          };
        },
      };
    },
  };
}

async function appendedAfter(store: EventStore, from: string): Promise<Appended> {
  const events = await store.readAll(from, Number.MAX_SAFE_INTEGER);
  const byStream: Record<string, DomainEvent[]> = {};
  for (const e of events) {
    const stream = byStream[e.streamId] ?? [];
    stream.push({ type: e.type, data: e.data });
    byStream[e.streamId] = stream;
  }
  return { events, byStream };
}

/** An id for a spec's entities (a course, a promo code) that no two specs share. */
export const specId = (prefix: string) => `${prefix}-${randomUUID()}`;
