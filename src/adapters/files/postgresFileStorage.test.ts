import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { MAX_PICTURE_BYTES } from '../../domain/tutors/tutorApi.ts';
import { connect, type Sql } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { FileTooLargeError, InvalidFileKeyError, isValidFileKey, MAX_FILE_BYTES } from './fileStorage.ts';
import { importLocalFiles } from './importLocalFiles.ts';
import { PostgresFileStorage } from './postgresFileStorage.ts';

let db: TestDatabase;
let other: Sql;
let storage: PostgresFileStorage;
/** The same table through another connection pool: another process. */
let elsewhere: PostgresFileStorage;
beforeAll(async () => {
  db = await createTestDatabase('files');
  await migrate(db.sql);
  other = connect(db.url, { max: 4 });
  storage = new PostgresFileStorage(db.sql);
  elsewhere = new PostgresFileStorage(other);
});
afterAll(async () => {
  await other?.end({ timeout: 5 });
  await db?.drop();
});

describe('PostgreSQL file storage', () => {
  it('puts, gets, replaces and deletes bytes by key', async () => {
    expect(await storage.get('pictures/t1/a.png')).toBeNull();
    await storage.put('pictures/t1/a.png', Buffer.from('first'));
    expect((await storage.get('pictures/t1/a.png'))?.toString()).toBe('first');
    await storage.put('pictures/t1/a.png', new Uint8Array(Buffer.from('second!')));
    expect((await storage.get('pictures/t1/a.png'))?.toString()).toBe('second!');
    const [row] = await db.sql<{ size: number; replaced: boolean }[]>`
      SELECT size, updated_at > created_at AS replaced FROM stored_files WHERE key = 'pictures/t1/a.png'`;
    expect(row).toEqual({ size: 7, replaced: true });
    await storage.delete('pictures/t1/a.png');
    await storage.delete('pictures/t1/a.png');
    expect(await storage.get('pictures/t1/a.png')).toBeNull();
  });

  it('keeps bytes exactly, empty ones and every byte value included', async () => {
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    await storage.put('bytes/all.bin', all);
    await storage.put('bytes/empty.bin', Buffer.alloc(0));
    expect((await storage.get('bytes/all.bin'))?.equals(all)).toBe(true);
    expect((await storage.get('bytes/empty.bin'))?.length).toBe(0);
  });

  it('lists the keys under a prefix only; `_` and `%` in keys are plain characters', async () => {
    await storage.put('uploads/t2/one.json', Buffer.from('{}'));
    await storage.put('uploads/t2/deep/two.bin', Buffer.from('x'));
    await storage.put('uploads/t20/other.json', Buffer.from('{}'));
    await storage.put('uploads/t2.x/other.json', Buffer.from('{}'));
    await storage.put('uploads/t3/other.json', Buffer.from('{}'));
    await storage.put('uploads/t2', Buffer.from('a file named like the folder'));
    expect((await storage.list('uploads/t2/')).sort()).toEqual(['uploads/t2/deep/two.bin', 'uploads/t2/one.json']);
    expect(await storage.list('uploads/nobody/')).toEqual([]);

    await storage.put('p/a_b/one', Buffer.from('1'));
    await storage.put('p/axb/two', Buffer.from('2'));
    await storage.put('p/a_bc/three', Buffer.from('3'));
    expect(await storage.list('p/a_b/')).toEqual(['p/a_b/one']);
    expect(await storage.list('p/a_/')).toEqual([]);
    // `%` is no key character: the rule refuses it before any query could read it as a pattern.
    await expect(storage.list('p/%/')).rejects.toBeInstanceOf(InvalidFileKeyError);
    await expect(storage.put('p/%/x', Buffer.from('x'))).rejects.toBeInstanceOf(InvalidFileKeyError);
  });

  it('refuses keys that are not plain, in every call, and prefixes that are not folders', async () => {
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
      'a%b',
      `${'x'.repeat(200)}`,
      `${'a/'.repeat(256)}b`,
    ];
    for (const key of bad) {
      await expect(storage.put(key, Buffer.from('x')), key).rejects.toBeInstanceOf(InvalidFileKeyError);
      await expect(storage.putIfAbsent(key, Buffer.from('x')), key).rejects.toBeInstanceOf(InvalidFileKeyError);
      await expect(storage.get(key), key).rejects.toBeInstanceOf(InvalidFileKeyError);
      await expect(storage.delete(key), key).rejects.toBeInstanceOf(InvalidFileKeyError);
    }
    for (const prefix of ['', 'uploads', '/', '../', 'A/']) {
      await expect(storage.list(prefix), prefix).rejects.toBeInstanceOf(InvalidFileKeyError);
    }
    expect(isValidFileKey('profile-pictures/0f8a/3c5e.png')).toBe(true);
    const keys = await db.sql<{ key: string }[]>`SELECT key FROM stored_files`;
    expect(keys.filter((row) => !isValidFileKey(row.key))).toEqual([]);
  });

  it(`takes up to ${MAX_FILE_BYTES} bytes (a picture at its limit) and refuses one more, storing nothing`, async () => {
    expect(MAX_PICTURE_BYTES).toBeLessThanOrEqual(MAX_FILE_BYTES);
    const limit = Buffer.alloc(MAX_FILE_BYTES, 3);
    await storage.put('big/limit.bin', limit);
    expect((await elsewhere.get('big/limit.bin'))?.equals(limit)).toBe(true);
    await expect(storage.put('big/over.bin', Buffer.alloc(MAX_FILE_BYTES + 1))).rejects.toBeInstanceOf(FileTooLargeError);
    await expect(storage.put('big/limit.bin', Buffer.alloc(MAX_FILE_BYTES + 1))).rejects.toBeInstanceOf(FileTooLargeError);
    expect(await storage.get('big/over.bin')).toBeNull();
    expect((await storage.get('big/limit.bin'))?.equals(limit)).toBe(true);
  });

  it('is one storage for every process on the database: what one stores, another reads, lists and deletes', async () => {
    await storage.put('shared/t9/a.png', Buffer.from('from one'));
    expect((await elsewhere.get('shared/t9/a.png'))?.toString()).toBe('from one');
    await elsewhere.put('shared/t9/a.png', Buffer.from('from the other'));
    expect((await storage.get('shared/t9/a.png'))?.toString()).toBe('from the other');
    expect(await elsewhere.list('shared/t9/')).toEqual(['shared/t9/a.png']);
    await elsewhere.delete('shared/t9/a.png');
    expect(await storage.get('shared/t9/a.png')).toBeNull();
  });

  it('leaves exactly one of 20 concurrent puts to one key, whole, and readers never see a part', async () => {
    const values = Array.from({ length: 20 }, (_, i) => Buffer.alloc(100_000 + i * 7_919, i + 1));
    const seen: number[] = [];
    await Promise.all([
      ...values.map((bytes, i) => (i % 2 === 0 ? storage : elsewhere).put('race/r.bin', bytes)),
      ...Array.from({ length: 10 }, async (_, i) => {
        const bytes = await (i % 2 === 0 ? elsewhere : storage).get('race/r.bin');
        if (bytes) seen.push(values.findIndex((v) => v.equals(bytes)));
      }),
    ]);
    const final = await storage.get('race/r.bin');
    expect(values.filter((v) => final?.equals(v))).toHaveLength(1);
    expect(seen.every((i) => i >= 0)).toBe(true);
    expect(await storage.list('race/')).toEqual(['race/r.bin']);
  });

  it('stores a file unless its key holds one (putIfAbsent)', async () => {
    expect(await storage.putIfAbsent('once/a.bin', Buffer.from('first'))).toBe(true);
    expect(await elsewhere.putIfAbsent('once/a.bin', Buffer.from('second'))).toBe(false);
    expect((await storage.get('once/a.bin'))?.toString()).toBe('first');
  });
});

