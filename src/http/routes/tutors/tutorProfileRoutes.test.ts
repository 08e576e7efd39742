import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { type ApprovedTutor, approvedTutor } from '../../../../tests/support/tutors.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { tutorStreamId } from '../../../domain/tutors/tutor.ts';
import {
  dashboardStatsSchema,
  MAX_PICTURE_BYTES,
  PICTURE_NOT_AN_IMAGE,
  PICTURE_TOO_LARGE,
  tutorProfileSchema,
  tutorSubjectSchema,
} from '../../../domain/tutors/tutorApi.ts';
import { AT_LEAST_ONE_SUBJECT, NOT_YOUR_PROFILE, TUTOR_NOT_FOUND } from '../../../domain/tutors/tutorDecider.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';
import { listSubjects } from '../../../projections/subjects/queries.ts';

let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

let ada: ApprovedTutor;
let ben: ApprovedTutor;
let admin: string;
beforeAll(async () => {
  await seedSubjectCatalog(system);
  ada = await approvedTutor(system, 'profile-ada', { firstName: 'Ada', lastName: 'Lovelace' });
  ben = await approvedTutor(system, 'profile-ben');
  const { userId } = await createStaffAccount(system.accounts, system.clock, {
    username: 'profile-admin',
    email: 'profile-admin@example.com',
    firstName: 'Pro',
    lastName: 'Admin',
    password: 'Profile-admin-2026!',
    role: 'admin',
  });
  if (!(await waitForProjections(system.sql, ['users', 'subjects'], await system.store.committedPosition(), 30_000)))
    throw new Error('the read models did not catch up');
  admin = `tm_session=${(await system.signIns.create(userId, 'admin')).token}`;
});

type Method = 'GET' | 'PUT' | 'POST' | 'PATCH';
const call = (method: Method, url: string, cookie: string | null, payload?: unknown, headers: Record<string, string> = {}) =>
  app.inject({
    method,
    url,
    headers: { ...(cookie ? { cookie } : {}), ...headers },
    ...(payload === undefined ? {} : { payload: payload as string }),
  });

const png = (size: number) => {
  const bytes = Buffer.alloc(size, 0);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes;
};
const upload = async (tutor: ApprovedTutor) => {
  const res = await call('POST', '/api/tutor/profile-picture/upload', tutor.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ uploadURL: string }>().uploadURL;
};
const putBytes = (url: string, cookie: string | null, bytes: Buffer, contentType = 'image/png') =>
  call('PUT', url, cookie, bytes, { 'content-type': contentType });

