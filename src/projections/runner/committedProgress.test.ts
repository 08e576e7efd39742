import { describe, expect, it } from 'vitest';
import type { Sql } from '../../adapters/db/db.ts';
import { checkpointCommitted, committedHere, nextCommit } from './committedProgress.ts';

// Two databases' pools: only identity matters here.
const one = {} as Sql;
const other = {} as Sql;
const at = (n: number) => String(n).padStart(40, '0');

describe('checkpoints committed in this process', () => {
  it('answers per database and per projector, never from another database’s positions', () => {
    checkpointCommitted(one, 'sessions', at(10));
    checkpointCommitted(one, 'student_courses', at(7));
    expect(committedHere(one, ['sessions'], at(10))).toBe(true);
    expect(committedHere(one, ['sessions', 'student_courses'], at(9))).toBe(false);
    expect(committedHere(other, ['sessions'], at(1))).toBe(false);
    // A later commit never moves a checkpoint back.
    checkpointCommitted(one, 'sessions', at(5));
    expect(committedHere(one, ['sessions'], at(10))).toBe(true);
  });

  it('wakes a waiter at the next commit, or after its time', async () => {
    const woken = nextCommit(10_000);
    checkpointCommitted(other, 'sessions', at(3));
    await expect(Promise.race([woken.then(() => 'woken'), new Promise((r) => setTimeout(() => r('slept'), 1000))])).resolves.toBe('woken');
    const started = Date.now();
    await nextCommit(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });
});
