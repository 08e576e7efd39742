import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { reservationDecider } from '../../domain/accounts/reservationDecider.ts';
import { contactStreamId } from '../../domain/contact/contact.ts';
import { receiveContactMessage, recordContactMailSent } from '../contact/receiveContactMessage.ts';
import { commandContext, eventIdFor } from './commandContext.ts';
import { FoldedStateCache } from './foldedStateCache.ts';
import { commandHandler } from './handleCommand.ts';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem('cli');
});
afterAll(async () => system.dispose());

const message = { name: 'Ann Lee', email: 'ann@example.com', subject: 'Hello', message: 'Hi' };

describe('command handler', () => {
  it('derives event ids from the command id and stamps the metadata', async () => {
    const ctx = commandContext({ actorId: 'u1', actorRole: 'admin', ip: '127.0.0.1', userAgent: 'test', now: system.clock.now() });
    const { contactId } = await receiveContactMessage(system.store, message, ctx);
    const [event] = await system.store.readStream(contactStreamId(contactId));
    expect(event?.id).toBe(eventIdFor(ctx.commandId, 0));
    expect(event?.metadata).toMatchObject({
      actorId: 'u1',
      actorRole: 'admin',
      commandId: ctx.commandId,
      correlationId: ctx.commandId,
      ip: '127.0.0.1',
    });
  });

  it('answers a retried command with its first events and appends nothing', async () => {
    const ctx = commandContext({ now: system.clock.now() });
    const first = await receiveContactMessage(system.store, message, ctx);
    const retry = await receiveContactMessage(system.store, message, ctx);
    expect(retry.alreadyHandled).toBe(true);
    expect(retry.position).toBe(first.position);
    expect(await system.store.readStream(contactStreamId(first.contactId))).toHaveLength(1);
  });

  it('retries on a concurrency conflict and decides again on fresh state', async () => {
    const { contactId } = await receiveContactMessage(system.store, message, commandContext({ now: system.clock.now() }));
    // Ten concurrent reports of the same two mails: conflicts are retried, and the decider's
    // "already recorded" rule then turns the duplicates into no-ops.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        recordContactMailSent(
          system.store,
          contactId,
          i % 2 ? 'confirmation' : 'support',
          `m${i % 2}`,
          commandContext({ now: system.clock.now() }),
        ),
      ),
    );
    const types = (await system.store.readStream(contactStreamId(contactId))).map((e) => e.type);
    expect(types.filter((t) => t === 'ContactConfirmationSent')).toHaveLength(1);
    expect(types.filter((t) => t === 'SupportNotifiedOfContact')).toHaveLength(1);
  });

  it('refuses event data that breaks its schema before anything is appended', async () => {
    const bad = { ...message, email: 'ann@example.com', name: 'x'.repeat(10) };
    const { contactId } = await receiveContactMessage(system.store, bad, commandContext({ now: system.clock.now() }));
    await expect(
      recordContactMailSent(system.store, contactId, 'support', 42 as unknown as string, commandContext({ now: system.clock.now() })),
    ).rejects.toThrow();
    expect(await system.store.readStream(contactStreamId(contactId))).toHaveLength(1);
  });

  it('keeps personal data encrypted in the log and readable through the store', async () => {
    const { contactId } = await receiveContactMessage(system.store, message, commandContext({ now: system.clock.now() }));
    const [sealed] = await system.store.readStreamSealed(contactStreamId(contactId));
    expect(JSON.stringify(sealed?.data)).not.toContain('ann@example.com');
    expect(JSON.stringify(sealed?.data)).not.toContain('Ann Lee');
    const [open] = await system.store.readStream(contactStreamId(contactId));
    expect(open?.data).toMatchObject({ email: 'ann@example.com', name: 'Ann Lee' });
    await system.vault.shred(`contact-${contactId}`);
    const [erased] = await system.store.readStream(contactStreamId(contactId));
    expect(erased?.data).toMatchObject({ email: '[erased]', name: '[erased]', subject: '[erased]', message: '[erased]' });
  });

  it('corrects a stale cached state with the expected revision (another process wrote in between)', async () => {
    // Two handlers with their own caches stand for two API processes.
    const a = commandHandler(system.store, reservationDecider, (id) => id, new FoldedStateCache());
    const b = commandHandler(system.store, reservationDecider, (id) => id, new FoldedStateCache());
    const stream = `usernameReservation-cache${Date.now()}`;
    await a.handle(
      stream,
      { type: 'Reserve', data: { holderId: 'user-a', takenMessage: 'taken' } },
      commandContext({ now: system.clock.now() }),
    );
    await b.handle(stream, { type: 'Release', data: { holderId: 'user-a' } }, commandContext({ now: system.clock.now() }));
    await b.handle(
      stream,
      { type: 'Reserve', data: { holderId: 'user-b', takenMessage: 'taken' } },
      commandContext({ now: system.clock.now() }),
    );
    // a's cache still says "held by a": releasing on it would append; the revision check refutes it.
    const stale = await a.handle(stream, { type: 'Release', data: { holderId: 'user-a' } }, commandContext({ now: system.clock.now() }));
    expect(stale.events).toEqual([]);
    // a's cache says "held by a" no more; a refusal on a guessed state is decided again on the stream.
    await expect(
      a.handle(
        stream,
        { type: 'Reserve', data: { holderId: 'user-c', takenMessage: 'taken' } },
        commandContext({ now: system.clock.now() }),
      ),
    ).rejects.toThrow('taken');
    expect((await system.store.readStream(stream)).map((e) => e.type)).toEqual(['ValueReserved', 'ValueReleased', 'ValueReserved']);
  });

  it('never answers "nothing to do" from a cached state another process has moved past', async () => {
    const a = commandHandler(system.store, reservationDecider, (id) => id, new FoldedStateCache());
    const b = commandHandler(system.store, reservationDecider, (id) => id, new FoldedStateCache());
    const stream = `usernameReservation-noop${Date.now()}`;
    await a.handle(
      stream,
      { type: 'Reserve', data: { holderId: 'user-a', takenMessage: 'taken' } },
      commandContext({ now: system.clock.now() }),
    );
    await a.handle(stream, { type: 'Release', data: { holderId: 'user-a' } }, commandContext({ now: system.clock.now() }));
    // Another process takes the value for user-b; a's cache still says it is free.
    await b.handle(
      stream,
      { type: 'Reserve', data: { holderId: 'user-b', takenMessage: 'taken' } },
      commandContext({ now: system.clock.now() }),
    );
    // On a's cache, releasing user-b's claim is a no-op; on the stream it is a release.
    const released = await a.handle(stream, { type: 'Release', data: { holderId: 'user-b' } }, commandContext({ now: system.clock.now() }));
    expect(released.events.map((e) => e.type)).toEqual(['ValueReleased']);
    // And the other way: a's cache now says free, b's says held by b; b's "already mine" must read on.
    await a.handle(
      stream,
      { type: 'Reserve', data: { holderId: 'user-c', takenMessage: 'taken' } },
      commandContext({ now: system.clock.now() }),
    );
    await expect(
      b.handle(
        stream,
        { type: 'Reserve', data: { holderId: 'user-b', takenMessage: 'taken' } },
        commandContext({ now: system.clock.now() }),
      ),
    ).rejects.toThrow('taken');
    expect((await system.store.readStream(stream)).map((e) => e.type)).toEqual([
      'ValueReserved',
      'ValueReleased',
      'ValueReserved',
      'ValueReleased',
      'ValueReserved',
    ]);
  });

  it('after a conflict reads only the events past its cached revision, and folds them onto the cached state', async () => {
    const reads: (number | undefined)[] = [];
    const counting = Object.create(system.store) as typeof system.store;
    counting.readStream = (streamId, options) => {
      reads.push(options?.fromRevision);
      return system.store.readStream(streamId, options);
    };
    const a = commandHandler(counting, reservationDecider, (id) => id, new FoldedStateCache());
    const b = commandHandler(system.store, reservationDecider, (id) => id, new FoldedStateCache());
    const stream = `usernameReservation-catchup${Date.now()}`;
    await a.handle(
      stream,
      { type: 'Reserve', data: { holderId: 'user-a', takenMessage: 'taken' } },
      commandContext({ now: system.clock.now() }),
    );
    await a.handle(stream, { type: 'Release', data: { holderId: 'user-a' } }, commandContext({ now: system.clock.now() }));
    // Another process takes the name twice over; a's entry is two events behind.
    await b.handle(
      stream,
      { type: 'Reserve', data: { holderId: 'user-b', takenMessage: 'taken' } },
      commandContext({ now: system.clock.now() }),
    );
    await b.handle(stream, { type: 'Release', data: { holderId: 'user-b' } }, commandContext({ now: system.clock.now() }));
    await b.handle(
      stream,
      { type: 'Reserve', data: { holderId: 'user-b', takenMessage: 'taken' } },
      commandContext({ now: system.clock.now() }),
    );
    reads.length = 0;
    await expect(
      a.handle(
        stream,
        { type: 'Reserve', data: { holderId: 'user-c', takenMessage: 'taken' } },
        commandContext({ now: system.clock.now() }),
      ),
    ).rejects.toThrow('taken');
    // The guess (revision 1) was refuted by the append; the retry read from revision 2 on, not the whole stream.
    expect(reads).toEqual([2]);
    expect(await a.load(stream)).toEqual(await b.load(stream));
    expect(reads).toEqual([2, 5]);
  });

  it('refuses text PostgreSQL cannot store before anything is appended', async () => {
    const ctx = commandContext({ now: system.clock.now() });
    for (const name of ['Nul\u0000Name', 'Lone\uD800Surrogate']) {
      await expect(
        receiveContactMessage(system.store, { ...message, name }, commandContext({ now: system.clock.now() })),
      ).rejects.toMatchObject({ kind: 'invalid' });
    }
    const ok = await receiveContactMessage(system.store, { ...message, name: 'Emoji 😀 ok' }, ctx);
    expect(ok.position).not.toBeNull();
  });
});
