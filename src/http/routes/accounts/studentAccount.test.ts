import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { cookieOf, registration, signedUpStudent } from '../../../../tests/support/accounts.ts';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { currentUserSchema } from '../../../domain/accounts/accountApi.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

const request = (method: 'POST' | 'PUT' | 'GET', url: string, cookie: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: { cookie } });

async function projectorsHealthy() {
  const rows = await system.sql<{ name: string; status: string }[]>`SELECT name, status FROM projection_checkpoints`;
  expect(rows.filter((r) => r.status === 'failed')).toEqual([]);
}

describe('secondary login usernames share the account namespace', () => {
  it('gives exactly one of 10 concurrent claims of one name, and keeps every projector running', async () => {
    const students = await Promise.all(Array.from({ length: 10 }, (_, i) => signedUpStudent(app, system.sql, `race${i}`)));
    const answers = await Promise.all(
      students.map((s) =>
        request('POST', '/api/student/secondary-login', s.cookie, { secondaryUsername: 'shared-viewer', password: 'viewonly1' }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const refused of answers.filter((a) => a.statusCode === 409))
      expect(refused.json()).toEqual({ message: 'Username already exists' });
    await projectorsHealthy();
  });

  it("refuses an account's username as a secondary login, and a registration of a secondary login's name", async () => {
    const a = await signedUpStudent(app, system.sql, 'ns1');
    const taken = await request('POST', '/api/student/secondary-login', a.cookie, { secondaryUsername: 'userns1', password: 'viewonly1' });
    expect(taken.statusCode).toBe(409);
    expect(
      (await request('POST', '/api/student/secondary-login', a.cookie, { secondaryUsername: 'viewer-ns1', password: 'viewonly1' }))
        .statusCode,
    ).toBe(200);
    const clash = await app.inject({ method: 'POST', url: '/api/register', payload: registration('x', { username: 'Viewer-NS1' }) });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ message: 'Username already exists' });
    await projectorsHealthy();
  });

  it('renaming a view-only login frees the old name and ends its sessions', async () => {
    const a = await signedUpStudent(app, system.sql, 'rn1');
    await request('POST', '/api/student/secondary-login', a.cookie, { secondaryUsername: 'old-view', password: 'viewonly1' });
    const viewer = await app.inject({ method: 'POST', url: '/api/login', payload: { username: 'old-view', password: 'viewonly1' } });
    expect(viewer.statusCode).toBe(200);
    const viewerCookie = cookieOf(viewer);
    expect(
      (await request('POST', '/api/student/secondary-login', a.cookie, { secondaryUsername: 'new-view', password: 'viewonly2' }))
        .statusCode,
    ).toBe(200);
    expect((await request('GET', '/api/user', viewerCookie)).statusCode).toBe(401);
    const b = await signedUpStudent(app, system.sql, 'rn2');
    expect(
      (await request('POST', '/api/student/secondary-login', b.cookie, { secondaryUsername: 'old-view', password: 'viewonly1' }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses a username that is an e-mail address', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registration('em', { username: 'someone@example.com' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('A username cannot be an e-mail address');
  });
});

describe('the student account (grade and school year)', () => {
  it('lets the student set them, refuses strangers and bad input', async () => {
    const a = await signedUpStudent(app, system.sql, 'gr1');
    // The answer is what the UI's shared schema says it is.
    const me = currentUserSchema.parse((await request('GET', '/api/user', a.cookie)).json());
    const studentId = me.student?.id as string;
    const bad = await request('PUT', `/api/student/${studentId}/account`, a.cookie, { grade: 'Grade 11' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Grade and school year start month are required');
    const ok = await request('PUT', `/api/student/${studentId}/account`, a.cookie, {
      grade: 'University/College',
      schoolYearStartMonth: 9,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ id: studentId, grade: 'University/College', schoolYearStartMonth: 9, isUniversityStudent: true });
    expect(((await request('GET', '/api/user', a.cookie)).json() as { student: unknown }).student).toMatchObject({
      grade: 'University/College',
    });
    const stranger = await signedUpStudent(app, system.sql, 'gr2');
    const refused = await request('PUT', `/api/student/${studentId}/account`, stranger.cookie, {
      grade: 'Grade 9',
      schoolYearStartMonth: 9,
    });
    expect(refused.statusCode).toBe(404);
  });
});
