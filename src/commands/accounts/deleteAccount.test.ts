import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { codeFor, cookieOf, registration } from '../../../tests/support/accounts.ts';
import { type TestSystem, withTestApp } from '../../../tests/support/system.ts';
import { waitForProjections } from '../../projections/runner/projectionRunner.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

/** Every row of every table, as text: what a database dump would reveal. */
async function dumpAll(except: string[]): Promise<string> {
  const tables = await system.sql<{ schema: string; name: string }[]>`
    SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
    WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`;
  let out = '';
  for (const t of tables) {
    if (except.includes(t.name)) continue;
    const rows = await system.sql.unsafe<{ row: string }[]>(`SELECT t::text AS row FROM "${t.schema}"."${t.name}" t`);
    out += `${t.schema}.${t.name}\n${rows.map((r) => r.row).join('\n')}\n`;
  }
  return out;
}

describe('account deletion', () => {
  it("leaves the person's name, e-mail and phone nowhere in the database, and unreadable in their streams", async () => {
    const person = registration('zz', {
      username: 'quixotic.zebulon',
      email: 'zebulon.quixotic@example.com',
      firstName: 'Zebulon',
      lastName: 'Quixotic',
      phone: '+1 416 555 0199',
    });
    const registered = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: person,
      headers: { 'idempotency-key': 'register-zebulon-1', 'user-agent': 'ZebulonBrowser/7.1' },
      remoteAddress: '198.51.100.77',
    });
    expect(registered.statusCode).toBe(201);
    const userId = (registered.json() as { id: string }).id;
    const code = await codeFor(system.sql, person.email, 'verification code');
    await app.inject({ method: 'POST', url: '/api/verify-email', payload: { email: person.email, code } });
    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: person.username, password: person.password },
      headers: { 'user-agent': 'ZebulonBrowser/7.1' },
      remoteAddress: '198.51.100.77',
    });
    const cookie = cookieOf(login);
    await app.inject({ method: 'POST', url: '/api/accept-terms', payload: { termsAcceptedVersion: '1.0' }, headers: { cookie } });
    await app.inject({
      method: 'POST',
      url: '/api/student/secondary-login',
      payload: { secondaryUsername: 'zebulon-guardian', password: 'viewonly1' },
      headers: { cookie },
    });
    await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: {
        name: 'Zebulon Quixotic',
        email: person.email,
        phone: '+1 416 555 0199',
        subject: 'Hello',
        message: 'From Zebulon Quixotic',
      },
    });
    const before = await dumpAll(['mail_outbox']);
    expect(before).toContain('Zebulon');
    expect(before).toContain('198.51.100.77');

    const deleted = await app.inject({ method: 'DELETE', url: '/api/user/delete', headers: { cookie } });
    expect(deleted.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
    expect(
      (await app.inject({ method: 'POST', url: '/api/login', payload: { username: person.username, password: person.password } }))
        .statusCode,
    ).toBe(401);

    // The audit log erases the request details when it sees the deletion.
    await waitForProjections(system.sql, ['audit_log'], await system.store.committedPosition(), 10_000);
    const dump = await dumpAll(['mail_outbox']);
    for (const secret of [
      'Zebulon',
      'Quixotic',
      'zebulon.quixotic@example.com',
      '555 0199',
      'zebulon-guardian',
      '198.51.100.77',
      'ZebulonBrowser',
    ]) {
      expect(dump.toLowerCase(), `"${secret}" is still in the database`).not.toContain(secret.toLowerCase());
    }
    const streams = await system.store.listStreams();
    const theirs = streams.filter(
      (s) => s.streamId === `user-${userId}` || s.streamId.startsWith('student-') || s.streamId.startsWith('contact-'),
    );
    expect(theirs.length).toBeGreaterThanOrEqual(3);
    for (const s of theirs) {
      const sealed = JSON.stringify(await system.store.readStreamSealed(s.streamId));
      expect(sealed).not.toContain('Zebulon');
      expect(sealed).not.toContain('zebulon.quixotic@example.com');
      const opened = JSON.stringify(await system.store.readStream(s.streamId));
      expect(opened).not.toContain('Zebulon');
    }
    // The audit log follows the log asynchronously: the deletion endpoint does not wait for it.
    await waitForProjections(system.sql, ['audit_log'], await system.store.committedPosition(), 10_000);
    const audit = await system.sql`SELECT action FROM audit_logs WHERE entity_id = ${userId} ORDER BY position`;
    expect(audit.map((a) => a.action)).toContain('AccountDeleted');
    // The username and address are free again.
    expect((await app.inject({ method: 'POST', url: '/api/register', payload: person })).statusCode).toBe(201);
  });
});
