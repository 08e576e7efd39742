import { PAYOUT_TIME_ZONE, previousBillingPeriod, type Span } from './billingPeriod.ts';
import type { PayoutLine } from './payoutPeriod.ts';

/**
 * The arithmetic of a payout (issue 12 §3), pure: each payable session (completed, or cancelled
 * too late and forfeited) is one hour at the rate in force at its start; money in integer cents.
 */

/** Payable sessions of one tutor in one period at one rate (null: no rate in force, paid 0). */
export interface SessionTally {
  tutorId: string;
  rateCents: number | null;
  sessions: number;
}

const amountOf = (t: SessionTally) => t.sessions * (t.rateCents ?? 0);

/** One line per tutor and rate: a rate change mid-period gives the tutor two lines, each `sessions × rate`. */
export function sessionLines(tallies: readonly SessionTally[]): PayoutLine[] {
  return tallies
    .filter((t) => t.sessions > 0)
    .map((t) => ({
      kind: 'sessions' as const,
      tutorId: t.tutorId,
      sessions: t.sessions,
      rateCents: t.rateCents,
      amountCents: amountOf(t),
      adjusts: null,
    }))
    .sort((a, b) => a.tutorId.localeCompare(b.tutorId) || (a.rateCents ?? -1) - (b.rateCents ?? -1));
}

/**
 * What an approved period still owes (or overpaid) each tutor: what its sessions come to now
 * (`owed`, recomputed from the events) minus what was approved for it (`settled`: its own
 * session lines and every adjustment approved since for it). Only tutors with a difference get a line.
 */
export function adjustmentLines(adjusts: string, owed: readonly SessionTally[], settled: readonly PayoutLine[]): PayoutLine[] {
  const diff = new Map<string, { sessions: number; amountCents: number }>();
  const add = (tutorId: string, sessions: number, amountCents: number) => {
    const d = diff.get(tutorId) ?? { sessions: 0, amountCents: 0 };
    diff.set(tutorId, { sessions: d.sessions + sessions, amountCents: d.amountCents + amountCents });
  };
  for (const t of owed) add(t.tutorId, t.sessions, amountOf(t));
  for (const l of settled) add(l.tutorId, -l.sessions, -l.amountCents);
  return [...diff.entries()]
    .filter(([, d]) => d.sessions !== 0 || d.amountCents !== 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tutorId, d]) => ({
      kind: 'adjustment' as const,
      tutorId,
      sessions: d.sessions,
      rateCents: null,
      amountCents: d.amountCents,
      adjusts,
    }));
}

export const totalCents = (lines: readonly PayoutLine[]) => lines.reduce((sum, l) => sum + l.amountCents, 0);

/**
 * The approved periods whose changes an open period carries: the run of approved periods right
 * before it (back to the previous open one), newest first. A change to an approved period thus
 * lands in the first open period after it, and only there, so nothing is paid twice.
 */
export function periodsAdjustedBy(open: Span, isApproved: (firstDay: string) => boolean, limit = 240): Span[] {
  const run: Span[] = [];
  let p = previousBillingPeriod(open, PAYOUT_TIME_ZONE);
  while (isApproved(p.firstDay) && run.length < limit) {
    run.push(p);
    p = previousBillingPeriod(p, PAYOUT_TIME_ZONE);
  }
  return run;
}
