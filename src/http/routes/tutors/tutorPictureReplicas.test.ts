import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/database.ts';
import { type ApprovedTutor, approvedTutor } from '../../../../tests/support/tutors.ts';
import { loadConfig } from '../../../adapters/config/config.ts';
import { tutorProfileSchema } from '../../../domain/tutors/tutorApi.ts';
import { createSystem, type Mode, type System } from '../../../system.ts';
import { buildApp } from '../../app.ts';

/**
 * Several API processes on one database, as docker-compose scales them: a picture's calls may
 * reach different processes, and a process may be replaced; the files are the database's.
 */
let db: TestDatabase;
const running: { system: System; app: FastifyInstance }[] = [];

async function start(mode: Mode) {
  const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', NODE_ENV: 'test', UI_DIR: 'dist/ui' });
  const system = await createSystem(config, mode);
  const app = await buildApp(system, { logger: false });
  running.push({ system, app });
  return { system, app };
}

async function stop(instance: { system: System; app: FastifyInstance }) {
  running.splice(running.indexOf(instance), 1);
  await instance.app.close();
  await instance.system.close();
}

let first: { system: System; app: FastifyInstance };
let second: { system: System; app: FastifyInstance };
let tutor: ApprovedTutor;
beforeAll(async () => {
  db = await createTestDatabase('replicas');
  first = await start('all');
  second = await start('api');
  tutor = await approvedTutor(first.system, 'replica-ada', { firstName: 'Ada', lastName: 'Lovelace' });
});
afterAll(async () => {
  for (const instance of [...running].reverse()) await stop(instance);
  await db?.drop();
});

const gif = Buffer.concat([Buffer.from('GIF89a\u0001\u0000\u0001\u0000', 'latin1'), Buffer.alloc(300_000, 9)]);

describe('pictures across API processes', () => {
  it('serves from one process a picture whose upload went through another, also once that one is replaced', async () => {
    const headers = { cookie: tutor.cookie };
    const opened = await first.app.inject({ method: 'POST', url: '/api/tutor/profile-picture/upload', headers });
    expect(opened.statusCode, opened.body).toBe(200);
    const { uploadURL } = opened.json<{ uploadURL: string }>();
    // The bytes reach the second process, the choice the first one: the pending upload is shared too.
    const put = await second.app.inject({
      method: 'PUT',
      url: uploadURL,
      headers: { ...headers, 'content-type': 'image/gif' },
      payload: gif,
    });
    expect(put.statusCode, put.body).toBe(200);
    const set = await first.app.inject({
      method: 'PUT',
      url: '/api/tutor/profile-picture',
      headers,
      payload: { profileImageURL: uploadURL },
    });
    expect(set.statusCode, set.body).toBe(200);
    const { profileImagePath } = tutorProfileSchema.parse(set.json());

    const served = await second.app.inject({ method: 'GET', url: profileImagePath as string });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/gif');
    expect(served.rawPayload.equals(gif)).toBe(true);

    // The process that received the picture goes away; a new one (another container) serves it.
    await stop(first);
    const replacement = await start('all');
    const again = await replacement.app.inject({ method: 'GET', url: profileImagePath as string });
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(gif)).toBe(true);
  });
});
