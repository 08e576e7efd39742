import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidFileKeyError, isValidFileKey } from './fileStorage.ts';
import { LocalFileStorage } from './localFileStorage.ts';

let root: string;
let storage: LocalFileStorage;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'topmark-files-'));
  storage = new LocalFileStorage(path.join(root, 'files'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('local file storage', () => {
  it('puts, gets, replaces and deletes bytes by key', async () => {
    expect(await storage.get('pictures/t1/a.png')).toBeNull();
    await storage.put('pictures/t1/a.png', Buffer.from('first'));
    expect((await storage.get('pictures/t1/a.png'))?.toString()).toBe('first');
    await storage.put('pictures/t1/a.png', Buffer.from('second'));
    expect((await storage.get('pictures/t1/a.png'))?.toString()).toBe('second');
    await storage.delete('pictures/t1/a.png');
    await storage.delete('pictures/t1/a.png');
    expect(await storage.get('pictures/t1/a.png')).toBeNull();
  });

  it('lists the files under a prefix, without temporary files', async () => {
    await storage.put('uploads/t2/one.json', Buffer.from('{}'));
    await storage.put('uploads/t2/deep/two.bin', Buffer.from('x'));
    await storage.put('uploads/t3/other.json', Buffer.from('{}'));
    await writeFile(path.join(root, 'files', 'uploads', 't2', 'half.bin.123.tmp'), 'partial');
    expect((await storage.list('uploads/t2/')).sort()).toEqual(['uploads/t2/deep/two.bin', 'uploads/t2/one.json']);
    expect(await storage.list('uploads/nobody/')).toEqual([]);
  });

  it('leaves no temporary file behind and never shows a partial write to concurrent readers', async () => {
    const big = Buffer.alloc(2_000_000, 7);
    const small = Buffer.alloc(10, 1);
    await Promise.all([
      storage.put('race/r.bin', big),
      storage.put('race/r.bin', small),
      ...Array.from({ length: 10 }, async () => {
        const seen = await storage.get('race/r.bin');
        if (seen) expect([big.length, small.length]).toContain(seen.length);
      }),
    ]);
    expect(await readdir(path.join(root, 'files', 'race'))).toEqual(['r.bin']);
  });

  it('refuses keys that could leave the root or are not plain', async () => {
    const bad = [
      '',
      '../escape',
      'a/../../escape',
      '/etc/passwd',
      'a//b',
      'a/./b',
      '..',
      'a\\b',
      'A/B',
      'a\u0000b',
      'a/b/',
      `${'x'.repeat(200)}`,
      'a/b.tmp',
    ];
    for (const key of bad) {
      await expect(storage.put(key, Buffer.from('x')), key).rejects.toBeInstanceOf(InvalidFileKeyError);
      await expect(storage.get(key), key).rejects.toBeInstanceOf(InvalidFileKeyError);
    }
    expect(isValidFileKey('profile-pictures/0f8a/3c5e.png')).toBe(true);
  });
});
