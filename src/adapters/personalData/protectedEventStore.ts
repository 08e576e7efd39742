import type { EventCatalog } from '../../domain/eventDefinition.ts';
import type { EventStore, ExpectedRevision, NewEvent, Position, RecordedEvent, SubscribeOptions } from '../eventstore/eventStore.ts';
import { PersonalDataVault } from './personalDataVault.ts';

/**
 * An event store whose personal fields (declared per event type in the catalogue) are encrypted
 * with their subject's key on the way in and decrypted on the way out. Everything above it sees
 * plain data; everything below it (the log, backups, `streams:show` on the raw table) does not.
 */
export class ProtectedEventStore implements EventStore {
  readonly kind: EventStore['kind'];

  constructor(
    private readonly inner: EventStore,
    private readonly vault: PersonalDataVault,
    private readonly catalog: EventCatalog,
  ) {
    this.kind = inner.kind;
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision) {
    const personal = events.map((e) => {
      const p = this.catalog[e.type]?.personal;
      return p ? { fields: p.fields, subject: p.subject(e.data) } : null;
    });
    const subjects = personal.flatMap((p) => (p ? [p.subject] : []));
    if (subjects.length === 0) return this.inner.append(streamId, events, expected);
    const keys = await this.vault.keysFor(subjects);
    const sealed = events.map((e, i) => {
      const p = personal[i];
      if (!p) return e;
      const key = keys.get(p.subject) as Buffer;
      const data = { ...(e.data as Record<string, unknown>) };
      for (const field of p.fields) {
        const value = data[field];
        if (typeof value === 'string') data[field] = this.vault.encrypt(p.subject, key, value);
      }
      return { ...e, data };
    });
    return this.inner.append(streamId, sealed, expected);
  }

  private async open(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const sealed: string[] = [];
    for (const e of events) {
      const p = this.catalog[e.type]?.personal;
      if (!p) continue;
      const data = e.data as Record<string, unknown>;
      for (const f of p.fields) if (PersonalDataVault.isEncrypted(data[f])) sealed.push(data[f] as string);
    }
    if (sealed.length === 0) return events;
    const plain = await this.vault.decryptAll(sealed);
    return events.map((e) => {
      const p = this.catalog[e.type]?.personal;
      if (!p) return e;
      const data = { ...(e.data as Record<string, unknown>) };
      for (const f of p.fields) {
        const v = data[f];
        if (PersonalDataVault.isEncrypted(v)) data[f] = plain.get(v);
      }
      return { ...e, data };
    });
  }

  async readStream(streamId: string) {
    return this.open(await this.inner.readStream(streamId));
  }

  async readAll(from: Position, limit: number) {
    return this.open(await this.inner.readAll(from, limit));
  }

  /** The raw, still-encrypted log: what an operator or a backup sees. */
  readAllSealed(from: Position, limit: number) {
    return this.inner.readAll(from, limit);
  }

  readStreamSealed(streamId: string) {
    return this.inner.readStream(streamId);
  }

  headPosition() {
    return this.inner.headPosition();
  }

  countAfter(from: Position) {
    return this.inner.countAfter(from);
  }

  listStreams(options?: { category?: string; limit?: number }) {
    return this.inner.listStreams(options);
  }

  subscribe(from: Position, onBatch: (events: RecordedEvent[]) => Promise<void>, options?: SubscribeOptions) {
    return this.inner.subscribe(from, async (batch) => onBatch(await this.open(batch)), options);
  }

  watch(listener: () => void) {
    return this.inner.watch(listener);
  }

  close() {
    return this.inner.close();
  }
}
