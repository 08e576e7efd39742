import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { watchIndexBuild } from './projectionRunner.ts';

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
});
