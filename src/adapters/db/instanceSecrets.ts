import { randomBytes } from 'node:crypto';
import type { Sql } from './db.ts';

/**
 * The installation's secret named `name`: made by the first process that asks (32 random bytes),
 * the same for every process on the database afterwards, whichever asks first.
 */
export async function instanceSecret(sql: Sql, name: string): Promise<string> {
  // A racing first insert commits after this statement's snapshot: it sees neither its own row
  // (DO NOTHING) nor the other's, and the next statement, with a new snapshot, sees it.
  for (let attempt = 1; attempt <= 3; attempt++) {
    const fresh = randomBytes(32).toString('base64url');
    const [row] = await sql<{ secret: string }[]>`
      WITH made AS (
        INSERT INTO instance_secrets (name, secret) VALUES (${name}, ${fresh})
        ON CONFLICT (name) DO NOTHING RETURNING secret
      )
      SELECT secret FROM made UNION ALL SELECT secret FROM instance_secrets WHERE name = ${name}`;
    if (row) return row.secret;
  }
  throw new Error(`instance secret ${name} could not be read`);
}
