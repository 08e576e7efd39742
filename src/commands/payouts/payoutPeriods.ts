import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { billingPeriodOfDay, isBillingPeriodStart, PAYOUT_TIME_ZONE, type Span } from '../../domain/payouts/billingPeriod.ts';
import { type PayoutMethod, payoutPeriodStreamId } from '../../domain/payouts/payoutPeriod.ts';
import { NOT_A_PERIOD_START, payoutPeriodDecider } from '../../domain/payouts/payoutPeriodDecider.ts';
import { previewLines } from '../../projections/payouts/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { commandHandler } from '../kit/handleCommand.ts';

export function payoutHandlers(store: EventStore) {
  return { periods: commandHandler(store, payoutPeriodDecider, payoutPeriodStreamId) };
}
export type PayoutHandlers = ReturnType<typeof payoutHandlers>;

/** The period starting on `periodStart` (the 1st or the 16th, Toronto), or a 400. */
export function payoutPeriodStarting(periodStart: string): Span {
  const period = isBillingPeriodStart(periodStart) ? billingPeriodOfDay(periodStart, PAYOUT_TIME_ZONE) : null;
  if (!period) throw new DomainError(NOT_A_PERIOD_START, 'invalid');
  return period;
}

/**
 * Freezes a period's figures: the lines the read model computes now travel in the command as a
 * fact. Concurrent approvals race on the period stream's revision: one wins, the others see it
 * approved (409). A session the read model has not seen yet shows up later as an adjustment.
 */
export async function approvePayoutPeriod(handlers: PayoutHandlers, sql: Sql, periodStart: string, ctx: CommandContext) {
  const period = payoutPeriodStarting(periodStart);
  const lines = await previewLines(sql, period);
  return handlers.periods.handle(periodStart, { type: 'ApprovePayoutPeriod', data: { periodStart, lines } }, ctx);
}

export function markPayoutPeriodPaid(
  handlers: PayoutHandlers,
  input: { periodStart: string; method: PayoutMethod; reference: string },
  ctx: CommandContext,
) {
  payoutPeriodStarting(input.periodStart);
  return handlers.periods.handle(input.periodStart, { type: 'MarkPayoutPeriodPaid', data: input }, ctx);
}
