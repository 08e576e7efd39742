import { LRUCache } from 'lru-cache';

/**
 * Folded state of recently used streams, per decider, least recently used first out. An entry is
 * only a guess at the stream's head: the append's expected revision proves it or refutes it.
 */
export class FoldedStateCache {
  private readonly entries: LRUCache<string, object>;
  private readonly ids = new WeakMap<object, number>();
  private nextId = 0;

  constructor(capacity = 10_000) {
    this.entries = new LRUCache({ max: capacity });
  }

  private key(decider: object, streamId: string): string {
    let id = this.ids.get(decider);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(decider, id);
    }
    return `${id}\u0001${streamId}`;
  }

  get<T>(decider: object, streamId: string): T | undefined {
    return this.entries.get(this.key(decider, streamId)) as T | undefined;
  }

  set(decider: object, streamId: string, value: object): void {
    this.entries.set(this.key(decider, streamId), value);
  }

  delete(decider: object, streamId: string): void {
    this.entries.delete(this.key(decider, streamId));
  }
}
