import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestSystem, withTestApp } from '../../../../tests/support/system.ts';
import { createStaffAccount } from '../../../commands/accounts/seedDemo.ts';
import { seedSubjectCatalog } from '../../../commands/subjects/seedCatalog.ts';
import { catalogSubjects } from '../../../domain/subjects/catalog.ts';
import { qualificationMapping } from '../../../domain/subjects/qualifications.ts';
import { waitForProjections } from '../../../projections/runner/projectionRunner.ts';

/**
 * The test system is not seeded (main.ts seeds the catalogue at an API start; the test system is
 * built without main.ts, so other suites' logs stay as they were): these tests seed it themselves.
 */
let system: TestSystem;
let app: FastifyInstance;
withTestApp((s, a) => {
  system = s;
  app = a;
});

let admin: string;
let tutor: string;
beforeAll(async () => {
  await seedSubjectCatalog(system);
  const { userId } = await createStaffAccount(system.accounts, system.clock, {
    username: 'catalogue-admin',
    email: 'catalogue-admin@example.com',
    firstName: 'Cat',
    lastName: 'Admin',
    password: 'Catalogue-admin-2026!',
    role: 'admin',
  });
  // Other databases' transactions on a shared server can hold back what the projectors see: wait long, and say so.
  const caughtUp = await waitForProjections(
    system.sql,
    ['users', 'subjects', 'gradetiers'],
    await system.store.committedPosition(),
    30_000,
  );
  if (!caughtUp) throw new Error('the read models did not catch up with the seeded catalogue');
  admin = `tm_session=${(await system.signIns.create(userId, 'admin')).token}`;
  tutor = `tm_session=${(await system.signIns.create('someone', 'tutor')).token}`;
});

interface Subject {
  id: string;
  name: string;
  description: string | null;
  category: string | null;
  gradeLevel: string;
  isActive?: boolean;
}

const subjectEventCount = async () =>
  Number(
    (await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events WHERE type LIKE 'Subject%' OR type = 'GradeTierDefined'`)[0]?.n,
  );
const listed = async () => (await app.inject({ method: 'GET', url: '/api/subjects' })).json() as Subject[];
const asAdmin = (method: 'POST' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method, url, headers: { cookie: admin, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
const add = (payload: unknown, headers?: Record<string, string>) => asAdmin('POST', '/api/admin/subjects', payload, headers);
const unknownId = '00000000-0000-4000-8000-000000000000';

describe('the seeded catalogue', () => {
  it('GET /api/subjects lists every seeded subject as { id, name, description, category, gradeLevel }', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/subjects' });
    expect(res.statusCode).toBe(200);
    const subjects = res.json() as Subject[];
    expect(subjects).toHaveLength(catalogSubjects.length);
    for (const s of subjects) expect(Object.keys(s).sort()).toEqual(['category', 'description', 'gradeLevel', 'id', 'name']);
    const names = subjects.map((s) => s.name);
    for (const [key, implied] of Object.entries(qualificationMapping)) for (const name of [key, ...implied]) expect(names).toContain(name);
    expect(subjects.find((s) => s.name === 'Advanced Functions')).toMatchObject({ category: 'Mathematics', gradeLevel: 'grade_11_12' });
  });

  it('GET /api/gradetiers gives the three tiers with their base price in dollars', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/gradetiers' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: 'grade_10_under', name: 'Grade 10 & Under', basePrice: 60 },
      { id: 'grade_11_12', name: 'Grade 11-12', basePrice: 75 },
      { id: 'university', name: 'University', basePrice: 90 },
    ]);
  });

  it('seeding again, even twice at once, appends nothing', async () => {
    const before = await subjectEventCount();
    await Promise.all([seedSubjectCatalog(system), seedSubjectCatalog(system)]);
    expect(await subjectEventCount()).toBe(before);
  });

  it('GET /api/subjects/{id} shows one subject; an unknown or malformed id is a 404 with a message', async () => {
    const [first] = await listed();
    const res = await app.inject({ method: 'GET', url: `/api/subjects/${first?.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(first);
    for (const id of [unknownId, 'x', 'x'.repeat(100)]) {
      const missing = await app.inject({ method: 'GET', url: `/api/subjects/${id}` });
      expect(missing.statusCode, id).toBe(404);
      expect(missing.json()).toEqual({ message: 'Subject not found' });
    }
    // Fastify refuses a path parameter over 100 characters itself.
    expect((await app.inject({ method: 'GET', url: `/api/subjects/${'x'.repeat(101)}` })).statusCode).toBe(414);
    const nul = await app.inject({ method: 'GET', url: '/api/subjects/a%00b' });
    expect(nul.statusCode).toBe(400);
  });
});

