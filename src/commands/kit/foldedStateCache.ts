/**
 * Folded state of recently used streams, per decider, least recently used first out. An entry is
 * only a guess at the stream's head: the append's expected revision proves it or refutes it.
 */
export class FoldedStateCache {
  private readonly entries = new Map<string, unknown>();
  private readonly ids = new WeakMap<object, number>();
  private nextId = 0;

  constructor(private readonly capacity = 10_000) {}

  private key(decider: object, streamId: string): string {
    let id = this.ids.get(decider);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(decider, id);
    }
    return `${id}\u0001${streamId}`;
  }

  get<T>(decider: object, streamId: string): T | undefined {
    const key = this.key(decider, streamId);
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value as T;
  }

  set(decider: object, streamId: string, value: unknown): void {
    const key = this.key(decider, streamId);
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  delete(decider: object, streamId: string): void {
    this.entries.delete(this.key(decider, streamId));
  }
}
