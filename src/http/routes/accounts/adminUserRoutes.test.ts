import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { cookieOf } from '../../../../tests/support/accounts.ts';
import { type RegisteredStudent, registeredStudent } from '../../../../tests/support/sessions.ts';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { adminUserPageSchema, adminUserSchema } from '../../../domain/accounts/adminUserApi.ts';
import { userStreamId } from '../../../domain/accounts/user.ts';
import { ACCOUNT_DEACTIVATED, INVALID_LOGIN } from '../../../domain/accounts/userActivityDecider.ts';
import {
  ALREADY_DEACTIVATED,
  CANNOT_DEACTIVATE_SELF,
  NOT_DEACTIVATED,
  STATUS_REASON_REQUIRED,
  STATUS_REASON_TOO_LONG,
} from '../../../domain/accounts/userDecider.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

let admin: string;
let adminId: string;
let finance: string;

async function staff(role: 'admin' | 'finance') {
  const { userId } = await createStaffAccount(system.accounts, system.clock, {
    username: `users-${role}`,
    email: `users-${role}@example.com`,
    firstName: 'Staff',
    lastName: role,
    password: 'Users-staff-2026!',
    role,
  });
  return { userId, cookie: `tm_session=${(await system.signIns.create(userId, role)).token}` };
}

const caughtUp = async () =>
  expect(await waitForProjections(system.sql, ['users', 'students'], await system.store.committedPosition(), 30_000)).toBe(true);
const get = (url: string, cookie = admin) => app.inject({ method: 'GET', url, headers: { cookie } });
const post = (url: string, payload: unknown, cookie = admin, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url, headers: { cookie, ...headers }, payload: payload as object });
const deactivate = (userId: string, reason: unknown, cookie = admin) => post(`/api/admin/users/${userId}/deactivate`, { reason }, cookie);
const reactivate = (userId: string, reason: unknown, cookie = admin) => post(`/api/admin/users/${userId}/reactivate`, { reason }, cookie);
const login = (username: string, password: string) => app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
const me = (cookie: string) => get('/api/user', cookie);
const streamLength = async (userId: string) => (await system.store.readStream(userStreamId(userId))).length;

beforeAll(async () => {
  const a = await staff('admin');
  admin = a.cookie;
  adminId = a.userId;
  finance = (await staff('finance')).cookie;
  await Promise.all(
    ['Ada Lovelace', 'Alan Turing', 'Grace Hopper'].map((name, i) => {
      const [firstName, lastName] = name.split(' ') as [string, string];
      return registeredStudent(system, `list${i}`, { firstName, lastName });
    }),
  );
  await caughtUp();
});

