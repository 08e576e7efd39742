import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { START } from '../../adapters/eventstore/eventStore.ts';
import { PostgresEventStore } from '../../adapters/eventstore/postgres/postgresEventStore.ts';
import { buildIndexes } from './indexBuilds.ts';
import { watchIndexBuild } from './projectionRunner.ts';
import type { Projector } from './projector.ts';

describe('a rebuild’s indexing phase', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('indexprogress');
    await migrate(db.sql);
  });
  afterAll(() => db.drop());

  it('reports PostgreSQL’s progress of the index being built while it is built', async () => {
    // Enough rows for the build to take several progress reads.
    await db.sql`CREATE TABLE big AS SELECT g, md5(g::text) AS h FROM generate_series(1, 1500000) AS g`;
    await db.sql`INSERT INTO projection_rebuilds (name, status, phase) VALUES ('big', 'running', 'indexing')`;
    const seen = new Set<string>();
    const reader = setInterval(() => {
      void db.sql<{ step_done: string | null; step_total: string | null }[]>`
        SELECT step_done::text, step_total::text FROM projection_rebuilds WHERE name = 'big'`.then(([row]) => {
        if (row?.step_done) seen.add(`${row.step_done}/${row.step_total}`);
      });
    }, 50);
    await db.sql.begin(async (tx) => {
      const [backend] = await tx<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      const watching = watchIndexBuild(db.sql, 'big', [backend?.pid ?? 0]);
      try {
        await tx`CREATE INDEX big_h ON big (h)`;
      } finally {
        await watching.stop();
      }
    });
    clearInterval(reader);
    // The figures moved during the build (more than one distinct reading), each within its total.
    expect(seen.size).toBeGreaterThan(1);
    for (const reading of seen) {
      const [done, total] = reading.split('/').map(Number);
      expect(done).toBeLessThanOrEqual(total ?? 0);
    }
  });

  it('does not hold the log back from its readers while it builds (a rebuild must not stall the live followers)', async () => {
    // The table of the test above: one index over it takes about a second on these machines.
    const store = new PostgresEventStore(db.sql);
    await db.sql`CREATE SCHEMA IF NOT EXISTS rebuild_big`;
    const projector = { name: 'big', indexes: ['CREATE INDEX big_h_again ON public.big (h, g)'] } as unknown as Projector;
    let built = false;
    const building = buildIndexes(db.sql, projector, 'rebuild_big', pLimit(1)).then(() => {
      built = true;
    });
    // Wait until the build is running (it has a transaction id by then).
    for (let i = 0; i < 200; i++) {
      const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_progress_create_index`;
      if ((row?.n ?? 0) > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const id = randomUUID();
    await store.append(`big-${id}`, [{ id, type: 'Counted', data: {}, metadata: {} }], 'no_stream');
    const seen = (await store.readAll(START, 100_000)).some((e) => e.id === id);
    const stillBuilding = !built;
    await building;
    // Only meaningful if the build was still under way when the log was read.
    expect(stillBuilding).toBe(true);
    expect(seen).toBe(true);
  });
});