describe('the admin catalogue commands', () => {
  it('adds a subject (201) that the answer and the public list already show', async () => {
    const res = await add({ name: '  Organic   Chemistry (University/College) ', description: 'Reactions.', gradeLevel: 'university' });
    expect(res.statusCode).toBe(201);
    const subject = res.json() as Subject;
    expect(subject).toEqual({
      id: expect.any(String),
      name: 'Organic Chemistry (University/College)',
      description: 'Reactions.',
      category: null,
      gradeLevel: 'university',
      isActive: true,
    });
    const { isActive: _, ...shown } = subject;
    expect(await listed()).toContainEqual(shown);
  });

  it('refuses a name already used at the level (409), ignoring case and spacing, and allows it at another level', async () => {
    const before = await subjectEventCount();
    const duplicate = await add({ name: 'physics  (grade 11-12)', gradeLevel: 'grade_11_12' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ message: 'A subject named "physics (grade 11-12)" already exists at Grade 11-12' });
    // The claim is given back only by its holder: a refused add leaves the log as it was.
    expect(await subjectEventCount()).toBe(before);
    const elsewhere = await add({ name: 'Physics (Grade 11-12)', category: 'Science', gradeLevel: 'university' });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('of concurrent adds of one name at one level, exactly one wins', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => add({ name: 'Astronomy', gradeLevel: 'grade_10_under' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect((await listed()).filter((s) => s.name === 'Astronomy')).toHaveLength(1);
  });

  it('edits a subject; a rename frees the old name and claims the new one', async () => {
    const created = (await add({ name: 'Geography', category: 'Social Sciences', gradeLevel: 'grade_10_under' })).json() as Subject;
    const res = await asAdmin('PUT', `/api/admin/subjects/${created.id}`, {
      name: 'World Geography (Grade 11-12)',
      description: 'Maps.',
      category: 'Social Sciences',
      gradeLevel: 'grade_11_12',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: created.id,
      name: 'World Geography (Grade 11-12)',
      description: 'Maps.',
      category: 'Social Sciences',
      gradeLevel: 'grade_11_12',
      isActive: true,
    });
    expect((await add({ name: 'Geography', gradeLevel: 'grade_10_under' })).statusCode).toBe(201);
    const taken = await add({ name: 'World Geography (Grade 11-12)', gradeLevel: 'grade_11_12' });
    expect(taken.statusCode).toBe(409);
  });

  it('refuses to rename a subject to a name used at the level (409) and leaves it unchanged', async () => {
    const created = (await add({ name: 'Latin', gradeLevel: 'grade_11_12' })).json() as Subject;
    const res = await asAdmin('PUT', `/api/admin/subjects/${created.id}`, { name: 'Astronomy', gradeLevel: 'grade_10_under' });
    expect(res.statusCode).toBe(409);
    expect((res.json() as { message: string }).message).toBe('A subject named "Astronomy" already exists at Grade 10 & Under');
    expect((await app.inject({ method: 'GET', url: `/api/subjects/${created.id}` })).json()).toMatchObject({ name: 'Latin' });
    // Its own name stays claimed by it.
    expect((await add({ name: 'Latin', gradeLevel: 'grade_11_12' })).statusCode).toBe(409);
  });

  it('deactivated subjects are not listed but keep their name; reactivation lists them again', async () => {
    const created = (await add({ name: 'Drama', gradeLevel: 'grade_10_under' })).json() as Subject;
    const off = await asAdmin('POST', `/api/admin/subjects/${created.id}/deactivate`);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id: created.id, isActive: false });
    expect((await listed()).map((s) => s.id)).not.toContain(created.id);
    expect((await app.inject({ method: 'GET', url: `/api/subjects/${created.id}` })).statusCode).toBe(200);
    const admins = (await app.inject({ method: 'GET', url: '/api/admin/subjects', headers: { cookie: admin } })).json() as Subject[];
    expect(admins.find((s) => s.id === created.id)).toMatchObject({ isActive: false });
    expect((await add({ name: 'Drama', gradeLevel: 'grade_10_under' })).statusCode).toBe(409);

    const before = await subjectEventCount();
    expect((await asAdmin('POST', `/api/admin/subjects/${created.id}/deactivate`)).statusCode).toBe(200);
    expect(await subjectEventCount()).toBe(before);

    const on = await asAdmin('POST', `/api/admin/subjects/${created.id}/reactivate`);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ isActive: true });
    expect((await listed()).map((s) => s.id)).toContain(created.id);
  });

  it('answers 404 for an unknown or malformed subject id', async () => {
    for (const id of [unknownId, 'x']) {
      const calls = [
        asAdmin('PUT', `/api/admin/subjects/${id}`, { name: 'Any', gradeLevel: 'university' }),
        asAdmin('POST', `/api/admin/subjects/${id}/deactivate`),
        asAdmin('POST', `/api/admin/subjects/${id}/reactivate`),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode, `${id} ${res.body}`).toBe(404);
        expect(res.json()).toEqual({ message: 'Subject not found' });
      }
    }
  });

  it('replays an answer for a repeated Idempotency-Key and adds once', async () => {
    const headers = { 'idempotency-key': 'add-music-0001' };
    const first = await add({ name: 'Music', gradeLevel: 'grade_10_under' }, headers);
    const again = await add({ name: 'Music', gradeLevel: 'grade_10_under' }, headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
  });
});

