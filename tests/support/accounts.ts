import type { FastifyInstance } from 'fastify';
import type { Sql } from '../../src/adapters/db/db.ts';
import { listOutbox } from '../../src/adapters/mail/outboxMailer.ts';

export const registration = (n: string, overrides: Record<string, unknown> = {}) => ({
  username: `user${n}`,
  email: `user${n}@example.com`,
  password: 'secret123',
  role: 'student',
  firstName: 'Ann',
  lastName: `Lee${n}`,
  phone: '+1 416 555 0100',
  grade: 'Grade 11',
  isUniversityStudent: false,
  termsAccepted: true,
  termsAcceptedVersion: '1.0',
  ...overrides,
});

/** Waits for the mail saga to deliver the newest code mailed to `to`. */
export async function codeFor(sql: Sql, to: string, subjectPart: string, after = 0, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = (await listOutbox(sql, { to })).filter((m) => m.subject.includes(subjectPart) && m.sentAt.getTime() >= after);
    const code = mails[0]?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no "${subjectPart}" mail for ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function cookieOf(res: { headers: Record<string, unknown> }): string {
  const set = res.headers['set-cookie'];
  const first = (Array.isArray(set) ? set : [set]).find((c) => typeof c === 'string' && c.startsWith('tm_session=')) as string | undefined;
  if (!first) throw new Error('no session cookie');
  return first.split(';')[0] as string;
}

/** Registers, verifies with the mailed code, signs in; returns the session cookie. */
export async function signedUpStudent(
  app: FastifyInstance,
  sql: Sql,
  n: string,
): Promise<{ cookie: string; userId: string; email: string }> {
  const body = registration(n);
  const res = await app.inject({ method: 'POST', url: '/api/register', payload: body });
  // 503: recorded, but the read models lagged past the wait (a loaded machine); the account exists.
  if (res.statusCode !== 201 && res.statusCode !== 503) throw new Error(`register ${res.statusCode} ${res.body}`);
  const code = await codeFor(sql, body.email, 'verification code');
  const verified = await app.inject({ method: 'POST', url: '/api/verify-email', payload: { email: body.email, code } });
  if (verified.statusCode !== 200) throw new Error(`verify ${verified.statusCode} ${verified.body}`);
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { username: body.username, password: body.password } });
  if (login.statusCode !== 200) throw new Error(`login ${login.statusCode} ${login.body}`);
  return { cookie: cookieOf(login), userId: (login.json() as { id: string }).id, email: body.email };
}
