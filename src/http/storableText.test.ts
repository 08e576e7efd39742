import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registration } from '../../tests/support/accounts.ts';
import { createTestSystem, type TestSystem } from '../../tests/support/system.ts';
import { buildApp, type DeclaredRoute } from './app.ts';
import { fieldLabel, findUnstorableText } from './kit/storableText.ts';

let system: TestSystem;
let app: FastifyInstance;
/** A session for every role a route may ask for (the guard runs after the role check). */
const cookies = new Map<string, string>();

beforeAll(async () => {
  system = await createTestSystem('all');
  app = await buildApp(system, { logger: false });
  for (const role of ['admin', 'finance', 'tutor', 'parent', 'student', 'student_secondary']) {
    const { token } = await system.signIns.create(`probe-${role}`, role, role === 'student_secondary' ? 'probe-student' : null);
    cookies.set(role, `tm_session=${token}`);
  }
});
afterAll(async () => {
  await app?.close();
  await system?.dispose();
});

const NUL = 'a\u0000b';
const LONE_HIGH = 'x\uD800y';
const LONE_LOW = '\uDC00';
const BAD = [NUL, LONE_HIGH, LONE_LOW];

const appended = async () =>
  Number((await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events WHERE type <> 'AccountMailSent'`)[0]?.n);

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; anyOf?: JsonSchema[]; allOf?: JsonSchema[] };

/** Every field path of a JSON schema (nested objects included), from the OpenAPI document. */
function fieldPaths(schema: JsonSchema | undefined, prefix: string[] = []): string[][] {
  if (!schema) return [];
  const paths: string[][] = [];
  for (const part of [schema, ...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) {
    for (const [name, inner] of Object.entries(part.properties ?? {})) {
      const nested = fieldPaths(inner, [...prefix, name]);
      paths.push(...(nested.length > 0 ? nested : [[...prefix, name]]));
    }
  }
  return paths;
}

/** A body with `value` at `path` and a harmless string everywhere else. */
function bodyWith(paths: string[][], path: string[], value: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const p of [...paths, path]) {
    let at = body;
    for (const segment of p.slice(0, -1)) {
      at[segment] ??= {};
      at = at[segment] as Record<string, unknown>;
    }
    at[p[p.length - 1] as string] = p === path ? value : 'ok';
  }
  return body;
}

type OpenApi = { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>> };

/**
 * Sends the route NUL and lone surrogates in each field of its body schema (or in a `probe`
 * field when it has none), then in its query string; returns the fields probed.
 */
async function probe(route: DeclaredRoute): Promise<string[]> {
  const cookie = route.roles === 'public' ? undefined : cookies.get(route.roles[0] as string);
  const headers = cookie ? { cookie } : {};
  if (route.binaryBody) {
    // Raw bytes (an upload) are not text: refused as not an image, or the link as unknown; never a 5xx.
    const url = route.url.replace(/:([A-Za-z0-9_]+)/g, 'x');
    for (const bad of BAD) {
      const res = await app.inject({ method: route.method as 'PUT', url, payload: { probe: bad }, headers });
      expect(res.statusCode, `${route.method} ${route.url} → ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${route.method} ${route.url} → ${res.body}`).toBeLessThan(500);
    }
    return [`${route.method} ${route.url} (bytes)`];
  }
  const operation = (app.swagger() as OpenApi).paths[route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[route.method.toLowerCase()];
  const paths = fieldPaths(Object.values(operation?.requestBody?.content ?? {})[0]?.schema);
  const url = route.url.replace(/:([A-Za-z0-9_]+)/g, 'x');
  const method = route.method as 'POST';
  const probed: string[] = [];
  for (const path of paths.length > 0 ? paths : [['probe']]) {
    for (const bad of BAD) {
      const res = await app.inject({ method, url, payload: bodyWith(paths, path, bad), headers });
      const label = `${route.method} ${route.url} ${path.join('.')} ${JSON.stringify(bad)}`;
      expect(res.statusCode, `${label} → ${res.statusCode} ${res.body}`).toBe(400);
      expect(res.json(), label).toMatchObject({ field: path.join('.'), message: expect.stringContaining('cannot be stored') });
    }
    probed.push(`${route.method} ${route.url} ${path.join('.')}`);
  }
  for (const query of ['probe=a%00b', 'probe=%ED%A0%80', 'a%00=1']) {
    const res = await app.inject({ method, url: `${url}?${query}`, payload: {}, headers });
    expect(res.statusCode, `${route.method} ${route.url}?${query} → ${res.body}`).toBeLessThan(500);
  }
  return probed;
}

describe('text PostgreSQL cannot store is refused at the boundary', () => {
  it('finds NUL and lone surrogates at any depth, in values and in field names', () => {
    expect(findUnstorableText({ a: 'fine', b: ['ok', { c: NUL }] })).toEqual({ path: ['b', '1', 'c'], inName: false });
    expect(findUnstorableText({ a: [LONE_HIGH] })).toEqual({ path: ['a', '0'], inName: false });
    expect(findUnstorableText({ ok: { [`k${NUL}`]: 'v' } })).toEqual({ path: ['ok', 'ka\uFFFDb'], inName: true });
    // A proper surrogate pair (an emoji) is fine.
    expect(findUnstorableText({ a: 'Ann 😀', b: '\uD83D\uDE00' })).toBeNull();
    // No recursion: any depth is fine.
    let deep: unknown = NUL;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnstorableText(deep)?.path).toHaveLength(200_000);
    expect(fieldLabel('firstName')).toBe('First name');
    expect(fieldLabel('code_challenge')).toBe('Code challenge');
  });

  it('probes every write route with NUL and lone surrogates in each field: 400s naming the field, never a 5xx, nothing appended', async () => {
    const before = await appended();
    await app.ready();
    const writes = app.declaredRoutes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));
    expect(writes.length).toBeGreaterThan(10);
    const probed: string[] = [];
    for (const route of writes) probed.push(...(await probe(route)));
    // The fields come from each route's schema: every string field of the forms was probed.
    for (const field of ['firstName', 'lastName', 'username', 'email', 'password', 'phone', 'grade']) {
      expect(probed).toContain(`POST /api/register ${field}`);
    }
    expect(probed).toContain('POST /api/contact message');
    expect(probed).toContain('POST /api/contact/help message');
    expect(probed).toContain('PATCH /api/user/timezone timezone');
    expect(probed).toContain('POST /api/student/secondary-login secondaryUsername');
    expect(await appended()).toBe(before);

    // And the system still works: a normal registration succeeds afterwards.
    const ok = await app.inject({ method: 'POST', url: '/api/register', payload: registration('after-probe') });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('names the field in its message, refuses nested text and field names, and a NUL login is a 400, not a 500', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/register', payload: registration('nul1', { firstName: `Ann${NUL}` }) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'First name contains characters that cannot be stored', field: 'firstName' });

    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { username: `admin${NUL}`, password: 'whatever' } });
    expect(login.statusCode).toBe(400);
    expect(login.json()).toMatchObject({ message: 'Username contains characters that cannot be stored', field: 'username' });

    const nested = await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'Ann', extra: { list: [{ note: LONE_LOW }] } },
    });
    expect(nested.json()).toMatchObject({ message: 'Note contains characters that cannot be stored', field: 'extra.list.0.note' });

    const key = await app.inject({ method: 'POST', url: '/api/contact', payload: { [`na${NUL}me`]: 'Ann' } });
    expect(key.statusCode).toBe(400);
    expect((key.json() as { message: string }).message).toBe('A field name contains characters that cannot be stored');

    const query = await app.inject({ method: 'GET', url: '/api/auth/google?userType=student%00' });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toMatchObject({ message: 'User type contains characters that cannot be stored', field: 'userType' });

    // Deep nesting: the guard walks without recursion and still names the field.
    const depth = 5_000;
    const deepBody = await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: `{"name":${'['.repeat(depth)}"a\\u0000b"${']'.repeat(depth)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(deepBody.statusCode, deepBody.body.slice(0, 200)).toBe(400);
    expect((deepBody.json() as { field: string }).field.split('.')).toHaveLength(depth + 1);
    // As deep as the body limit allows: a 4xx, never a 5xx.
    const deeper = 120_000;
    const deepest = await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: `{"name":${'['.repeat(deeper)}"a"${']'.repeat(deeper)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(deepest.statusCode).toBeGreaterThanOrEqual(400);
    expect(deepest.statusCode).toBeLessThan(500);
  });
});
