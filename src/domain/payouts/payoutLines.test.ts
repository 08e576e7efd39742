import { describe, expect, it } from 'vitest';
import { billingPeriodOfDay, PAYOUT_TIME_ZONE } from './billingPeriod.ts';
import { adjustmentLines, periodsAdjustedBy, sessionLines, totalCents } from './payoutLines.ts';
import type { PayoutLine } from './payoutPeriod.ts';

const period = (day: string) => {
  const p = billingPeriodOfDay(day, PAYOUT_TIME_ZONE);
  if (!p) throw new Error(day);
  return p;
};

describe('payout arithmetic', () => {
  it('pays each session one hour at its rate, one line per tutor and rate (a rate change mid-period gives two)', () => {
    const lines = sessionLines([
      { tutorId: 't1', rateCents: 5000, sessions: 2 },
      { tutorId: 't1', rateCents: 4550, sessions: 3 },
      { tutorId: 't2', rateCents: null, sessions: 1 },
    ]);
    expect(lines).toEqual([
      { kind: 'sessions', tutorId: 't1', sessions: 3, rateCents: 4550, amountCents: 13650, adjusts: null },
      { kind: 'sessions', tutorId: 't1', sessions: 2, rateCents: 5000, amountCents: 10000, adjusts: null },
      { kind: 'sessions', tutorId: 't2', sessions: 1, rateCents: null, amountCents: 0, adjusts: null },
    ]);
    expect(totalCents(lines)).toBe(23650);
  });

  it('adjusts an approved period by what its sessions come to now minus what was approved for it', () => {
    const settled: PayoutLine[] = [
      { kind: 'sessions', tutorId: 't1', sessions: 2, rateCents: 4000, amountCents: 8000, adjusts: null },
      { kind: 'sessions', tutorId: 't2', sessions: 1, rateCents: 3000, amountCents: 3000, adjusts: null },
      // an earlier adjustment already paid t2 one late session
      { kind: 'adjustment', tutorId: 't2', sessions: 1, rateCents: null, amountCents: 3000, adjusts: '2026-11-01' },
    ];
    const owed = [
      { tutorId: 't1', rateCents: 4500, sessions: 3 }, // a retroactive rate and one late completion
      { tutorId: 't2', rateCents: 3000, sessions: 2 }, // nothing new
    ];
    expect(adjustmentLines('2026-11-01', owed, settled)).toEqual([
      { kind: 'adjustment', tutorId: 't1', sessions: 1, rateCents: null, amountCents: 5500, adjusts: '2026-11-01' },
    ]);
  });

  it('an open period carries the changes of the approved periods right before it, and only those', () => {
    const approved = new Set(['2026-11-01', '2026-10-16', '2026-09-16']);
    expect(periodsAdjustedBy(period('2026-11-20'), (d) => approved.has(d)).map((p) => p.firstDay)).toEqual(['2026-11-01', '2026-10-16']);
    expect(periodsAdjustedBy(period('2026-10-05'), (d) => approved.has(d)).map((p) => p.firstDay)).toEqual(['2026-09-16']);
    expect(periodsAdjustedBy(period('2026-12-01'), (d) => approved.has(d))).toEqual([]);
  });
});
