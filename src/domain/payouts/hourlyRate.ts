/**
 * The rate in force at an instant: of the changes effective at or before it, the one with the
 * latest `effectiveFrom`; of several with the same `effectiveFrom`, the last recorded (a
 * correction). Payouts own rates: this is the one rule the tutor decider's state, the payout
 * lines, the payout drill-down, the tutor's profile and dashboard earnings all read, each over a
 * history in the order recorded (the payouts read model's `payout_rates`, ordered by position).
 */
export interface RateChange {
  hourlyRateCents: number;
  /** ISO instant. */
  effectiveFrom: string;
}

export function rateInForce(changes: readonly RateChange[], instant: Date): number | null {
  let best: { cents: number; from: number } | null = null;
  for (const change of changes) {
    const from = Date.parse(change.effectiveFrom);
    if (from <= instant.getTime() && (best === null || from >= best.from)) best = { cents: change.hourlyRateCents, from };
  }
  return best?.cents ?? null;
}

/** A sane ceiling for an hourly rate: a typo of an extra digit is refused rather than paid. */
export const MAX_HOURLY_RATE_CENTS = 100_000;
