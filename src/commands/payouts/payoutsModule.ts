import type { Clock } from '../../adapters/clock/clock.ts';
import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore, Position } from '../../adapters/eventstore/eventStore.ts';
import { InvalidFieldError } from '../../domain/kit/domainError.ts';
import { billingPeriodOf, billingPeriodOfDay, PAYOUT_TIME_ZONE, previousBillingPeriod } from '../../domain/payouts/billingPeriod.ts';
import { PERIOD_INVALID } from '../../domain/payouts/payoutApi.ts';
import type { PayoutMethod } from '../../domain/payouts/payoutPeriod.ts';
import { payoutPeriodView, payoutTutorSessions } from '../../projections/payouts/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { approvePayoutPeriod, markPayoutPeriodPaid, payoutHandlers, payoutPeriodStarting } from './payoutPeriods.ts';

/** The period holding `day`; without one, the latest period that has ended (the one to approve next). */
function periodAsked(day: string | undefined, now: Date) {
  if (day === undefined) return previousBillingPeriod(billingPeriodOf(now, PAYOUT_TIME_ZONE), PAYOUT_TIME_ZONE);
  const period = billingPeriodOfDay(day, PAYOUT_TIME_ZONE);
  if (!period) throw new InvalidFieldError('period', PERIOD_INVALID);
  return period;
}

/** A tutor's rate change as the tutors feature records it (the tutor stream holds rates: system.ts gives it). */
export type ChangeTutorRate = (
  input: { tutorId: string; hourlyRateCents: number; effectiveFrom: Date | null; reason: string },
  ctx: CommandContext,
) => Promise<{ position: Position | null }>;

export interface PayoutsModuleDeps {
  sql: Sql;
  store: EventStore;
  clock: Clock;
  changeTutorRate: ChangeTutorRate;
}

/**
 * The payouts feature (issue 12), built once by system.ts: a billing period's payout (view, the
 * tutor's sessions behind its lines), approving and marking it paid, and a tutor's hourly rate,
 * which the tutor stream records (given by system.ts). Each write answers the position to wait for.
 */
export function payoutsModule(deps: PayoutsModuleDeps) {
  const { sql, store, clock } = deps;
  const handlers = payoutHandlers(store);

  return {
    /** The payout of the period holding `day` (default: the last period that ended); a 400 naming `period` for no day. */
    period(day: string | undefined) {
      const now = clock.now();
      return payoutPeriodView(sql, periodAsked(day, now), now);
    },
    /** The payout of the period starting on `periodStart` (the 1st or the 16th; a 400 otherwise) as it is at `now`. */
    periodStarting: (periodStart: string, now: Date = clock.now()) => payoutPeriodView(sql, payoutPeriodStarting(periodStart), now),
    /** The payable sessions behind a tutor's lines in the period starting on `periodStart`. */
    tutorSessions: (periodStart: string, tutorId: string) => payoutTutorSessions(sql, payoutPeriodStarting(periodStart), tutorId),

    /** Freezes an ended period's figures (409 when approved already). */
    approve: (periodStart: string, ctx: CommandContext) => approvePayoutPeriod(handlers, sql, periodStart, ctx),
    /** Records that an approved period was paid, how and with which reference. */
    markPaid: (input: { periodStart: string; method: PayoutMethod; reference: string }, ctx: CommandContext) =>
      markPayoutPeriodPaid(handlers, input, ctx),

    /** Sets a tutor's hourly rate (dollars) from `effectiveFrom` (default now); answers the rate as recorded. */
    async changeRate(
      input: { tutorId: string; hourlyRate: number; effectiveFrom?: string | undefined; reason: string },
      ctx: CommandContext,
    ) {
      const { tutorId, reason } = input;
      const hourlyRateCents = Math.round(input.hourlyRate * 100);
      const from = input.effectiveFrom === undefined ? null : new Date(input.effectiveFrom);
      const { position } = await deps.changeTutorRate({ tutorId, hourlyRateCents, effectiveFrom: from, reason }, ctx);
      return { position, rate: { tutorId, hourlyRate: hourlyRateCents / 100, effectiveFrom: (from ?? ctx.now).toISOString() } };
    },
  };
}

export type PayoutsModule = ReturnType<typeof payoutsModule>;