describe('moving the files an earlier release kept under DATA_DIR/files', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'topmark-import-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  const write = async (key: string, content: string | Buffer) => {
    await mkdir(path.dirname(path.join(root, 'files', key)), { recursive: true });
    await writeFile(path.join(root, 'files', key), content);
  };

  it('stores each file under its key, keeps what the table has, leaves the disk, and is a no-op the second time', async () => {
    await write('profile-pictures/t7/abc.png', 'old picture');
    await write('uploads/t7/0123.json', '{"state":"open"}');
    await write('profile-pictures/t8/def.jpg', 'on disk');
    await storage.put('profile-pictures/t8/def.jpg', Buffer.from('in the table'));
    await write('profile-pictures/t7/half.png.1a2b.tmp', 'a writer died here');
    await write('profile-pictures/t7/Upper.PNG', 'not a key');
    await write('profile-pictures/t7/huge.png', Buffer.alloc(MAX_FILE_BYTES + 1));

    const first = await importLocalFiles(path.join(root, 'files'), storage);
    expect(first.imported).toBe(2);
    expect(first.alreadyStored).toBe(1);
    expect(first.leftOnDisk.sort()).toEqual([
      'profile-pictures/t7/Upper.PNG',
      'profile-pictures/t7/half.png.1a2b.tmp',
      'profile-pictures/t7/huge.png',
    ]);
    expect((await elsewhere.get('profile-pictures/t7/abc.png'))?.toString()).toBe('old picture');
    expect((await elsewhere.get('uploads/t7/0123.json'))?.toString()).toBe('{"state":"open"}');
    expect((await elsewhere.get('profile-pictures/t8/def.jpg'))?.toString()).toBe('in the table');
    // Moved files and their emptied folders are gone; what could not be moved stays.
    expect(await readdir(path.join(root, 'files'))).toEqual(['profile-pictures']);
    expect((await readdir(path.join(root, 'files', 'profile-pictures', 't7'))).sort()).toEqual([
      'Upper.PNG',
      'half.png.1a2b.tmp',
      'huge.png',
    ]);

    // A picture deleted since (its account deleted) is not brought back by the next start.
    await storage.delete('profile-pictures/t7/abc.png');
    const second = await importLocalFiles(path.join(root, 'files'), storage);
    expect([second.imported, second.alreadyStored, second.leftOnDisk.length]).toEqual([0, 0, 3]);
    expect(await storage.get('profile-pictures/t7/abc.png')).toBeNull();
  });

  it('removes the folder once everything is moved, and finds nothing to do without one', async () => {
    await rm(path.join(root, 'files'), { recursive: true, force: true });
    await write('profile-pictures/t9/a.png', 'a');
    expect((await importLocalFiles(path.join(root, 'files'), storage)).imported).toBe(1);
    expect(await readdir(root)).toEqual([]);
    expect(await importLocalFiles(path.join(root, 'files'), storage)).toEqual({ imported: 0, alreadyStored: 0, leftOnDisk: [] });
  });
});
