import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../../src/adapters/config/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { createSystem, type Mode, type System, type SystemOptions } from '../../src/system.ts';
import { createTestDatabase } from './database.ts';

export interface TestSystem extends System {
  dispose(): Promise<void>;
}

/** The whole system on a fresh database, as `npm start` wires it, minus the HTTP listener. */
export async function createTestSystem(
  mode: Mode = 'all',
  env: Record<string, string> = {},
  options: SystemOptions = {},
): Promise<TestSystem> {
  const db = await createTestDatabase('sys');
  const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', NODE_ENV: 'test', UI_DIR: 'dist/ui', ...env });
  const system = await createSystem(config, mode, options);
  return Object.assign(system, {
    async dispose() {
      await system.close();
      await db.drop();
    },
  });
}

/**
 * A test file's system and HTTP app, created before its tests and disposed after them:
 * `withTestApp((s, a) => { system = s; app = a; })`.
 */
export function withTestApp(receive: (system: TestSystem, app: FastifyInstance) => void, options: SystemOptions = {}): void {
  let system: TestSystem | null = null;
  let app: FastifyInstance | null = null;
  beforeAll(async () => {
    system = await createTestSystem('all', {}, options);
    app = await buildApp(system, { logger: false });
    receive(system, app);
  });
  afterAll(async () => {
    await app?.close();
    await system?.dispose();
  });
}
