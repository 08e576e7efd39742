import { createHash, timingSafeEqual } from 'node:crypto';
import type { LimitRule } from '../../adapters/config/config.ts';
import { RateLimiter, waitText } from '../../adapters/rateLimit/rateLimiter.ts';
import { rateLimited } from '../../domain/kit/domainError.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { HOT_STREAM_ATTEMPTS, type PromoCodeHandlers } from './promoCodeHandlers.ts';

/**
 * Checking a code at checkout is an oracle: unlimited, one signed-in student tried 27,496 codes in
 * a minute and found the valid one every time. So checks are counted per account and per client
 * address (PostgreSQL counters, shared by every API process), and an account that keeps trying
 * codes that do not exist raises an alert (docs/accounts.md, "Limits").
 */
export interface PromoCheckLimits {
  perAccount: LimitRule;
  /** null while RATE_LIMITS=off (per-address limits only). */
  perIp: LimitRule | null;
  /** Unknown codes per account in a window before the alert. */
  guessAlert: LimitRule;
}

export const tooManyPromoChecks = (wait: string) => `Too many promo code checks. Please try again in ${wait}.`;

/**
 * Counts this check against the account's and the address's allowance; throws a `rate_limited`
 * error (429) past either. Every check counts, found or not: a guesser learns nothing from which
 * of its checks were refused.
 */
export async function admitPromoCheck(limiter: RateLimiter, limits: PromoCheckLimits, userId: string, ip: string): Promise<void> {
  const account = await limiter.claim(RateLimiter.key('promo-check-account', userId), limits.perAccount);
  if (!account.allowed) throw refusal(account.retryAfterSeconds);
  if (!limits.perIp) return;
  const address = await limiter.claim(RateLimiter.clientKey('promo-check-ip', ip), limits.perIp);
  if (!address.allowed) throw refusal(address.retryAfterSeconds);
}

/** The 429's error, with the seconds to wait (the route sends them as Retry-After). */
const refusal = (seconds: number) => Object.assign(rateLimited(tooManyPromoChecks(waitText(seconds))), { retryAfterSeconds: seconds });

/**
 * Counts an unknown code tried by `userId`; on the miss that reaches the alert's threshold, records
 * the guessing fact (once per window, on the account's guessing stream) that raises the alert.
 */
export async function recordPromoMiss(
  deps: { limiter: RateLimiter; handlers: PromoCodeHandlers },
  limits: PromoCheckLimits,
  userId: string,
  ctx: CommandContext,
): Promise<void> {
  const miss = await deps.limiter.claim(RateLimiter.key('promo-miss', userId), limits.guessAlert);
  if (miss.count < limits.guessAlert.limit) return;
  // Every miss past the threshold asks again; the stream records the window once.
  await deps.handlers.guessing.handle(
    userId,
    {
      type: 'FlagPromoGuessing',
      data: { userId, misses: limits.guessAlert.limit, windowSeconds: limits.guessAlert.windowSeconds, windowStart: miss.windowStart },
    },
    ctx,
    { maxAttempts: HOT_STREAM_ATTEMPTS },
  );
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Whether two codes are the same, in time that does not depend on where they first differ. */
export function sameCode(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}
