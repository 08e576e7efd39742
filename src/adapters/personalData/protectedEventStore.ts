import { type EventCatalog, personalMetadataFields, personalSubjectOf } from '../../domain/kit/eventDefinition.ts';
import type {
  EventMetadata,
  EventStore,
  ExpectedRevision,
  NewEvent,
  Position,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
} from '../eventstore/eventStore.ts';
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
    const plan = events.map((e) => {
      const definition = this.catalog[e.type];
      const subject = personalSubjectOf(definition, e.data, e.metadata.actorId);
      return subject ? { fields: definition?.personal?.fields ?? [], subject } : null;
    });
    const subjects = plan.flatMap((p) => (p ? [p.subject] : []));
    if (subjects.length === 0) return this.inner.append(streamId, events, expected);
    const keys = await this.vault.keysFor(subjects);
    const sealed = events.map((e, i) => {
      const p = plan[i];
      if (!p) return e;
      const key = keys.get(p.subject) as Buffer;
      const seal = (record: Record<string, unknown>, fields: readonly string[]) => {
        const out = { ...record };
        for (const field of fields) {
          const value = out[field];
          if (typeof value === 'string') out[field] = this.vault.encrypt(p.subject, key, value);
        }
        return out;
      };
      return {
        ...e,
        data: seal(e.data as Record<string, unknown>, p.fields),
        metadata: seal(e.metadata, personalMetadataFields) as EventMetadata,
      };
    });
    return this.inner.append(streamId, sealed, expected);
  }

  private async open(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const sealedValues: string[] = [];
    const collect = (record: Record<string, unknown>) => {
      for (const v of Object.values(record)) if (PersonalDataVault.isEncrypted(v)) sealedValues.push(v);
    };
    for (const e of events) {
      collect(e.data as Record<string, unknown>);
      collect(e.metadata);
    }
    if (sealedValues.length === 0) return events;
    const plain = await this.vault.decryptAll(sealedValues);
    const unseal = <T extends Record<string, unknown>>(record: T): T => {
      let out: T | null = null;
      for (const [k, v] of Object.entries(record)) {
        if (!PersonalDataVault.isEncrypted(v)) continue;
        out ??= { ...record };
        (out as Record<string, unknown>)[k] = plain.get(v);
      }
      return out ?? record;
    };
    return events.map((e) => ({ ...e, data: unseal(e.data as Record<string, unknown>), metadata: unseal(e.metadata) }));
  }

  async readStream(streamId: string, options?: ReadStreamOptions) {
    return this.open(await this.inner.readStream(streamId, options));
  }

  async readAll(from: Position, limit: number) {
    return this.open(await this.inner.readAll(from, limit));
  }

  async readByCorrelation(correlationId: string, options?: { limit?: number }) {
    return this.open(await this.inner.readByCorrelation(correlationId, options));
  }

  /** The raw, still-encrypted log: what an operator or a backup sees. */
  readAllSealed(from: Position, limit: number) {
    return this.inner.readAll(from, limit);
  }

  readStreamSealed(streamId: string, options?: ReadStreamOptions) {
    return this.inner.readStream(streamId, options);
  }

  headPosition() {
    return this.inner.headPosition();
  }

  committedPosition() {
    return this.inner.committedPosition();
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