describe('the tutor profile', () => {
  it('answers the signed-in tutor’s profile', async () => {
    const res = await call('GET', '/api/tutor/profile', ada.cookie);
    expect(res.statusCode).toBe(200);
    expect(tutorProfileSchema.parse(res.json())).toEqual({
      id: ada.tutorId,
      userId: ada.userId,
      onboardingCompleted: false,
      bio: null,
      experience: null,
      profileImagePath: null,
      hourlyRate: null,
    });
  });

  it('edits the own bio (trimmed) and experience; a GET right after shows them', async () => {
    const res = await call('PUT', `/api/tutors/${ada.tutorId}`, ada.cookie, { bio: '  Calculus, patiently.  ', experience: 7 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ bio: 'Calculus, patiently.', experience: 7 });
    expect((await call('GET', '/api/tutor/profile', ada.cookie)).json()).toMatchObject({ bio: 'Calculus, patiently.', experience: 7 });
  });

  it("refuses someone else's profile (403), an unknown one (404); an admin may edit any", async () => {
    const other = await call('PUT', `/api/tutors/${ben.tutorId}`, ada.cookie, { bio: 'hijacked' });
    expect([other.statusCode, other.json().message]).toEqual([403, NOT_YOUR_PROFILE]);
    const unknown = await call('PUT', '/api/tutors/00000000-0000-4000-8000-000000000000', admin, { bio: 'x' });
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, TUTOR_NOT_FOUND]);
    const byAdmin = await call('PUT', `/api/tutors/${ben.tutorId}`, admin, { experience: 2 });
    expect([byAdmin.statusCode, byAdmin.json().experience]).toEqual([200, 2]);
    expect((await call('PUT', `/api/tutors/${ben.tutorId}`, null, { bio: 'x' })).statusCode).toBe(401);
  });

  it('refuses NUL bytes, overlong bios, bad experience and unknown fields with 400', async () => {
    for (const body of [
      { bio: 'a\u0000b' },
      { bio: 'x'.repeat(10_001) },
      { bio: 'x'.repeat(2001) },
      { experience: 81 },
      { experience: 1.5 },
      { rate: 1 },
    ]) {
      const res = await call('PUT', `/api/tutors/${ada.tutorId}`, ada.cookie, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    // A megabyte never reaches the route: the request body limit answers first.
    expect((await call('PUT', `/api/tutors/${ada.tutorId}`, ada.cookie, { bio: 'x'.repeat(1_000_000) })).statusCode).toBe(413);
  });

  it('20 concurrent identical edits all answer 200 and record one event', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call('PUT', `/api/tutors/${ben.tutorId}`, ben.cookie, { bio: 'Physics, concurrently.' })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const events = await system.store.readStream(tutorStreamId(ben.tutorId));
    expect(
      events.filter((e) => e.type === 'TutorProfileEdited' && (e.data as { bio?: string }).bio === 'Physics, concurrently.'),
    ).toHaveLength(1);
  });

  it('replays an idempotent edit', async () => {
    const headers = { 'idempotency-key': 'profile-edit-0001' };
    const first = await call('PUT', `/api/tutors/${ada.tutorId}`, ada.cookie, { experience: 8 }, headers);
    const again = await call('PUT', `/api/tutors/${ada.tutorId}`, ada.cookie, { experience: 8 }, headers);
    expect([first.statusCode, again.statusCode, again.headers['idempotent-replayed']]).toEqual([200, 200, 'true']);
  });
});

