import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../tests/support/system.ts';
import { buildApp } from './app.ts';

/**
 * The built UI as the browser gets it: the smallest encoding it accepts from the copies the build
 * writes (ui/vite.config.ts), hashed assets cached for a year, the page itself revalidated.
 */

const page = `<!doctype html><html><head><title>Topmark</title></head><body>${'<div id="root"></div>'.repeat(200)}</body></html>`;
const script = `console.log(${JSON.stringify('topmark '.repeat(500))});`;
const asset = '/assets/index-Ab3_dE9x.js';

let uiDir: string;
let system: TestSystem;
let app: FastifyInstance;

/** A file and its .br and .gz copies, as the build's compression plugin leaves them. */
function writeWithCopies(file: string, text: string) {
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text));
}

beforeAll(async () => {
  uiDir = mkdtempSync(path.join(tmpdir(), 'topmark-ui-'));
  mkdirSync(path.join(uiDir, 'assets'));
  writeWithCopies(path.join(uiDir, 'index.html'), page);
  writeWithCopies(path.join(uiDir, asset), script);
  writeFileSync(path.join(uiDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  system = await createTestSystem('api', { UI_DIR: uiDir });
  app = await buildApp(system, { logger: false });
});
afterAll(async () => {
  await app?.close();
  await system?.dispose();
  rmSync(uiDir, { recursive: true, force: true });
});

describe('static files', () => {
  it('sends / as brotli to a browser that accepts it, revalidated on every visit', async () => {
    const res = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(page) / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(page);
  });

  it('sends a client route (the SPA fallback) compressed too', async () => {
    const res = await app.inject({ method: 'GET', url: '/student', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(res.rawPayload).toString()).toBe(page);
  });

  it('keeps hashed assets a year, gzip where brotli is not accepted, plain where nothing is', async () => {
    const gz = await app.inject({ method: 'GET', url: asset, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await app.inject({ method: 'GET', url: asset, headers: { 'accept-encoding': 'identity' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('answers a path that is no page with the app and HTTP 404, a page with 200', async () => {
    const missing = await app.inject({ method: 'GET', url: '/no-such-page?x=1' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('text/html');
    expect(missing.body).toBe(page);
    expect((await app.inject({ method: 'GET', url: '/student-info/someone' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/tutor/' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/no-such-route' })).json()).toEqual({ message: 'Not found' });
  });

  it('caches unhashed files for an hour only', async () => {
    const res = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });
});
