import { type Command, type CommandMetadata, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import { billingPeriodOfDay, isBillingPeriodStart, PAYOUT_TIME_ZONE } from './billingPeriod.ts';
import {
  evolve,
  initialState,
  type PayoutLine,
  type PayoutMethod,
  type PayoutPeriodEvent,
  type PayoutPeriodState,
  payoutMethods,
} from './payoutPeriod.ts';

export const PAYOUTS_FORBIDDEN = 'Only admins and finance staff can manage payouts';
export const NOT_A_PERIOD_START = 'periodStart must be the first day of a billing period (yyyy-MM-dd, the 1st or the 16th)';
export const PERIOD_NOT_ENDED = 'This billing period has not ended yet; it can be approved once it is over';
export const ALREADY_APPROVED = 'This payout period is already approved';
export const NOTHING_TO_APPROVE = 'This billing period has no sessions or adjustments to pay: there is nothing to approve';
export const NOT_APPROVED = 'Approve this payout period before marking it paid';
export const ALREADY_PAID = 'This payout period is already marked paid';
export const LINES_INVALID = 'Payout lines must be whole cents';
export const REFERENCE_MAX_LENGTH = 200;
export const REFERENCE_REQUIRED = 'A payment reference is required';
export const REFERENCE_TOO_LONG = `Reference must be at most ${REFERENCE_MAX_LENGTH} characters`;
export const METHOD_INVALID = `Method must be one of ${payoutMethods.join(', ')}`;

type Period = { periodStart: string };
export type PayoutPeriodCommand =
  /** `lines`: the figures the read model computed for the period (a fact); approval freezes them. */
  | Command<'ApprovePayoutPeriod', Period & { lines: PayoutLine[] }>
  | Command<'MarkPayoutPeriodPaid', Period & { method: PayoutMethod; reference: string }>;

function staffOnly(metadata: CommandMetadata) {
  if (metadata.actorRole !== 'admin' && metadata.actorRole !== 'finance') throw new DomainError(PAYOUTS_FORBIDDEN, 'forbidden');
}

function periodOf(periodStart: string) {
  const period = isBillingPeriodStart(periodStart) ? billingPeriodOfDay(periodStart, PAYOUT_TIME_ZONE) : null;
  if (!period) throw new DomainError(NOT_A_PERIOD_START, 'invalid');
  return period;
}

const wholeCents = (n: number | null) => n === null || Number.isSafeInteger(n);

export const decidePayoutPeriod = decideWith<PayoutPeriodCommand, PayoutPeriodEvent, PayoutPeriodState>({
  ApprovePayoutPeriod: ({ data, metadata }, state) => {
    staffOnly(metadata);
    const period = periodOf(data.periodStart);
    if (state.status !== 'open') throw new DomainError(ALREADY_APPROVED, 'conflict');
    // Sessions of a period still running would be paid before they happen, or not at all.
    if (metadata.now.getTime() < period.end.getTime()) throw new DomainError(PERIOD_NOT_ENDED, 'unprocessable');
    // An empty approval records a $0 payout nobody made, and would freeze the period against a late completion.
    if (data.lines.length === 0) throw new DomainError(NOTHING_TO_APPROVE, 'unprocessable');
    if (!data.lines.every((l) => wholeCents(l.amountCents) && wholeCents(l.rateCents) && Number.isSafeInteger(l.sessions))) {
      throw new DomainError(LINES_INVALID, 'invalid');
    }
    const totalCents = data.lines.reduce((sum, l) => sum + l.amountCents, 0);
    return [
      {
        type: 'PayoutPeriodApproved',
        data: {
          periodStart: period.firstDay,
          periodEnd: period.lastDay,
          lines: data.lines,
          totalCents,
          approvedBy: metadata.actorId ?? null,
          at: metadata.now.toISOString(),
        },
      },
    ];
  },

  MarkPayoutPeriodPaid: ({ data, metadata }, state) => {
    staffOnly(metadata);
    periodOf(data.periodStart);
    if (state.status === 'open') throw new DomainError(NOT_APPROVED, 'conflict');
    if (state.status === 'paid') throw new DomainError(ALREADY_PAID, 'conflict');
    if (!payoutMethods.includes(data.method)) throw new DomainError(METHOD_INVALID, 'invalid');
    const reference = data.reference.trim();
    if (!reference) throw new DomainError(REFERENCE_REQUIRED, 'invalid');
    if (reference.length > REFERENCE_MAX_LENGTH) throw new DomainError(REFERENCE_TOO_LONG, 'invalid');
    return [
      {
        type: 'PayoutPeriodMarkedPaid',
        data: {
          periodStart: data.periodStart,
          method: data.method,
          reference,
          paidBy: metadata.actorId ?? null,
          at: metadata.now.toISOString(),
        },
      },
    ];
  },
});

export const payoutPeriodDecider: Decider<PayoutPeriodCommand, PayoutPeriodEvent, PayoutPeriodState> = {
  initialState,
  evolve,
  decide: decidePayoutPeriod,
};
