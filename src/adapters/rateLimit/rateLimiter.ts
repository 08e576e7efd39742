import { createHash } from 'node:crypto';
import { normalizeIP } from '@fastify/rate-limit';
import type { Sql } from '../db/db.ts';

export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

/** "30 seconds", "15 minutes", "1 hour": how long until a window ends, for refusal messages. */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60 || minutes % 60 !== 0) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = minutes / 60;
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

/** One attempt's place in its key's window, taken atomically. */
export interface Claim {
  key: string;
  /** This attempt's number in the window: 1 for the first. */
  count: number;
  /** Whether the attempt is within the limit (`count <= limit`). */
  allowed: boolean;
  /** Seconds until the window ends and the count starts again. */
  retryAfterSeconds: number;
  /** The window the attempt counted in (exact, for giving the slot back). */
  windowStart: string;
}

/**
 * Fixed-window counters in PostgreSQL, shared by every API process. Keys are hashed so that no
 * login, e-mail address or IP address is stored.
 *
 * Every attempt first claims its slot with one atomic upsert (`claim`), and only then is let
 * through or refused: concurrent attempts each get their own number, so a burst can never pass
 * more attempts than the limit (a count-then-act check let a burst of 30 through). An attempt
 * that should not count gives its slot back (`release`) or clears the key (`clear`).
 */
export class RateLimiter {
  constructor(private readonly sql: Sql) {}

  static key(kind: string, value: string): string {
    return `${kind}:${createHash('sha256').update(value.trim().toLowerCase()).digest('hex').slice(0, 40)}`;
  }

  /**
   * The key of a client address: an IPv4 address as is, an IPv6 address by its /64 (one
   * subscriber's network: a host can pick any address in it), an IPv4-mapped one as IPv4. The same
   * grouping as the per-route limits of @fastify/rate-limit.
   */
  static clientKey(kind: string, ip: string | null | undefined): string {
    let client = 'unknown';
    if (ip) {
      try {
        client = normalizeIP(ip);
      } catch {
        client = ip;
      }
    }
    return RateLimiter.key(kind, client);
  }

  /** Counts this attempt in the key's current window (starting a new one when it is over). */
  async claim(key: string, rule: RateLimitRule): Promise<Claim> {
    const [row] = await this.sql<{ count: number; window_start: string; remaining: number }[]>`
      INSERT INTO rate_limits AS r (key, window_start, count) VALUES (${key}, now(), 1)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN r.window_start > now() - make_interval(secs => ${rule.windowSeconds})
                     THEN least(r.count, 2147483646) + 1 ELSE 1 END,
        window_start = CASE WHEN r.window_start > now() - make_interval(secs => ${rule.windowSeconds})
                            THEN r.window_start ELSE now() END
      RETURNING count, window_start::text AS window_start,
        greatest(0, extract(epoch FROM window_start + make_interval(secs => ${rule.windowSeconds}) - now()))::float8 AS remaining`;
    if (!row) throw new Error('rate limit claim returned no row');
    return {
      key,
      count: row.count,
      allowed: row.count <= rule.limit,
      retryAfterSeconds: Math.max(1, Math.ceil(row.remaining)),
      windowStart: row.window_start,
    };
  }

  /** Gives a claimed slot back, if its window is still the current one. */
  async release(claim: Claim): Promise<void> {
    await this.sql`
      UPDATE rate_limits SET count = greatest(count - 1, 0)
      WHERE key = ${claim.key} AND window_start = ${claim.windowStart}::text::timestamptz`;
  }

  /** How many attempts the key has in its current window (read only). */
  async count(key: string, rule: RateLimitRule): Promise<{ count: number; retryAfterSeconds: number }> {
    const [row] = await this.sql<{ count: number; remaining: number }[]>`
      SELECT count,
        greatest(0, extract(epoch FROM window_start + make_interval(secs => ${rule.windowSeconds}) - now()))::float8 AS remaining
      FROM rate_limits WHERE key = ${key} AND window_start > now() - make_interval(secs => ${rule.windowSeconds})`;
    return { count: row?.count ?? 0, retryAfterSeconds: row ? Math.max(1, Math.ceil(row.remaining)) : 0 };
  }

  /** Forgets the key's attempts (a successful sign-in clears the account's failures). */
  async clear(key: string): Promise<void> {
    await this.sql`DELETE FROM rate_limits WHERE key = ${key}`;
  }
}
