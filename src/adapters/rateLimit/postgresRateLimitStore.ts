import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { RateLimiter } from './rateLimiter.ts';

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;

/**
 * A store for @fastify/rate-limit on the `rate_limits` table: every API process shares the
 * counters, and each request's count comes from one atomic upsert (RateLimiter.claim). The
 * plugin's keys (the route's name and the client's address) are hashed before they are stored.
 */
export function postgresRateLimitStore(limiter: RateLimiter): FastifyRateLimitStoreCtor {
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      limiter.claim(RateLimiter.key('http', key), { limit: max, windowSeconds: Math.max(1, Math.ceil(timeWindow / 1000)) }).then(
        (claim) => callback(null, { current: claim.count, ttl: claim.retryAfterSeconds * 1000 }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    /** A peek without counting (`createRateLimit(...)(request, { increment: false })`). */
    read(key: string, callback: Callback, timeWindow: number, max: number): void {
      limiter.count(RateLimiter.key('http', key), { limit: max, windowSeconds: Math.max(1, Math.ceil(timeWindow / 1000)) }).then(
        ({ count, retryAfterSeconds }) => callback(null, { current: count, ttl: retryAfterSeconds * 1000 }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    /** Routes share the table; their keys already carry the limit's name. */
    child(): FastifyRateLimitStore {
      return new PostgresRateLimitStore();
    }
  }
  return PostgresRateLimitStore;
}
