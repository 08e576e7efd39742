import type { TransactionSql } from '../../adapters/db/db.ts';
import type { RecordedEvent } from '../../adapters/eventstore/eventStore.ts';
import { definitionOf, type EventType, type eventCatalog } from '../../domain/eventCatalog.ts';
import type { DataOf } from '../../domain/kit/eventDefinition.ts';
import type { ApplyTarget, Projector } from '../runner/projector.ts';
import type { AnyTable } from './table.ts';

/** A recorded event of a catalogued type, its data parsed by the catalogue's schema. */
export type ProjectedEvent<K extends EventType = EventType> = K extends EventType
  ? Omit<RecordedEvent, 'type' | 'data'> & { readonly type: K; readonly data: DataOf<typeof eventCatalog, K> }
  : never;

/**
 * What a projector of every event (`handles: '*'`) receives: catalogued events parsed, and any
 * other type (one no longer in the catalogue, say) as recorded. Narrow with `isEvent`.
 */
export type AnyEvent = ProjectedEvent | RecordedEvent;

export function isEvent<K extends EventType>(event: AnyEvent, type: K): event is ProjectedEvent<K> {
  return event.type === type;
}

interface Definition<Event> {
  name: string;
  /** The tables it owns: their DDL and indexes are its setup, a rebuild replaces exactly these. */
  tables: readonly AnyTable[];
  /**
   * A batch of the handled events, in log order; write it set-based, one statement per kind of
   * change. `target` says whether the tables are a rebuild's fresh ones (see `ApplyTarget`).
   */
  apply(tx: TransactionSql, events: Event[], target: ApplyTarget): Promise<void>;
}

/** Parses event data by its catalogue schema; data that does not match stops the projector at that event. */
function parsed(event: RecordedEvent): ProjectedEvent | null {
  const definition = definitionOf(event.type);
  if (!definition) return null;
  const result = definition.schema.safeParse(event.data);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || '(data)'}: ${i.message}`).join('; ');
    throw new Error(`Event ${event.id} (${event.type}) does not match its catalogue schema: ${issues}`);
  }
  return { ...event, data: result.data } as ProjectedEvent;
}

/**
 * A read model over catalogued events. The handled types are checked against the catalogue (a
 * type error, and an error here for a list built at run time) and `apply` receives the events
 * parsed and typed: a discriminated union over the handled types.
 */
export function defineProjection<const N extends string, const K extends EventType>(
  definition: Definition<ProjectedEvent<K>> & { name: N; handles: readonly K[] },
): Projector<N>;
export function defineProjection<const N extends string>(definition: Definition<AnyEvent> & { name: N; handles: '*' }): Projector<N>;
export function defineProjection(
  definition: (Definition<ProjectedEvent> & { handles: readonly EventType[] }) | (Definition<AnyEvent> & { handles: '*' }),
): Projector {
  const { name, handles, tables } = definition;
  if (handles !== '*') {
    const unknown = handles.filter((type) => !definitionOf(type));
    if (unknown.length > 0) throw new Error(`Projection ${name} handles event types the catalogue does not define: ${unknown.join(', ')}`);
    if (handles.length === 0) throw new Error(`Projection ${name} handles no event type`);
  }
  const handled = handles === '*' ? null : new Set<string>(handles);
  const indexes = tables.flatMap((t) => t.indexStatements);
  return {
    name,
    handles,
    tables: tables.map((t) => t.name),
    async setup(tx) {
      for (const t of tables) await tx.unsafe(t.ddl);
    },
    ...(indexes.length > 0 && { indexes }),
    async apply(tx, events, target = 'live') {
      if (definition.handles === '*') {
        if (events.length > 0)
          await definition.apply(
            tx,
            events.map((e) => parsed(e) ?? e),
            target,
          );
        return;
      }
      const typed = events.flatMap((e) => {
        const event = handled?.has(e.type) ? parsed(e) : null;
        return event ? [event] : [];
      });
      if (typed.length > 0) await definition.apply(tx, typed, target);
    },
  };
}
