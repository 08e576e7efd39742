import type { PayoutLineKind, PayoutMethod, PayoutStatus } from '../../domain/payouts/payoutPeriod.ts';
import type { SessionStatus } from '../../domain/sessions/session.ts';
import { boolean, int, type RowOf, table, text, timestamptz } from '../kit/table.ts';

/**
 * The payouts read model (issue 12 §3). Open periods are computed when asked, from the sessions
 * and rates below; approved periods read the lines their approval froze. Money in integer cents.
 */

/** Every session's tutor, current start and whether it is payable (completed, or cancelled late and forfeited). */
export const payoutSessions = table(
  'payout_sessions',
  {
    id: text().primaryKey(),
    tutor_id: text(),
    start_at: timestamptz(),
    status: text<SessionStatus>().default('scheduled'),
    payable: boolean().default(false),
  },
  { indexes: [{ name: 'payout_sessions_payable_start', on: ['payable', 'start_at'] }] },
);
export type PayoutSessionRow = RowOf<typeof payoutSessions>;

/** Every rate a tutor was given, from when; `position` (log order) breaks ties of the same `effective_from`. */
export const payoutRates = table(
  'payout_rates',
  {
    id: text().primaryKey(),
    tutor_id: text(),
    effective_from: timestamptz(),
    hourly_rate_cents: int(),
    position: text(),
  },
  { indexes: [{ name: 'payout_rates_tutor_from', on: ['tutor_id', 'effective_from DESC'] }] },
);
export type PayoutRateRow = RowOf<typeof payoutRates>;

/** Approved (and paid) periods; an open period has no row. `id` is the period's first day. */
export const payoutPeriods = table('payout_periods', {
  id: text().primaryKey(),
  period_end: text(),
  status: text<PayoutStatus>().default('approved'),
  total_cents: int(),
  approved_by: text().nullable(),
  approved_at: timestamptz(),
  payment_method: text<PayoutMethod>().nullable(),
  payment_reference: text().nullable(),
  paid_by: text().nullable(),
  paid_at: timestamptz().nullable(),
});
export type PayoutPeriodRow = RowOf<typeof payoutPeriods>;

/** The lines an approval froze, per tutor (and rate), in the event's order; `adjusts` names the period an adjustment corrects. */
export const payoutLines = table(
  'payout_lines',
  {
    id: text().primaryKey(),
    period_start: text(),
    line_no: int(),
    kind: text<PayoutLineKind>(),
    tutor_id: text(),
    sessions: int(),
    rate_cents: int().nullable(),
    amount_cents: int(),
    adjusts: text().nullable(),
  },
  {
    indexes: [
      { name: 'payout_lines_period', on: ['period_start'] },
      { name: 'payout_lines_adjusts', on: ['adjusts'] },
    ],
  },
);
export type PayoutLineRow = RowOf<typeof payoutLines>;