describe('the name', () => {
  it('changes the name (trimmed) and answers the current user; refuses empty parts and view-only logins', async () => {
    const res = await call('PATCH', '/api/user/name', ada.cookie, { firstName: ' Augusta ', lastName: 'King ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: ada.userId, firstName: 'Augusta', lastName: 'King' });
    expect((await call('GET', '/api/user', ada.cookie)).json()).toMatchObject({ firstName: 'Augusta', lastName: 'King' });
    const empty = await call('PATCH', '/api/user/name', ada.cookie, { firstName: '  ', lastName: 'King' });
    expect([empty.statusCode, empty.json().message]).toEqual([400, 'First name is required']);
    expect((await call('PATCH', '/api/user/name', null, { firstName: 'A', lastName: 'B' })).statusCode).toBe(401);
    const viewOnly = `tm_session=${(await system.signIns.create(ada.userId, 'student_secondary', null)).token}`;
    expect((await call('PATCH', '/api/user/name', viewOnly, { firstName: 'A', lastName: 'B' })).statusCode).toBe(403);
  });
});

describe('the profile picture', () => {
  it('uploads, sets and serves a picture with its type, nosniff and cache headers', async () => {
    const url = await upload(ada);
    expect(url).toMatch(/^\/api\/tutor\/profile-picture\/uploads\/[0-9a-f]{48}$/);
    const bytes = png(MAX_PICTURE_BYTES);
    const put = await putBytes(url, ada.cookie, bytes, 'application/octet-stream');
    expect(put.statusCode, put.body).toBe(200);
    const set = await call('PUT', '/api/tutor/profile-picture', ada.cookie, { profileImageURL: url });
    expect(set.statusCode, set.body).toBe(200);
    const { profileImagePath } = tutorProfileSchema.parse(set.json());
    expect(profileImagePath).toMatch(new RegExp(`^/api/tutors/${ada.tutorId}/picture\\?v=[0-9a-f]{12}$`));
    const served = await call('GET', profileImagePath as string, null);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.rawPayload.equals(bytes)).toBe(true);
    // Setting the same upload again changes nothing; the link itself is one-time.
    expect((await call('PUT', '/api/tutor/profile-picture', ada.cookie, { profileImageURL: url })).statusCode).toBe(200);
    expect((await putBytes(url, ada.cookie, png(100))).statusCode).toBe(409);
  });

  it('takes the bytes whatever the content type says, or without one', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
    const none = await app.inject({ method: 'PUT', url: await upload(ada), headers: { cookie: ada.cookie }, payload: jpeg });
    expect([none.statusCode, none.json().contentType]).toEqual([200, 'image/jpeg']);
    const json = await putBytes(await upload(ada), ada.cookie, jpeg, 'application/json');
    expect([json.statusCode, json.json().contentType]).toEqual([200, 'image/jpeg']);
  });

  it(`refuses ${MAX_PICTURE_BYTES + 1} bytes with 413`, async () => {
    const res = await putBytes(await upload(ada), ada.cookie, png(MAX_PICTURE_BYTES + 1));
    expect([res.statusCode, res.json().message]).toEqual([413, PICTURE_TOO_LARGE]);
  });

  it('refuses bytes that are not an image, whatever the name or type says', async () => {
    const url = await upload(ada);
    const res = await putBytes(url, ada.cookie, Buffer.from('just text, called photo.png'), 'image/png');
    expect([res.statusCode, res.json().message]).toEqual([400, PICTURE_NOT_AN_IMAGE]);
    const svg = await putBytes(url, ada.cookie, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>'), 'image/svg+xml');
    expect(svg.statusCode).toBe(400);
  });

  it("refuses someone else's upload link, an unknown one, and anonymous uploads", async () => {
    const url = await upload(ada);
    expect((await putBytes(url, ben.cookie, png(100))).statusCode).toBe(404);
    expect((await call('PUT', '/api/tutor/profile-picture', ben.cookie, { profileImageURL: url })).statusCode).toBe(404);
    expect((await putBytes('/api/tutor/profile-picture/uploads/../../etc', ada.cookie, png(100))).statusCode).toBe(404);
    expect((await putBytes(url, null, png(100))).statusCode).toBe(401);
    expect((await call('PUT', '/api/tutor/profile-picture', ada.cookie, { profileImageURL: url })).statusCode).toBe(400);
  });

  it('answers 404 for a tutor without a picture', async () => {
    expect((await call('GET', `/api/tutors/${ben.tutorId}/picture`, null)).statusCode).toBe(404);
    expect((await call('GET', '/api/tutors/nobody/picture', null)).statusCode).toBe(404);
  });
});

describe('teaching subjects', () => {
  it('saves the chosen subjects with the ones they imply, server-side', async () => {
    const catalog = await listSubjects(system.sql);
    const idOf = (name: string) => catalog.find((s) => s.name === name)?.id as string;
    const res = await call('POST', '/api/tutor/subjects', ada.cookie, {
      subjectQualifications: [{ subjectId: idOf('Calculus (University/College)'), maxGradeLevel: 'university' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = tutorSubjectSchema.array().parse(res.json());
    expect(saved.map((s) => s.name).sort()).toEqual(
      ['Advanced Functions', 'Calculus (Grade 11-12)', 'Calculus (University/College)', 'Functions', 'Math (Grade 10 & Under)'].sort(),
    );
    expect((await call('GET', '/api/tutor/subjects', ada.cookie)).json()).toEqual(saved);
  });

  it(`refuses an empty set: ${AT_LEAST_ONE_SUBJECT}; and unknown subjects`, async () => {
    const empty = await call('POST', '/api/tutor/subjects', ada.cookie, { subjectQualifications: [] });
    expect([empty.statusCode, empty.json().message]).toEqual([400, AT_LEAST_ONE_SUBJECT]);
    const unknown = await call('POST', '/api/tutor/subjects', ada.cookie, {
      subjectQualifications: [{ subjectId: 'nope', maxGradeLevel: 'university' }],
    });
    expect(unknown.statusCode).toBe(400);
  });
});

describe('dashboard figures', () => {
  it('answers zeros while no sessions exist', async () => {
    const res = await call('GET', '/api/tutor/dashboard-stats', ada.cookie);
    expect(res.statusCode).toBe(200);
    expect(dashboardStatsSchema.parse(res.json())).toEqual({
      activeStudents: 0,
      sessionsThisWeek: 0,
      hoursThisBillingPeriod: 0,
      earningsThisBillingPeriod: 0,
    });
  });
});