describe('the admin routes under attack', () => {
  const writes = async (id: string): Promise<[string, string, unknown][]> => [
    ['POST', '/api/admin/subjects', { name: 'Chess', gradeLevel: 'grade_10_under' }],
    ['PUT', `/api/admin/subjects/${id}`, { name: 'Chess', gradeLevel: 'grade_10_under' }],
    ['POST', `/api/admin/subjects/${id}/deactivate`, undefined],
    ['POST', `/api/admin/subjects/${id}/reactivate`, undefined],
    ['GET', '/api/admin/subjects', undefined],
  ];

  it('refuses anonymous callers (401) and other roles (403) on the server, changing nothing', async () => {
    const [subject] = await listed();
    const before = await subjectEventCount();
    for (const [method, url, payload] of await writes(subject?.id ?? unknownId)) {
      for (const cookie of [undefined, tutor]) {
        const res = await app.inject({
          method: method as 'POST',
          url,
          headers: cookie ? { cookie } : {},
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
        expect(res.statusCode, `${cookie ? 'tutor' : 'anonymous'} ${method} ${url}`).toBe(cookie ? 403 : 401);
      }
    }
    expect(await subjectEventCount()).toBe(before);
    expect((await listed()).find((s) => s.id === subject?.id)).toEqual(subject);
  });

  it.each([
    ['a NUL byte in the name', { name: 'Ch\u0000ess', gradeLevel: 'grade_10_under' }, 'name', 400],
    ['a lone surrogate in the description', { name: 'Chess', description: 'a\uD800b', gradeLevel: 'grade_10_under' }, 'description', 400],
    ['a NUL byte in a field name', { name: 'Chess', gradeLevel: 'grade_10_under', 'x\u0000': 1 }, 'x\uFFFD', 400],
    ['a missing name', { gradeLevel: 'grade_10_under' }, 'name', 400],
    ['a blank name', { name: '   ', gradeLevel: 'grade_10_under' }, 'name', 400],
    ['a name of 201 characters', { name: 'x'.repeat(201), gradeLevel: 'grade_10_under' }, 'name', 400],
    ['a 200 kB description', { name: 'Chess', description: 'x'.repeat(200_000), gradeLevel: 'grade_10_under' }, 'description', 400],
    ['a wrong-typed name', { name: 42, gradeLevel: 'grade_10_under' }, 'name', 400],
    ['an unknown grade level', { name: 'Chess', gradeLevel: 'grade_13' }, 'gradeLevel', 400],
    ['a missing grade level', { name: 'Chess' }, 'gradeLevel', 400],
    ['an unexpected field', { name: 'Chess', gradeLevel: 'grade_10_under', isActive: false }, '', 400],
    // Over the app's 256 kB body limit: refused before the body is parsed.
    ['a 1 MB name', { name: 'x'.repeat(1_000_000), gradeLevel: 'grade_10_under' }, null, 413],
  ])('refuses %s on add and edit, and records nothing', async (_label, payload, field, status) => {
    const [subject] = await listed();
    const before = await subjectEventCount();
    for (const res of [await add(payload), await asAdmin('PUT', `/api/admin/subjects/${subject?.id}`, payload)]) {
      expect(res.statusCode, res.body.slice(0, 200)).toBe(status);
      const body = res.json() as { message: string; field?: string };
      expect(body.message).toBeTruthy();
      if (field) expect(body.field).toBe(field);
    }
    expect(await subjectEventCount()).toBe(before);
    expect((await listed()).find((s) => s.id === subject?.id)).toEqual(subject);
  });

  it('names the rule broken in the message', async () => {
    expect((await add({ name: 'x'.repeat(201), gradeLevel: 'university' })).json()).toMatchObject({ message: 'Name is too long' });
    expect((await add({ name: ' ', gradeLevel: 'university' })).json()).toMatchObject({ message: 'Name is required' });
    expect((await add({ gradeLevel: 'university' })).json()).toMatchObject({ message: 'Name is required' });
    expect((await add({ name: 'Chess', gradeLevel: 'x' })).json()).toMatchObject({ message: 'Please choose a grade level' });
    expect((await add({ name: 'Ch\u0000ess', gradeLevel: 'university' })).json()).toMatchObject({
      message: 'Name contains characters that cannot be stored',
    });
  });
});
