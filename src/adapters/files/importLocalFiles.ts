import { readdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isValidFileKey, MAX_FILE_BYTES } from './fileStorage.ts';
import type { PostgresFileStorage } from './postgresFileStorage.ts';

export interface LocalFilesImport {
  /** Files stored in the table. */
  imported: number;
  /** Files whose key the table held already: the table's bytes are kept. */
  alreadyStored: number;
  /** Files left on disk: not a valid key, a writer's leftover (`.tmp`), or over MAX_FILE_BYTES. */
  leftOnDisk: string[];
}

/**
 * Moves the files an earlier release kept on disk (`DATA_DIR/files`, one file per key) into the
 * file storage's table. Each file is stored unless its key is there already (the table wins), and
 * is deleted from disk once its key is in the table; empty folders go too. So running it again
 * (after a crash half-way, or at every start) only finishes the move, a picture deleted since is
 * never brought back from disk, and a deleted account's pictures do not linger there. What cannot
 * be a key stays on disk, reported. A missing folder is nothing to import.
 */
export async function importLocalFiles(root: string, storage: PostgresFileStorage): Promise<LocalFilesImport> {
  const result: LocalFilesImport = { imported: 0, alreadyStored: 0, leftOnDisk: [] };
  const base = path.resolve(root);
  let entries: Awaited<ReturnType<typeof listTree>>;
  try {
    entries = await listTree(base);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return result;
    throw error;
  }
  for (const file of entries.files) {
    const key = path.relative(base, file).split(path.sep).join('/');
    // `.tmp`: half a write of the local storage, which never took such keys.
    if (!isValidFileKey(key) || key.endsWith('.tmp') || (await stat(file)).size > MAX_FILE_BYTES) {
      result.leftOnDisk.push(key);
      continue;
    }
    if (await storage.putIfAbsent(key, await readFile(file))) result.imported += 1;
    else result.alreadyStored += 1;
    await rm(file, { force: true });
  }
  // Deepest first, so a parent is empty once its children are gone; a non-empty one stays.
  for (const dir of [...entries.dirs].sort((a, b) => b.length - a.length)) await rmdir(dir).catch(() => {});
  await rmdir(base).catch(() => {});
  return result;
}

async function listTree(base: string): Promise<{ files: string[]; dirs: string[] }> {
  const entries = await readdir(base, { recursive: true, withFileTypes: true });
  const full = (entry: (typeof entries)[number]) => path.join(entry.parentPath, entry.name);
  return {
    files: entries
      .filter((e) => e.isFile())
      .map(full)
      .sort(),
    dirs: entries.filter((e) => e.isDirectory()).map(full),
  };
}
