import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../db/migrate.ts';
import { SIGN_IN_DAYS, SignInStore } from './signInStore.ts';

let db: TestDatabase;
let store: SignInStore;

beforeAll(async () => {
  db = await createTestDatabase('sess');
  await migrate(db.sql);
  store = new SignInStore(db.sql);
});
afterAll(async () => db.drop());

const rowOf = async (userId: string) =>
  (
    await db.sql<{ version: string; last_seen_at: Date; expires_at: Date }[]>`
      SELECT xmin::text AS version, last_seen_at, expires_at FROM user_sessions WHERE user_id = ${userId}`
  )[0];

describe('sign-in sessions', () => {
  it('finds a session without rewriting it when it was seen within the minute, and slides its expiry after that', async () => {
    const { token } = await store.create('u-slide', 'student');
    const created = await rowOf('u-slide');
    expect(await store.find(token)).toMatchObject({ userId: 'u-slide', role: 'student', studentId: null });
    expect(await store.find(token)).toMatchObject({ userId: 'u-slide' });
    // Same row version: reading it twice at once wrote nothing.
    expect((await rowOf('u-slide'))?.version).toBe(created?.version);

    // Last seen two minutes ago, expiring in an hour: found, and extended to the full term again.
    await db.sql`UPDATE user_sessions SET last_seen_at = now() - interval '2 minutes', expires_at = now() + interval '1 hour' WHERE user_id = 'u-slide'`;
    const found = await store.find(token);
    const row = await rowOf('u-slide');
    const fullTerm = Date.now() + SIGN_IN_DAYS * 86_400_000;
    expect(Math.abs((found?.expiresAt.getTime() ?? 0) - fullTerm)).toBeLessThan(60_000);
    expect(row?.expires_at.getTime()).toBe(found?.expiresAt.getTime());
    expect(Date.now() - (row?.last_seen_at.getTime() ?? 0)).toBeLessThan(60_000);
  });

  it('does not find an expired session, a suspended account’s, or an unknown token', async () => {
    const { token: expired } = await store.create('u-expired', 'student');
    await db.sql`UPDATE user_sessions SET expires_at = now() - interval '1 second' WHERE user_id = 'u-expired'`;
    expect(await store.find(expired)).toBeNull();

    const { token: suspended } = await store.create('u-suspended', 'tutor');
    expect(await store.find(suspended)).not.toBeNull();
    await db.sql`INSERT INTO suspended_accounts (user_id) VALUES ('u-suspended')`;
    expect(await store.find(suspended)).toBeNull();

    expect(await store.find('no-such-token')).toBeNull();
  });
});
