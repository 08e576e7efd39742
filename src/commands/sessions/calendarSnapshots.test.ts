import { describe, expect, it } from 'vitest';
import { CalendarSnapshots } from './calendarSnapshots.ts';

describe('calendar snapshots', () => {
  const busy = [{ start: '2026-01-05T15:00:00.000Z', end: '2026-01-05T16:00:00.000Z' }];
  const hours = [{ start: '2026-01-05T13:00:00.000Z', end: '2026-01-05T20:00:00.000Z' }];
  const of = (b: typeof busy) => ({ hours, busy: b });

  it('fetches once for concurrent callers and within the TTL, again after it; filters to the asked range', async () => {
    let now = Date.parse('2026-01-05T12:00:00Z');
    let calls = 0;
    const snapshots = new CalendarSnapshots(
      async () => {
        calls += 1;
        await new Promise((r) => setTimeout(r, 5));
        return of(busy);
      },
      async () => 0,
      { ttlMs: 30_000, now: () => now },
    );
    const asked = await Promise.all(
      Array.from({ length: 10 }, () => snapshots.time('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z')),
    );
    expect(calls).toBe(1);
    expect(asked[0]).toEqual({ hours, busy });
    expect(await snapshots.time('t1', '2026-01-05T16:00:00.000Z', '2026-01-05T17:00:00.000Z')).toEqual({ hours, busy: [] });
    expect(calls).toBe(1);
    now += 31_000;
    await snapshots.time('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z');
    expect(calls).toBe(2);
  });

  it('uses a stale snapshot while the calendar fails, and fails when it has none', async () => {
    let now = Date.parse('2026-01-05T12:00:00Z');
    let fail = false;
    const snapshots = new CalendarSnapshots(
      async () => {
        if (fail) throw new Error('calendar down');
        return of(busy);
      },
      async () => 0,
      { ttlMs: 1_000, staleMs: 60_000, now: () => now },
    );
    await snapshots.time('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z');
    fail = true;
    now += 5_000;
    expect(await snapshots.time('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z')).toEqual({ hours, busy });
    await expect(snapshots.time('t2', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z')).rejects.toThrow('calendar down');
    now += 120_000;
    await expect(snapshots.time('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z')).rejects.toThrow('calendar down');
  });

  it("fetches again as soon as the calendar's shared revision moves (a change made through another process)", async () => {
    const now = Date.parse('2026-01-05T12:00:00Z');
    let revision = 3;
    let held = busy;
    let calls = 0;
    const snapshots = new CalendarSnapshots(
      async () => {
        calls += 1;
        return of(held);
      },
      async () => revision,
      { ttlMs: 30_000, now: () => now },
    );
    const range = ['2026-01-05T14:00:00.000Z', '2026-01-05T19:00:00.000Z'] as const;
    expect((await snapshots.time('t1', ...range)).busy).toEqual(busy);
    // Another process adds a busy hour and raises the revision; the clock has not moved at all.
    const added = { start: '2026-01-05T17:00:00.000Z', end: '2026-01-05T18:00:00.000Z' };
    held = [...busy, added];
    revision = 4;
    expect((await snapshots.time('t1', ...range)).busy).toEqual([...busy, added]);
    expect(calls).toBe(2);
    expect((await snapshots.time('t1', ...range)).busy).toEqual([...busy, added]);
    expect(calls).toBe(2);
  });

  it('does not fall back to a snapshot of an older revision while the calendar fails', async () => {
    let revision = 1;
    let fail = false;
    const snapshots = new CalendarSnapshots(
      async () => {
        if (fail) throw new Error('calendar down');
        return of(busy);
      },
      async () => revision,
      { ttlMs: 1_000, staleMs: 60_000, now: () => Date.parse('2026-01-05T12:00:00Z') },
    );
    await snapshots.time('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z');
    fail = true;
    revision = 2;
    await expect(snapshots.time('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z')).rejects.toThrow('calendar down');
  });

  it('withholds the hours when the grant is gone: no older snapshot stands in for a failure that is not transient', async () => {
    let fail: Error | null = null;
    const snapshots = new CalendarSnapshots(
      async () => {
        if (fail) throw fail;
        return of(busy);
      },
      async () => 1,
      {
        ttlMs: 1_000,
        staleMs: 60_000,
        now: (() => {
          let t = Date.parse('2026-01-05T12:00:00Z');
          return () => (t += 2_000);
        })(),
        transient: (e) => e instanceof Error && e.message === 'timeout',
      },
    );
    await snapshots.time('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z');
    fail = new Error('timeout');
    expect((await snapshots.time('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z')).busy).toEqual(busy);
    fail = new Error('invalid_grant');
    await expect(snapshots.time('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z')).rejects.toThrow('invalid_grant');
  });
});