describe('the users list', () => {
  it('searches name, username and e-mail, filters by role and status, sorts and pages on the server', async () => {
    const byName = adminUserPageSchema.parse((await get('/api/admin/users?search=grace%20hop')).json());
    expect(byName.rows.map((u) => `${u.firstName} ${u.lastName}`)).toEqual(['Grace Hopper']);
    expect(byName.total).toBe(1);
    expect(byName.rows[0]).toMatchObject({ role: 'student', status: 'active', username: 'student-list2', deactivatedAt: null });
    expect(
      adminUserPageSchema.parse((await get('/api/admin/users?search=STUDENT-LIST1@EXAMPLE')).json()).rows.map((u) => u.lastName),
    ).toEqual(['Turing']);

    const finance = adminUserPageSchema.parse((await get('/api/admin/users?role=finance')).json());
    expect(finance.rows.map((u) => u.username)).toEqual(['users-finance']);

    const sorted = adminUserPageSchema.parse((await get('/api/admin/users?search=student-list&sort=name&order=asc')).json());
    expect(sorted.rows.map((u) => u.lastName)).toEqual(['Hopper', 'Lovelace', 'Turing']);
    const page2 = adminUserPageSchema.parse(
      (await get('/api/admin/users?search=student-list&sort=name&order=desc&page=2&pageSize=2')).json(),
    );
    expect(page2).toMatchObject({ total: 3 });
    expect(page2.rows.map((u) => u.lastName)).toEqual(['Hopper']);
  });

  it('refuses bad input with 400 and callers other than admins (finance included) with 403', async () => {
    for (const query of ['pageSize=101', 'page=0', 'sort=password', 'role=root', 'status=gone', `search=${'a'.repeat(1_000_000)}`]) {
      expect((await get(`/api/admin/users?${query}`)).statusCode, query).toBe(400);
    }
    expect((await get('/api/admin/users?search=%00')).statusCode).toBe(400);
    expect((await get('/api/admin/users', finance)).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/admin/users' })).statusCode).toBe(401);
    const student = await registeredStudent(system, 'nosy');
    expect((await get('/api/admin/users', student.cookie)).statusCode).toBe(403);
  });
});

describe('deactivating and reactivating an account', () => {
  let victim: RegisteredStudent;
  beforeAll(async () => {
    victim = await registeredStudent(system, 'victim');
    await caughtUp();
  });

  it('ends the account’s sessions at once, refuses its sign-in with the reason, and reactivation lets it back in', async () => {
    // A view-only login of the account's student: it carries the holder's id and ends with it.
    const viewOnly = await post(
      '/api/student/secondary-login',
      { secondaryUsername: 'victim-viewer', password: 'viewonly1' },
      victim.cookie,
    );
    expect(viewOnly.statusCode, viewOnly.body).toBe(200);
    const viewerSignIn = await login('victim-viewer', 'viewonly1');
    expect(viewerSignIn.statusCode, viewerSignIn.body).toBe(200);
    const viewerCookie = cookieOf(viewerSignIn);
    expect((await me(victim.cookie)).statusCode).toBe(200);
    expect((await me(viewerCookie)).statusCode).toBe(200);

    const res = await deactivate(victim.userId, '  Chargeback fraud  ');
    expect(res.statusCode, res.body).toBe(200);
    expect(adminUserSchema.parse(res.json())).toMatchObject({
      id: victim.userId,
      status: 'deactivated',
      deactivationReason: 'Chargeback fraud',
    });

    expect((await me(victim.cookie)).statusCode).toBe(401);
    expect((await me(viewerCookie)).statusCode).toBe(401);
    const refused = await login('student-victim', 'secret123');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(ACCOUNT_DEACTIVATED);
    expect(refused.headers['set-cookie']).toBeUndefined();
    // Only the right password learns why: a wrong one is the usual answer.
    expect((await login('student-victim', 'wrong-password')).json().message).toBe(INVALID_LOGIN);
    const viewerRefused = await login('victim-viewer', 'viewonly1');
    expect(viewerRefused.statusCode).toBe(403);
    expect(viewerRefused.json().message).toBe(ACCOUNT_DEACTIVATED);
    // A session somehow opened meanwhile (a sign-in racing the deactivation) is refused by the store too.
    const raced = await system.signIns.create(victim.userId, 'student');
    expect((await me(`tm_session=${raced.token}`)).statusCode).toBe(401);

    const list = adminUserPageSchema.parse((await get('/api/admin/users?status=deactivated')).json());
    expect(list.rows.map((u) => u.id)).toEqual([victim.userId]);

    const back = await reactivate(victim.userId, 'The bank cleared it');
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ status: 'active', deactivatedAt: null, deactivationReason: null });
    // Cookies from before stay dead; signing in again works.
    expect((await me(victim.cookie)).statusCode).toBe(401);
    expect((await me(`tm_session=${raced.token}`)).statusCode).toBe(401);
    const again = await login('student-victim', 'secret123');
    expect(again.statusCode, again.body).toBe(200);
    expect((await me(cookieOf(again))).statusCode).toBe(200);
    expect((await login('victim-viewer', 'viewonly1')).statusCode).toBe(200);
    expect(adminUserPageSchema.parse((await get('/api/admin/users?status=deactivated')).json()).total).toBe(0);
  });

  it('gives one 200 to 10 concurrent deactivations and 409 to the rest', async () => {
    const target = await registeredStudent(system, 'race');
    await caughtUp();
    const answers = await Promise.all(Array.from({ length: 10 }, () => deactivate(target.userId, 'Spam')));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) expect(refused.json().message).toBe(ALREADY_DEACTIVATED);
    const events = await system.store.readStream(userStreamId(target.userId));
    expect(events.filter((e) => e.type === 'UserDeactivated')).toHaveLength(1);
    expect((await me(target.cookie)).statusCode).toBe(401);
  });

  it('refuses bad reasons, the admin’s own account, unknown accounts, a second reactivation and non-admins; changing nothing', async () => {
    const target = await registeredStudent(system, 'guarded');
    await caughtUp();
    const before = await streamLength(target.userId);
    const cases: [unknown, number, string][] = [
      ['   ', 400, STATUS_REASON_REQUIRED],
      ['x'.repeat(501), 400, STATUS_REASON_TOO_LONG],
      // A megabyte is over the server's body limit before any schema reads it.
      ['x'.repeat(1_000_000), 413, 'Request body is too large'],
      [undefined, 400, STATUS_REASON_REQUIRED],
      [42, 400, STATUS_REASON_REQUIRED],
      ['bad\u0000byte', 400, ''],
      ['lone \ud800 surrogate', 400, ''],
    ];
    for (const [reason, status, message] of cases) {
      const res = await deactivate(target.userId, reason);
      expect(res.statusCode, `${String(reason).slice(0, 20)} → ${res.body.slice(0, 200)}`).toBe(status);
      if (message) expect(res.json().message).toBe(message);
    }
    const self = await deactivate(adminId, 'Leaving');
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe(CANNOT_DEACTIVATE_SELF);
    expect((await deactivate('no-such-user', 'Spam')).statusCode).toBe(404);
    const notDeactivated = await reactivate(target.userId, 'why');
    expect(notDeactivated.statusCode).toBe(409);
    expect(notDeactivated.json().message).toBe(NOT_DEACTIVATED);
    expect((await deactivate(target.userId, 'Spam', finance)).statusCode).toBe(403);
    expect((await deactivate(target.userId, 'Spam', target.cookie)).statusCode).toBe(403);
    expect(
      (await app.inject({ method: 'POST', url: `/api/admin/users/${target.userId}/deactivate`, payload: { reason: 'x' } })).statusCode,
    ).toBe(401);
    expect(await streamLength(target.userId)).toBe(before);
    expect((await me(target.cookie)).statusCode).toBe(200);
  });

  it('answers a retried request (same Idempotency-Key) with the first answer', async () => {
    const target = await registeredStudent(system, 'retry');
    await caughtUp();
    const headers = { 'idempotency-key': `deactivate-${target.userId}` };
    const first = await post(`/api/admin/users/${target.userId}/deactivate`, { reason: 'Spam' }, admin, headers);
    const second = await post(`/api/admin/users/${target.userId}/deactivate`, { reason: 'Spam' }, admin, headers);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect((await system.store.readStream(userStreamId(target.userId))).filter((e) => e.type === 'UserDeactivated')).toHaveLength(1);
  });
});
