import { createHash } from 'node:crypto';
import type { Sql } from '../db/db.ts';

export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window counters in PostgreSQL, shared by every API process. Keys are hashed so that no
 * e-mail address or IP address is stored.
 */
export class RateLimiter {
  constructor(private readonly sql: Sql) {}

  static key(kind: string, value: string): string {
    return `${kind}:${createHash('sha256').update(value.trim().toLowerCase()).digest('hex').slice(0, 40)}`;
  }

  /** How many hits the key has in its current window. */
  async count(key: string, rule: RateLimitRule): Promise<number> {
    const [row] = await this.sql<{ count: number }[]>`
      SELECT count FROM rate_limits WHERE key = ${key} AND window_start > now() - make_interval(secs => ${rule.windowSeconds})`;
    return row?.count ?? 0;
  }

  async hit(key: string, rule: RateLimitRule): Promise<number> {
    const [row] = await this.sql<{ count: number }[]>`
      INSERT INTO rate_limits AS r (key, window_start, count) VALUES (${key}, now(), 1)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN r.window_start > now() - make_interval(secs => ${rule.windowSeconds}) THEN r.count + 1 ELSE 1 END,
        window_start = CASE WHEN r.window_start > now() - make_interval(secs => ${rule.windowSeconds}) THEN r.window_start ELSE now() END
      RETURNING count`;
    return row?.count ?? 1;
  }

  async clear(key: string): Promise<void> {
    await this.sql`DELETE FROM rate_limits WHERE key = ${key}`;
  }
}
