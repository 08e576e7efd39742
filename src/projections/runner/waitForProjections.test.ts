import postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import type { Sql } from '../../adapters/db/db.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { checkpointMoved, hearCheckpoints, parseCheckpointNotice } from './checkpointNotices.ts';
import { checkpointReadsMade, checkpointTableAfter } from './committedProgress.ts';
import { UnknownProjectionError, waitForProjections } from './projectionRunner.ts';

const at = (n: number) => String(n).padStart(40, '0');

let db: TestDatabase;
/** A client of its own that counts the statements reading the checkpoints table. */
let counted: Sql;
let reads = 0;

beforeAll(async () => {
  db = await createTestDatabase('wait');
  await migrate(db.sql);
  counted = postgres(db.url, {
    max: 4,
    onnotice: () => {},
    debug: (_connection, query) => {
      if (/FROM projection_checkpoints/.test(query)) reads++;
    },
  });
});
afterAll(async () => {
  await counted.end();
  await db.drop();
});
beforeEach(async () => {
  await db.sql`DELETE FROM projection_checkpoints`;
  await db.sql`INSERT INTO projection_checkpoints (name, position, status) VALUES ('sessions', ${at(1)}, 'running'), ('payouts', ${at(1)}, 'stopped')`;
  reads = 0;
});

describe('waiting for projections followed by another process (read your writes)', () => {
  it('answers every waiter once the table shows the position, the waiters sharing their reads of the table', async () => {
    const waiters = Array.from({ length: 30 }, () => waitForProjections(counted, ['sessions'], at(5), 5_000));
    await new Promise((r) => setTimeout(r, 150));
    await db.sql`UPDATE projection_checkpoints SET position = ${at(5)} WHERE name = 'sessions'`;
    expect(await Promise.all(waiters)).toEqual(Array(30).fill(true));
    // Each waiter reading for itself on its 2 → 25 ms backoff made about ten reads in 150 ms: 300 here.
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThan(15);
  });

  it('does not take the answer of a read sent before the wait began: it reads the table again', async () => {
    const before = checkpointTableAfter(counted, checkpointReadsMade());
    expect((await before.checkpoints).get('sessions')?.position).toBe(at(1));
    await db.sql`UPDATE projection_checkpoints SET position = ${at(5)} WHERE name = 'sessions'`;
    const readsBefore = reads;
    expect(await waitForProjections(counted, ['sessions'], at(5), 1_000)).toBe(true);
    expect(reads).toBe(readsBefore + 1);
  });

  it('gives up after its time while the projector stays behind, and does not wait for a stopped one', async () => {
    expect(await waitForProjections(counted, ['sessions'], at(5), 200)).toBe(false);
    expect(await waitForProjections(counted, ['payouts'], at(5), 5_000)).toBe(true);
  });

  it('throws for a name no projection has (a typo) instead of counting it as caught up, even beside a known one', async () => {
    // @ts-expect-error an unknown name does not compile: the names are those of the projector list
    await expect(waitForProjections(counted, ['sesions'], at(5), 5_000)).rejects.toThrow(UnknownProjectionError);
    // @ts-expect-error as above
    await expect(waitForProjections(counted, ['sessions', 'unknown'], at(5), 5_000)).rejects.toThrow('No projection is named unknown');
  });

  it('learns of a checkpoint committed by the projector process from its notice, without the table showing it', async () => {
    // This client stands for an API process; db.sql for the projector process that commits the batch.
    for (let i = 0; i < 200 && !hearCheckpoints(counted); i++) await new Promise((r) => setTimeout(r, 10));
    expect(hearCheckpoints(counted)).toBe(true);
    const waiting = waitForProjections(counted, ['sessions'], at(7), 5_000);
    await new Promise((r) => setTimeout(r, 50));
    const readsBefore = reads;
    // The table stays at 1: only the notice can answer the wait.
    checkpointMoved(db.sql, 'sessions', at(7), true);
    expect(await waiting).toBe(true);
    // Told by notices, the waiter read the table at most now and then, not on a 2 → 25 ms backoff.
    expect(reads - readsBefore).toBeLessThanOrEqual(1);
  });

  it('ignores a notice that is not a list of name and position pairs', () => {
    expect(parseCheckpointNotice('not json')).toEqual([]);
    expect(parseCheckpointNotice('{"sessions":"1"}')).toEqual([]);
    expect(parseCheckpointNotice(JSON.stringify([['sessions', at(3)], ['x', 4], 'y']))).toEqual([['sessions', at(3)]]);
  });
});
