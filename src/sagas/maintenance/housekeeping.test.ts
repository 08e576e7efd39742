import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { housekeeping } from './housekeeping.ts';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem('cli');
});
afterAll(async () => system.dispose());

describe('housekeeping', () => {
  it('removes expired sign-ins, old idempotent responses and finished rate-limit windows, and keeps live ones', async () => {
    const live = await system.signIns.create('u-live', 'student');
    await system.sql`INSERT INTO user_sessions (token_hash, user_id, role, expires_at) VALUES ('old', 'u-old', 'student', now() - interval '1 minute')`;
    await system.sql`INSERT INTO http_idempotency (scope, key, request_hash, created_at) VALUES ('s', 'old-key', 'h', now() - interval '25 hours'), ('s', 'new-key', 'h', now())`;
    await system.sql`INSERT INTO rate_limits (key, window_start, count) VALUES ('old', now() - interval '2 days', 3), ('new', now(), 1)`;
    const removed = await housekeeping(system.sql);
    expect(removed).toMatchObject({ signIns: 1, idempotency: 1, rateLimits: 1 });
    expect(await system.signIns.find(live.token)).not.toBeNull();
    expect((await system.sql`SELECT key FROM http_idempotency`).map((r) => r.key)).toEqual(['new-key']);
    expect((await system.sql`SELECT key FROM rate_limits`).map((r) => r.key)).toEqual(['new']);
  });
});
