import { randomUUID } from 'node:crypto';
import type { Sql } from '../../adapters/db/db.ts';
import { type EventMetadata, type NewEvent, type Position, START } from '../../adapters/eventstore/eventStore.ts';
import { PostgresEventStore } from '../../adapters/eventstore/postgres/postgresEventStore.ts';
import type { EventType, eventCatalog } from '../../domain/eventCatalog.ts';
import type { DataOf } from '../../domain/kit/eventDefinition.ts';
import { ProjectionRunner } from '../runner/projectionRunner.ts';
import type { Projector } from '../runner/projector.ts';
import type { AnyTable, ReadRowOf } from './table.ts';

/**
 * Test support for projection specs: given events (appended to a real PostgreSQL log and applied
 * by the runner, as in production) → then rows. A database of its own per spec file, migrated.
 */

export interface GivenEvent {
  stream: string;
  type: string;
  data: unknown;
  metadata?: EventMetadata;
  id?: string;
}

/** One event of the catalogue, its data typed by the catalogue. */
export function event<K extends EventType>(
  stream: string,
  type: K,
  data: DataOf<typeof eventCatalog, K>,
  extra: { metadata?: EventMetadata; id?: string } = {},
): GivenEvent {
  return { stream, type, data, ...extra };
}

export interface ProjectionSpec {
  /** Appends the events, in order, then applies them: one batch, or batches of `batchSize`. */
  given(...events: GivenEvent[]): Promise<void>;
  rows<T extends AnyTable>(table: T, where?: { [C in keyof T['columns'] & string]?: string }): Promise<ReadRowOf<T>[]>;
  /** Every row of every table of the projectors, to compare a live read model with a rebuilt one. */
  snapshot(): Promise<Record<string, unknown[]>>;
  rebuild(): Promise<void>;
  status(name: string): Promise<string | undefined>;
  /**
   * The errors of batches that failed to apply. The runner retries a failed batch event by event,
   * so a projector that fails on an intermediate state ends up right but is slow: specs expect none.
   */
  failures(): string[];
}

export async function projectionSpec(
  sql: Sql,
  projectors: readonly Projector[],
  options: { batchSize?: number } = {},
): Promise<ProjectionSpec> {
  const store = new PostgresEventStore(sql);
  const failures: string[] = [];
  const watched = projectors.map(
    (p): Projector => ({
      ...p,
      async apply(tx, events, target) {
        try {
          await p.apply(tx, events, target);
        } catch (error) {
          failures.push(`${p.name}: ${error instanceof Error ? error.message : String(error)}`);
          throw error;
        }
      },
    }),
  );
  const runner = new ProjectionRunner(sql, store, watched, { batchSize: options.batchSize ?? 1000, pollMs: 50 });
  await runner.setup();
  const tables = projectors.flatMap((p) => p.tables);
  const rowsOf = async <T extends AnyTable>(table: T, where: Record<string, string | undefined> = {}) => {
    const filters = Object.entries(where).filter(([, v]) => v !== undefined);
    const clause = filters.length > 0 ? `WHERE ${filters.map(([c], i) => `"${c}"::text = $${i + 1}`).join(' AND ')}` : '';
    return sql.unsafe<ReadRowOf<T>[]>(
      `SELECT * FROM ${table.name} ${clause} ORDER BY "${table.primaryKey}"`,
      filters.map(([, v]) => v as string),
    );
  };
  return {
    async given(...events) {
      let last: Position = START;
      for (const e of events) {
        const recorded: NewEvent = { id: e.id ?? randomUUID(), type: e.type, data: e.data, metadata: e.metadata ?? {} };
        last = (await store.append(e.stream, [recorded], 'any')).position;
      }
      // An event becomes readable once no older transaction is open (in any database of the
      // server): catch up until every projector has passed the last one, or has stopped.
      const deadline = Date.now() + 10_000;
      for (;;) {
        await runner.catchUp();
        const [behind] = await sql<{ n: bigint }[]>`
          SELECT count(*) AS n FROM projection_checkpoints
          WHERE name = ANY(${projectors.map((p) => p.name)}::text[]) AND status = 'running' AND position < ${last}`;
        if (Number(behind?.n ?? 0) === 0) return;
        if (Date.now() > deadline) throw new Error('the projectors did not catch up with the given events');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    rows: rowsOf,
    async snapshot() {
      const out: Record<string, unknown[]> = {};
      for (const t of tables) out[t] = [...(await sql.unsafe(`SELECT * FROM ${t} ORDER BY 1`))];
      return out;
    },
    async rebuild() {
      for (const p of projectors) await runner.rebuild(p.name);
    },
    failures: () => [...failures],
    async status(name) {
      return (await runner.status()).find((s) => s.name === name)?.status;
    },
  };
}
