import fastifyRateLimit, { normalizeIP, type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Config, LimitRule } from '../../adapters/config/config.ts';
import { postgresRateLimitStore } from '../../adapters/rateLimit/postgresRateLimitStore.ts';
import { type RateLimiter, waitText } from '../../adapters/rateLimit/rateLimiter.ts';
import type { SignInLimits } from '../../commands/accounts/signIn.ts';
import type { PromoCheckLimits } from '../../commands/promoCodes/promoChecks.ts';

/**
 * @fastify/rate-limit on the PostgreSQL store: per-route limits per client address (IPv6 by /64),
 * shared by every API process, with `x-ratelimit-*` and `Retry-After` headers. Each route says
 * its limit with `perIpLimit(...)` in its config. Counted in preHandler, so a request refused by
 * its role check or its validation does not use up the caller's allowance.
 */
export async function installRateLimits(app: FastifyInstance, limiter: RateLimiter): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    hook: 'preHandler',
    store: postgresRateLimitStore(limiter),
  });
}

/**
 * A route's per-address limit (`config: { ...perIpLimit(...) }`), or none while RATE_LIMITS=off.
 * `refusal` words the 429's message from the time left.
 */
export function perIpLimit(
  config: Config,
  name: string,
  rule: LimitRule,
  refusal: (wait: string) => string,
): { rateLimit?: RateLimitOptions } {
  if (config.RATE_LIMITS === 'off') return {};
  return {
    rateLimit: {
      max: rule.limit,
      timeWindow: rule.windowSeconds * 1000,
      keyGenerator: (request) => `${name}:${normalizeIP(request.ip)}`,
      errorResponseBuilder: (_request, context) =>
        Object.assign(new Error(refusal(waitText(Math.max(1, Math.ceil(context.ttl / 1000))))), { statusCode: context.statusCode }),
    },
  };
}

/** The promo code check limits from the settings: per account always, per address unless RATE_LIMITS=off. */
export function promoCheckLimits(config: Config): PromoCheckLimits {
  return {
    perAccount: config.PROMO_CHECK_ACCOUNT_LIMIT,
    perIp: config.RATE_LIMITS === 'off' ? null : config.PROMO_CHECK_IP_LIMIT,
    guessAlert: config.PROMO_GUESS_ALERT,
  };
}

/** The sign-in limits from the settings: per account always, per address unless RATE_LIMITS=off. */
export function signInLimits(config: Config): SignInLimits {
  return { perAccount: config.SIGN_IN_ACCOUNT_LIMIT, perIp: config.RATE_LIMITS === 'off' ? null : config.SIGN_IN_IP_LIMIT };
}
