import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { connect } from './db.ts';
import { instanceSecret } from './instanceSecrets.ts';
import { migrate } from './migrate.ts';

describe('instance secrets', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('secrets');
    await migrate(db.sql, { eventStore: true });
  });
  afterAll(async () => db.drop());

  it('gives every process the same secret, made by whichever asks first (20 at once on separate connections)', async () => {
    const pools = Array.from({ length: 4 }, () => connect(db.url, { max: 5 }));
    try {
      const secrets = await Promise.all(Array.from({ length: 20 }, (_, i) => instanceSecret(pools[i % 4] as typeof db.sql, 'cookie')));
      expect(new Set(secrets).size).toBe(1);
      expect(secrets[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await instanceSecret(db.sql, 'cookie')).toBe(secrets[0]);
      expect(await instanceSecret(db.sql, 'another')).not.toBe(secrets[0]);
    } finally {
      await Promise.all(pools.map((p) => p.end({ timeout: 5 })));
    }
  });
});
