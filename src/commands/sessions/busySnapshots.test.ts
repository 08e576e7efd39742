import { describe, expect, it } from 'vitest';
import { BusySnapshots } from './busySnapshots.ts';

describe('busy-time snapshots', () => {
  const busy = [{ start: '2026-01-05T15:00:00.000Z', end: '2026-01-05T16:00:00.000Z' }];

  it('fetches once for concurrent callers and within the TTL, again after it; filters to the asked range', async () => {
    let now = Date.parse('2026-01-05T12:00:00Z');
    let calls = 0;
    const snapshots = new BusySnapshots(
      async () => {
        calls += 1;
        await new Promise((r) => setTimeout(r, 5));
        return busy;
      },
      { ttlMs: 30_000, now: () => now },
    );
    const asked = await Promise.all(
      Array.from({ length: 10 }, () => snapshots.busy('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z')),
    );
    expect(calls).toBe(1);
    expect(asked[0]).toEqual(busy);
    expect(await snapshots.busy('t1', '2026-01-05T16:00:00.000Z', '2026-01-05T17:00:00.000Z')).toEqual([]);
    expect(calls).toBe(1);
    now += 31_000;
    await snapshots.busy('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z');
    expect(calls).toBe(2);
  });

  it('uses a stale snapshot while the calendar fails, and fails when it has none', async () => {
    let now = Date.parse('2026-01-05T12:00:00Z');
    let fail = false;
    const snapshots = new BusySnapshots(
      async () => {
        if (fail) throw new Error('calendar down');
        return busy;
      },
      { ttlMs: 1_000, staleMs: 60_000, now: () => now },
    );
    await snapshots.busy('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z');
    fail = true;
    now += 5_000;
    expect(await snapshots.busy('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z')).toEqual(busy);
    await expect(snapshots.busy('t2', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z')).rejects.toThrow('calendar down');
    now += 120_000;
    await expect(snapshots.busy('t1', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z')).rejects.toThrow('calendar down');
  });
});
