import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventStore, type NewEvent, type RecordedEvent, START, WrongExpectedRevisionError } from './eventStore.ts';

export interface ContractTarget {
  store: EventStore;
  dispose(): Promise<void>;
}

const event = (type = 'Tested', data: unknown = { n: 1 }): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: { commandId: randomUUID() },
});

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** One behaviour, two adapters: every EventStore implementation must pass this suite. */
export function eventStoreContract(name: string, create: () => Promise<ContractTarget | null>): void {
  describe(`event store contract: ${name}`, () => {
    let target: ContractTarget | null = null;
    let store: EventStore;

    beforeAll(async () => {
      target = await create();
      if (target) store = target.store;
    });
    afterAll(async () => {
      await target?.dispose();
    });

    const stream = (category = 'contract') => `${category}-${randomUUID()}`;

    /**
     * The head once everything appended so far is readable. A reader may briefly see less than
     * was committed (PostgreSQL: a transaction anywhere in the cluster holds the visibility
     * horizon back), never a gap: once a marker appended now is readable, so is all before it.
     */
    const settledHead = async () => {
      const marker = await store.append(stream('marker'), [event('Marker')], 'no_stream');
      await until(async () => (await store.headPosition()) >= marker.position, 'the marker to be readable');
      return marker.position;
    };

    it('appends to a new stream with no_stream and refuses a second no_stream append', async (ctx) => {
      if (!target) return ctx.skip();
      const id = stream();
      const result = await store.append(id, [event(), event()], 'no_stream');
      expect(result.nextRevision).toBe(1);
      const error = await store.append(id, [event()], 'no_stream').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WrongExpectedRevisionError);
      expect((error as WrongExpectedRevisionError).actual).toBe(1);
      expect((await store.readStream(id)).map((e) => e.revision)).toEqual([0, 1]);
    });

    it('appends with an exact revision only when it matches', async (ctx) => {
      if (!target) return ctx.skip();
      const id = stream();
      await store.append(id, [event()], 'no_stream');
      const ok = await store.append(id, [event()], { exact: 0 });
      expect(ok.nextRevision).toBe(1);
      const stale = await store.append(id, [event()], { exact: 0 }).catch((e: unknown) => e);
      expect(stale).toBeInstanceOf(WrongExpectedRevisionError);
      const missing = await store.append(stream(), [event()], { exact: 0 }).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(WrongExpectedRevisionError);
      expect((missing as WrongExpectedRevisionError).actual).toBe('no_stream');
      expect(await store.readStream(id)).toHaveLength(2);
    });

    it('appends with any whether or not the stream exists', async (ctx) => {
      if (!target) return ctx.skip();
      const id = stream();
      expect((await store.append(id, [event()], 'any')).nextRevision).toBe(0);
      expect((await store.append(id, [event(), event()], 'any')).nextRevision).toBe(2);
      const read = await store.readStream(id);
      expect(read.map((e) => e.revision)).toEqual([0, 1, 2]);
      expect(read.every((e) => e.streamId === id)).toBe(true);
    });

    it('reads a stream up to a revision, from a revision, or a slice of it', async (ctx) => {
      if (!target) return ctx.skip();
      const id = stream();
      await store.append(id, [event(), event(), event()], 'no_stream');
      await store.append(id, [event(), event()], { exact: 2 });
      const revisions = async (options?: { fromRevision?: number; toRevision?: number }) =>
        (await store.readStream(id, options)).map((e) => e.revision);
      expect(await revisions()).toEqual([0, 1, 2, 3, 4]);
      expect(await revisions({ toRevision: 2 })).toEqual([0, 1, 2]);
      expect(await revisions({ toRevision: 0 })).toEqual([0]);
      expect(await revisions({ fromRevision: 3 })).toEqual([3, 4]);
      expect(await revisions({ fromRevision: 1, toRevision: 3 })).toEqual([1, 2, 3]);
      expect(await revisions({ fromRevision: 2, toRevision: 2 })).toEqual([2]);
      expect(await revisions({ toRevision: 99 })).toEqual([0, 1, 2, 3, 4]);
      expect(await revisions({ fromRevision: 5 })).toEqual([]);
      expect(await revisions({ fromRevision: 3, toRevision: 1 })).toEqual([]);
      expect(await store.readStream(stream(), { toRevision: 3 })).toEqual([]);
      const full = await store.readStream(id);
      expect(await store.readStream(id, { fromRevision: 1, toRevision: 2 })).toEqual(full.slice(1, 3));
      await expect(store.readStream(id, { toRevision: -1 })).rejects.toThrow(RangeError);
      await expect(store.readStream(id, { fromRevision: 1.5 })).rejects.toThrow(RangeError);
    });

    it('keeps type, data and metadata as written', async (ctx) => {
      if (!target) return ctx.skip();
      const id = stream();
      const written = event('ThingHappened', { nested: { a: [1, 2] }, text: 'é ✓' });
      written.metadata = { actorId: 'u-1', actorRole: 'admin', commandId: randomUUID(), correlationId: 'c' };
      await store.append(id, [written], 'no_stream');
      const [read] = await store.readStream(id);
      expect(read).toMatchObject({ id: written.id, type: 'ThingHappened', data: written.data, revision: 0 });
      expect(read?.metadata).toMatchObject(written.metadata);
      expect(read?.recordedAt).toBeInstanceOf(Date);
    });

    it('appends nothing again when the same event ids are retried', async (ctx) => {
      if (!target) return ctx.skip();
      const id = stream();
      const events = [event(), event()];
      const first = await store.append(id, events, 'no_stream');
      const again = await store.append(id, events, 'any');
      expect(again.alreadyAppended).toBe(true);
      expect(again.position).toBe(first.position);
      expect(await store.readStream(id)).toHaveLength(2);
    });

    it('lets exactly one of 20 concurrent appends with the same expected revision win', async (ctx) => {
      if (!target) return ctx.skip();
      const id = stream();
      await store.append(id, [event()], 'no_stream');
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => store.append(id, [event()], { exact: 0 })));
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(19);
      for (const r of lost) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
      expect(await store.readStream(id)).toHaveLength(2);
    });

    it('lets exactly one of 20 concurrent no_stream appends create the stream', async (ctx) => {
      if (!target) return ctx.skip();
      const id = stream();
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => store.append(id, [event()], 'no_stream')));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(await store.readStream(id)).toHaveLength(1);
    });

    it('reads the global log in batches in append order, and counts what follows a position', async (ctx) => {
      if (!target) return ctx.skip();
      const head = await settledHead();
      const id = stream();
      const written = Array.from({ length: 7 }, (_, i) => event('Numbered', { i }));
      for (const e of written) await store.append(id, [e], 'any');
      await until(async () => (await store.countAfter(head)) >= 7, 'the seven events to be readable');
      expect(await store.countAfter(head)).toBe(7);
      const seen: RecordedEvent[] = [];
      let from = head;
      for (;;) {
        const batch = await store.readAll(from, 3);
        if (batch.length === 0) break;
        expect(batch.length).toBeLessThanOrEqual(3);
        seen.push(...batch);
        from = (batch[batch.length - 1] as RecordedEvent).position;
      }
      expect(seen.map((e) => e.id)).toEqual(written.map((e) => e.id));
      expect(await store.headPosition()).toBe(from);
      const positions = seen.map((e) => e.position);
      expect([...positions].sort()).toEqual(positions);
      expect(positions[0]! > head || head === START).toBe(true);
    });

    it('finds the events of every stream sharing a correlation id, in log order, up to a limit', async (ctx) => {
      if (!target) return ctx.skip();
      const correlationId = randomUUID();
      const correlated = (type: string) => ({ ...event(type), metadata: { commandId: randomUUID(), correlationId } });
      const [a, b] = [stream('booking'), stream('ledger')];
      const written = [correlated('HourClaimed'), correlated('CreditReserved'), correlated('SessionBooked')];
      await store.append(a, [written[0] as NewEvent], 'no_stream');
      await store.append(b, [event('Unrelated'), written[1] as NewEvent], 'no_stream');
      await store.append(a, [written[2] as NewEvent], { exact: 0 });
      await until(async () => (await store.readByCorrelation(correlationId)).length >= 3, 'the correlated events to be readable');
      const found = await store.readByCorrelation(correlationId);
      expect(found.map((e) => [e.id, e.streamId])).toEqual([
        [written[0]?.id, a],
        [written[1]?.id, b],
        [written[2]?.id, a],
      ]);
      expect(found.map((e) => e.revision)).toEqual([0, 1, 1]);
      const positions = found.map((e) => e.position);
      expect([...positions].sort()).toEqual(positions);
      expect((await store.readByCorrelation(correlationId, { limit: 2 })).map((e) => e.id)).toEqual([written[0]?.id, written[1]?.id]);
      expect(await store.readByCorrelation(randomUUID())).toEqual([]);
    });

    it('lists streams by category', async (ctx) => {
      if (!target) return ctx.skip();
      const category = `cat${randomUUID().slice(0, 8)}`;
      const a = stream(category);
      const b = stream(category);
      await store.append(a, [event()], 'no_stream');
      await store.append(b, [event(), event()], 'no_stream');
      const listed = await store.listStreams({ category });
      expect(listed.map((s) => s.streamId).sort()).toEqual([a, b].sort());
      expect(listed.find((s) => s.streamId === b)?.revision).toBe(1);
    });

    it('delivers every event exactly once, in the order of a fresh read, to a live subscriber and a catch-up reader while 8 writers append 5,000 events each', async (ctx) => {
      if (!target) return ctx.skip();
      const start = await settledHead();
      const writers = 8;
      const perWriter = 5000;
      const total = writers * perWriter;
      const live: string[] = [];
      let resolveLive: () => void = () => {};
      const liveDone = new Promise<void>((r) => {
        resolveLive = r;
      });
      const subscription = store.subscribe(
        start,
        async (batch) => {
          for (const e of batch) live.push(e.id);
          if (live.length >= total) resolveLive();
        },
        { batchSize: 500, pollMs: 50 },
      );

      const catchUp: string[] = [];
      let writing = true;
      const catchUpReader = (async () => {
        let from = start;
        while (writing || catchUp.length < total) {
          const batch = await store.readAll(from, 700);
          if (batch.length === 0) {
            await new Promise((r) => setTimeout(r, 5));
            continue;
          }
          for (const e of batch) catchUp.push(e.id);
          from = (batch[batch.length - 1] as RecordedEvent).position;
        }
      })();

      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          const id = stream(`writer${w}`);
          for (let i = 0; i < perWriter; i++) {
            await store.append(id, [event('Written', { w, i })], i === 0 ? 'no_stream' : { exact: i - 1 });
          }
        }),
      );
      writing = false;
      await Promise.race([
        Promise.all([liveDone, catchUpReader]),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error(`timed out: live ${live.length}, catch-up ${catchUp.length}`)), 60_000),
        ),
      ]);
      await subscription.stop();

      // A reader may briefly see less than was committed (a transaction such as an autovacuum
      // ANALYZE holds the visibility horizon back); it must never see a gap, so read to the end.
      const fresh: string[] = [];
      let from = start;
      const deadline = Date.now() + 30_000;
      while (fresh.length < total && Date.now() < deadline) {
        const batch = await store.readAll(from, 5000);
        if (batch.length === 0) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        for (const e of batch) fresh.push(e.id);
        from = (batch[batch.length - 1] as RecordedEvent).position;
      }
      expect(fresh.length, `fresh read; live ${live.length}, catch-up ${catchUp.length}, unique live ${new Set(live).size}`).toBe(total);
      expect(new Set(fresh).size).toBe(total);
      expect(live).toEqual(fresh);
      expect(catchUp).toEqual(fresh);
    }, 180_000);
  });
}
