import type { TransactionSql } from '../../adapters/db/db.ts';
import type { RecordedEvent } from '../../adapters/eventstore/eventStore.ts';

/**
 * A read model kept from the log. `setup` and `apply` use unqualified table names: the runner
 * points `search_path` at fresh tables during a rebuild, so the same code fills either.
 */
/**
 * Where a batch goes: the live tables, or a rebuild's fresh ones, which only the replay writes,
 * once per event and in log order (no row can be there yet, so inserts may bulk-load by COPY).
 */
export type ApplyTarget = 'live' | 'fresh';

export interface Projector<Name extends string = string> {
  /** Its checkpoint's name: a literal, so that the projector list gives the names a wait may use. */
  name: Name;
  /** Event types it handles, or '*' for every event. */
  handles: readonly string[] | '*';
  /** The tables it owns; a rebuild replaces exactly these. */
  tables: readonly string[];
  setup(tx: TransactionSql): Promise<void>;
  /**
   * Secondary indexes, one `CREATE INDEX IF NOT EXISTS` each: a rebuild creates them after the
   * bulk load (faster than maintaining them row by row), several side by side.
   */
  indexes?: readonly string[];
  /** Applies a batch with set-based writes, inside the runner's transaction. */
  apply(tx: TransactionSql, events: RecordedEvent[], target?: ApplyTarget): Promise<void>;
}

/** The handled types as a set, per list (sixteen projectors filter every batch). */
const handledTypes = new WeakMap<readonly string[], ReadonlySet<string>>();

export function handledBy(projector: Pick<Projector, 'handles'>, events: RecordedEvent[]): RecordedEvent[] {
  const handles = projector.handles;
  if (handles === '*') return events;
  let types = handledTypes.get(handles);
  if (!types) {
    types = new Set(handles);
    handledTypes.set(handles, types);
  }
  const set = types;
  return events.filter((e) => set.has(e.type));
}
