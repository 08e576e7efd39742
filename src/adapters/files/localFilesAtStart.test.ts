import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem } from '../../../tests/support/system.ts';
import { createSystem } from '../../system.ts';
import { loadConfig } from '../config/config.ts';

/**
 * An install of an earlier release kept its uploads under DATA_DIR/files. A server start on the
 * embedded database (that install's own) moves them into the table; one with DATABASE_URL, whose
 * DATA_DIR may be anybody's, leaves them alone (`ops files:import` moves them when asked).
 */
let root: string;
beforeAll(async () => {
  // Under the project's .tmp, as the tests' own embedded server: as root, the embedded start makes
  // every folder above its data readable to the postgres user (chmod 755), which /tmp must never be.
  await mkdir('.tmp', { recursive: true });
  root = await mkdtemp(path.resolve('.tmp', 'upgrade-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function oldInstall(dataDir: string) {
  const picture = path.join(dataDir, 'files', 'profile-pictures', 'tutor-1', `${'ab'.repeat(32)}.png`);
  await mkdir(path.dirname(picture), { recursive: true });
  await writeFile(picture, 'the old picture');
  return { key: `profile-pictures/tutor-1/${'ab'.repeat(32)}.png`, picture };
}

describe('uploads an earlier release kept under DATA_DIR/files', () => {
  it('are moved into the database when the embedded install starts', async () => {
    const dataDir = path.join(root, 'embedded');
    const { key, picture } = await oldInstall(dataDir);
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test', UI_DIR: 'dist/ui' });
    const system = await createSystem(config, 'all');
    try {
      expect((await system.files.get(key))?.toString()).toBe('the old picture');
      expect(existsSync(picture)).toBe(false);
      expect(existsSync(path.join(dataDir, 'files'))).toBe(false);
    } finally {
      await system.close();
    }
  });

  it('are left alone by a process on DATABASE_URL', async () => {
    const dataDir = path.join(root, 'external');
    const { key, picture } = await oldInstall(dataDir);
    const system = await createTestSystem('all', { DATA_DIR: dataDir });
    try {
      expect(await system.files.get(key)).toBeNull();
      expect(existsSync(picture)).toBe(true);
    } finally {
      await system.dispose();
    }
  });
});
