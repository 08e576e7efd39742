import { defineProjection, type ProjectedEvent } from '../kit/defineProjection.ts';
import { foldRows } from '../kit/foldRows.ts';
import { insertRows } from '../kit/writes.ts';
import {
  type PayoutLineRow,
  type PayoutPeriodRow,
  type PayoutRateRow,
  type PayoutSessionRow,
  payoutLines,
  payoutPeriods,
  payoutRates,
  payoutSessions,
} from './tables.ts';

const handles = [
  'SessionBooked',
  'SessionRescheduled',
  'SessionCancelled',
  'SessionCompleted',
  'TutorProfileCreated',
  'TutorRateChanged',
  'PayoutPeriodApproved',
  'PayoutPeriodMarkedPaid',
] as const;
type Handled = ProjectedEvent<(typeof handles)[number]>;
type SessionEvent = Extract<Handled, { type: 'SessionBooked' | 'SessionRescheduled' | 'SessionCancelled' | 'SessionCompleted' }>;
type PeriodEvent = Extract<Handled, { type: 'PayoutPeriodApproved' | 'PayoutPeriodMarkedPaid' }>;

const isSessionEvent = (e: Handled): e is SessionEvent =>
  e.type === 'SessionBooked' || e.type === 'SessionRescheduled' || e.type === 'SessionCancelled' || e.type === 'SessionCompleted';
const isPeriodEvent = (e: Handled): e is PeriodEvent => e.type === 'PayoutPeriodApproved' || e.type === 'PayoutPeriodMarkedPaid';

/** A rate on the profile at creation (none so far: admins set rates) counts from the beginning. */
const SINCE_ALWAYS = '1970-01-01T00:00:00.000Z';

function applySession(row: PayoutSessionRow | null, e: SessionEvent): PayoutSessionRow | null {
  switch (e.type) {
    case 'SessionBooked':
      return row ?? { id: e.data.sessionId, tutor_id: e.data.tutorId, start_at: e.data.start, status: 'scheduled', payable: false };
    case 'SessionRescheduled':
      return row && { ...row, start_at: e.data.start };
    case 'SessionCancelled':
      // The cancellation names the start it read: the hour the forfeited credit paid for.
      return {
        id: e.data.sessionId,
        tutor_id: e.data.tutorId,
        start_at: e.data.start,
        status: 'cancelled',
        payable: e.data.credit === 'forfeited',
      };
    case 'SessionCompleted':
      return row && { ...row, status: 'completed', payable: true };
  }
}

function applyPeriod(row: PayoutPeriodRow | null, e: PeriodEvent): PayoutPeriodRow | null {
  if (e.type === 'PayoutPeriodApproved') {
    return (
      row ?? {
        id: e.data.periodStart,
        period_end: e.data.periodEnd,
        status: 'approved',
        total_cents: e.data.totalCents,
        approved_by: e.data.approvedBy,
        approved_at: e.data.at,
        payment_method: null,
        payment_reference: null,
        paid_by: null,
        paid_at: null,
      }
    );
  }
  return (
    row && {
      ...row,
      status: 'paid',
      payment_method: e.data.method,
      payment_reference: e.data.reference,
      paid_by: e.data.paidBy,
      paid_at: e.data.at,
    }
  );
}

/**
 * Payouts per tutor per billing period: the sessions and rates open periods are computed from,
 * and the figures approvals froze. Everything here follows from the log alone, so a rebuild gives
 * the same previews, the same approved lines and the same adjustments.
 */
export const payoutsProjector = defineProjection({
  name: 'payouts',
  handles,
  tables: [payoutSessions, payoutRates, payoutPeriods, payoutLines],
  async apply(tx, events) {
    const rates: PayoutRateRow[] = [];
    const lines: PayoutLineRow[] = [];
    for (const e of events) {
      if (e.type === 'TutorRateChanged') {
        rates.push({
          id: e.id,
          tutor_id: e.data.tutorId,
          effective_from: e.data.effectiveFrom,
          hourly_rate_cents: e.data.hourlyRateCents,
          position: e.position,
        });
      } else if (e.type === 'TutorProfileCreated' && e.data.hourlyRate !== null) {
        rates.push({
          id: e.id,
          tutor_id: e.data.tutorId,
          effective_from: SINCE_ALWAYS,
          hourly_rate_cents: Math.round(e.data.hourlyRate * 100),
          position: e.position,
        });
      } else if (e.type === 'PayoutPeriodApproved') {
        e.data.lines.forEach((l, i) => {
          lines.push({
            id: `${e.data.periodStart}/${i}`,
            period_start: e.data.periodStart,
            line_no: i,
            kind: l.kind,
            tutor_id: l.tutorId,
            sessions: l.sessions,
            rate_cents: l.rateCents,
            amount_cents: l.amountCents,
            adjusts: l.adjusts,
          });
        });
      }
    }
    await foldRows(tx, payoutSessions, events.filter(isSessionEvent), { keyOf: (e) => e.data.sessionId, apply: applySession });
    await foldRows(tx, payoutPeriods, events.filter(isPeriodEvent), { keyOf: (e) => e.data.periodStart, apply: applyPeriod });
    await insertRows(tx, payoutRates, rates, 'nothing');
    // A period is approved once: its lines never change afterwards.
    await insertRows(tx, payoutLines, lines, 'nothing');
  },
});
