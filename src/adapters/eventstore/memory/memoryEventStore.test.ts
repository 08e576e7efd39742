import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventStoreContract } from '../eventStore.contract.ts';
import { type NewEvent, START, WrongExpectedRevisionError } from '../eventStore.ts';
import { MemoryEventStore } from './memoryEventStore.ts';

// The suite the PostgreSQL and EventStoreDB stores pass, against a fresh store in memory: no database.
eventStoreContract('memory', async () => {
  const store = new MemoryEventStore();
  return { store, dispose: () => store.close() };
});

const event = (data: unknown = { n: 1 }, metadata: NewEvent['metadata'] = {}): NewEvent => ({
  id: randomUUID(),
  type: 'Tested',
  data,
  metadata,
});

describe('the in-memory event store where PostgreSQL would show the difference', () => {
  it('stores data and metadata as JSON: mutating what was written or read changes nothing stored', async () => {
    const store = new MemoryEventStore();
    const written = event({ list: [1, 2], at: new Date('2030-01-02T03:04:05Z'), gone: undefined }, { actorId: 'u-1' });
    await store.append('thing-1', [written], 'no_stream');
    (written.data as { list: number[] }).list.push(3);
    written.metadata.actorId = 'someone-else';
    const [first] = await store.readStream('thing-1');
    expect(first?.data).toEqual({ list: [1, 2], at: '2030-01-02T03:04:05.000Z' });
    expect(first?.metadata).toEqual({ actorId: 'u-1' });
    (first as { data: { list: number[] } }).data.list.push(4);
    const [again] = await store.readAll(START, 10);
    expect(again?.data).toEqual({ list: [1, 2], at: '2030-01-02T03:04:05.000Z' });
  });

  it('checks the expected revision before the event ids, and refuses ids that are not UUIDs or are used elsewhere', async () => {
    const store = new MemoryEventStore();
    const events = [event(), event()];
    await store.append('a-1', events, 'no_stream');
    // A retry whose revision no longer holds is a conflict; with `any` it is answered as already appended.
    await expect(store.append('a-1', events, 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    await expect(store.append('a-1', events, { exact: 1 })).resolves.toMatchObject({ nextRevision: 1, alreadyAppended: true });
    await expect(store.append('b-1', [events[0] as NewEvent], 'any')).rejects.toThrow('Event ids already used elsewhere');
    await expect(store.append('a-1', [{ ...event(), id: 'not-a-uuid' }], 'any')).rejects.toThrow('is not a UUID');
    const twice = event();
    await expect(store.append('c-1', [twice, twice], 'no_stream')).rejects.toThrow('same event id twice');
    await expect(store.append('c-1', [], 'any')).rejects.toThrow('at least one event');
    // Nothing of a refused append was stored.
    expect(await store.listStreams()).toEqual([expect.objectContaining({ streamId: 'a-1', revision: 1 })]);
    expect(await store.countAfter(START)).toBe(2);
  });

  it('records events at the time its clock gives, and lists streams in stream-id order', async () => {
    let now = new Date('2031-05-06T07:00:00Z');
    const store = new MemoryEventStore({ now: () => now });
    await store.append('zeta-1', [event()], 'no_stream');
    now = new Date('2031-05-06T08:00:00Z');
    await store.append('alpha-1', [event()], 'no_stream');
    await store.append('zeta-1', [event()], { exact: 0 });
    expect((await store.readStream('zeta-1')).map((e) => e.recordedAt.toISOString())).toEqual([
      '2031-05-06T07:00:00.000Z',
      '2031-05-06T08:00:00.000Z',
    ]);
    expect((await store.listStreams()).map((s) => [s.streamId, s.category, s.revision, s.updatedAt.toISOString()])).toEqual([
      ['alpha-1', 'alpha', 0, '2031-05-06T08:00:00.000Z'],
      ['zeta-1', 'zeta', 1, '2031-05-06T08:00:00.000Z'],
    ]);
    expect(await store.listStreams({ category: 'zeta', limit: 1 })).toHaveLength(1);
    expect(await store.listStreams({ category: 'zet' })).toEqual([]);
  });

  it('wakes watchers on every append until they unsubscribe or the store closes', async () => {
    const store = new MemoryEventStore();
    let woken = 0;
    const unwatch = store.watch(() => woken++);
    store.watch(() => {
      throw new Error('a broken watcher does not fail the append');
    });
    await store.append('w-1', [event()], 'any');
    expect(woken).toBe(1);
    unwatch();
    await store.append('w-1', [event()], 'any');
    expect(woken).toBe(1);
    await store.close();
    await store.append('w-1', [event()], 'any');
    expect(await store.readStream('w-1')).toHaveLength(3);
    await expect(store.readAll('not-a-position', 1)).rejects.toThrow(RangeError);
  });
});
