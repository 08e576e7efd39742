import { describe, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import type { PayoutLine, PayoutPeriodEvent } from './payoutPeriod.ts';
import {
  ALREADY_APPROVED,
  ALREADY_PAID,
  NOT_A_PERIOD_START,
  NOT_APPROVED,
  NOTHING_TO_APPROVE,
  PAYOUTS_FORBIDDEN,
  type PayoutPeriodCommand,
  PERIOD_NOT_ENDED,
  payoutPeriodDecider,
  REFERENCE_REQUIRED,
  REFERENCE_TOO_LONG,
} from './payoutPeriodDecider.ts';

const spec = deciderSpec(payoutPeriodDecider);
// The first half of November ends at midnight Toronto time, 05:00 UTC on the 16th (EST).
const afterEnd = new Date('2026-11-16T05:00:00.000Z');
const finance = { now: afterEnd, actorId: 'fin-1', actorRole: 'finance' };
const lines: PayoutLine[] = [
  { kind: 'sessions', tutorId: 't1', sessions: 3, rateCents: 4550, amountCents: 13650, adjusts: null },
  { kind: 'adjustment', tutorId: 't2', sessions: -1, rateCents: null, amountCents: -4000, adjusts: '2026-10-16' },
];
const approve = (metadata = finance, periodStart = '2026-11-01'): PayoutPeriodCommand => ({
  type: 'ApprovePayoutPeriod',
  data: { periodStart, lines },
  metadata,
});
const approved: PayoutPeriodEvent = {
  type: 'PayoutPeriodApproved',
  data: { periodStart: '2026-11-01', periodEnd: '2026-11-15', lines, totalCents: 9650, approvedBy: 'fin-1', at: afterEnd.toISOString() },
};
const markPaid = (reference = 'EFT-2026-11-A'): PayoutPeriodCommand => ({
  type: 'MarkPayoutPeriodPaid',
  data: { periodStart: '2026-11-01', method: 'direct_deposit', reference },
  metadata: finance,
});
const paid: PayoutPeriodEvent = {
  type: 'PayoutPeriodMarkedPaid',
  data: { periodStart: '2026-11-01', method: 'direct_deposit', reference: 'EFT-2026-11-A', paidBy: 'fin-1', at: afterEnd.toISOString() },
};

describe('payout period: approve', () => {
  it('freezes the lines it is given with their total, once the period is over (Toronto midnight)', () => {
    spec.given([]).when(approve()).thenEvents([approved]);
  });

  it('refuses a period that has not ended yet, even by a minute', () => {
    spec
      .given([])
      .when(approve({ ...finance, now: new Date('2026-11-16T04:59:00.000Z') }))
      .thenThrows(PERIOD_NOT_ENDED, 'unprocessable');
  });

  it('refuses an ended period with nothing to pay (no sessions, no adjustments)', () => {
    spec
      .given([])
      .when({ type: 'ApprovePayoutPeriod', data: { periodStart: '2026-11-01', lines: [] }, metadata: finance })
      .thenThrows(NOTHING_TO_APPROVE, 'unprocessable');
  });

  it('refuses a second approval with a conflict', () => {
    spec.given([approved]).when(approve()).thenThrows(ALREADY_APPROVED, 'conflict');
    spec.given([approved, paid]).when(approve()).thenThrows(ALREADY_APPROVED, 'conflict');
  });

  it('refuses a day that does not start a period, and roles other than admin and finance', () => {
    spec.given([]).when(approve(finance, '2026-11-02')).thenThrows(NOT_A_PERIOD_START, 'invalid');
    spec.given([]).when(approve(finance, '2026-02-30')).thenThrows(NOT_A_PERIOD_START, 'invalid');
    spec
      .given([])
      .when(approve({ ...finance, actorRole: 'tutor' }))
      .thenThrows(PAYOUTS_FORBIDDEN, 'forbidden');
  });
});

describe('payout period: mark paid', () => {
  it('records the method and trimmed reference of an approved period', () => {
    spec.given([approved]).when(markPaid('  EFT-2026-11-A  ')).thenEvents([paid]);
  });

  it('refuses an open period, a paid one, and a blank or overlong reference', () => {
    spec.given([]).when(markPaid()).thenThrows(NOT_APPROVED, 'conflict');
    spec.given([approved, paid]).when(markPaid()).thenThrows(ALREADY_PAID, 'conflict');
    spec.given([approved]).when(markPaid('   ')).thenThrows(REFERENCE_REQUIRED, 'invalid');
    spec
      .given([approved])
      .when(markPaid('x'.repeat(201)))
      .thenThrows(REFERENCE_TOO_LONG, 'invalid');
  });
});
