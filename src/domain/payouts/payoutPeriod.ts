import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/**
 * A billing period's payout (issue 12 §3; stream `payoutPeriod-<yyyy-MM-dd of its first day>`):
 * open until finance approves it, which freezes its lines as an event, then paid. What the read
 * model computes for an open period is a preview; once approved, the event's lines are the figures,
 * and anything that changes them later is an adjustment line of the next open period.
 */

export const payoutLineKinds = ['sessions', 'adjustment'] as const;
export type PayoutLineKind = (typeof payoutLineKinds)[number];

/** Money in integer cents; `rateCents` null on adjustments and when the tutor had no rate in force. */
export const payoutLineSchema = z.object({
  kind: z.enum(payoutLineKinds),
  tutorId: z.string(),
  /** Sessions paid (each one hour); on an adjustment, the net change in payable sessions. */
  sessions: z.number().int(),
  rateCents: z.number().int().nullable(),
  amountCents: z.number().int(),
  /** The approved period an adjustment corrects (its first day); null on session lines. */
  adjusts: z.string().nullable(),
});
export type PayoutLine = z.output<typeof payoutLineSchema>;

export const payoutPeriodApproved = z.object({
  periodStart: z.string(),
  periodEnd: z.string(),
  lines: z.array(payoutLineSchema),
  totalCents: z.number().int(),
  approvedBy: z.string().nullable(),
  at: z.string(),
});

export const payoutMethods = ['direct_deposit', 'e_transfer', 'cheque', 'other'] as const;
export type PayoutMethod = (typeof payoutMethods)[number];

export const payoutPeriodMarkedPaid = z.object({
  periodStart: z.string(),
  method: z.enum(payoutMethods),
  reference: z.string(),
  paidBy: z.string().nullable(),
  at: z.string(),
});

export const payoutPeriodEvents = {
  PayoutPeriodApproved: eventType(payoutPeriodApproved, {
    describe: (d) =>
      `Payout period ${d.periodStart} – ${d.periodEnd} approved: ${d.lines.length} line(s), ${(d.totalCents / 100).toFixed(2)}`,
  }),
  PayoutPeriodMarkedPaid: eventType(payoutPeriodMarkedPaid, {
    describe: (d) => `Payout period ${d.periodStart} marked paid (${d.method})`,
  }),
};
export type PayoutPeriodEvent = EventsOf<typeof payoutPeriodEvents>;

export type PayoutStatus = 'open' | 'approved' | 'paid';

export interface PayoutPeriodState {
  status: PayoutStatus;
  periodStart: string | null;
  periodEnd: string | null;
  lines: PayoutLine[];
  totalCents: number;
  approvedBy: string | null;
  approvedAt: string | null;
  method: PayoutMethod | null;
  reference: string | null;
  paidAt: string | null;
}

export const initialState: PayoutPeriodState = {
  status: 'open',
  periodStart: null,
  periodEnd: null,
  lines: [],
  totalCents: 0,
  approvedBy: null,
  approvedAt: null,
  method: null,
  reference: null,
  paidAt: null,
};

export function evolve(state: PayoutPeriodState, event: PayoutPeriodEvent): PayoutPeriodState {
  switch (event.type) {
    case 'PayoutPeriodApproved':
      return {
        ...state,
        status: 'approved',
        periodStart: event.data.periodStart,
        periodEnd: event.data.periodEnd,
        lines: event.data.lines,
        totalCents: event.data.totalCents,
        approvedBy: event.data.approvedBy,
        approvedAt: event.data.at,
      };
    case 'PayoutPeriodMarkedPaid':
      return { ...state, status: 'paid', method: event.data.method, reference: event.data.reference, paidAt: event.data.at };
    default:
      return state;
  }
}

/** `periodStart`: the period's first day, `yyyy-MM-dd` (the 1st or the 16th). */
export const payoutPeriodStreamId = (periodStart: string) => `payoutPeriod-${periodStart}`;
