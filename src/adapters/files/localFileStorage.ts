import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type FileStorage, InvalidFileKeyError, isValidFileKey } from './fileStorage.ts';

const TEMP_SUFFIX = '.tmp';

/**
 * Files under a directory (`DATA_DIR/files`): each key is a relative path. A write goes to a
 * temporary file beside its target, then is renamed over it (atomic on one file system), so a
 * reader never sees half a file. Keys are checked against the port's rule and the resolved path
 * must stay inside the root, so no key reaches outside it.
 */
export class LocalFileStorage implements FileStorage {
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private pathOf(key: string): string {
    if (!isValidFileKey(key) || key.endsWith(TEMP_SUFFIX)) throw new InvalidFileKeyError(key);
    const full = path.resolve(this.root, ...key.split('/'));
    if (!full.startsWith(`${this.root}${path.sep}`)) throw new InvalidFileKeyError(key);
    return full;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}${TEMP_SUFFIX}`;
    try {
      await writeFile(temp, bytes, { mode: 0o600, flag: 'wx' });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async list(prefix: string): Promise<string[]> {
    if (!prefix.endsWith('/')) throw new InvalidFileKeyError(prefix);
    const dir = path.dirname(this.pathOf(`${prefix}x`));
    try {
      const entries = await readdir(dir, { recursive: true, withFileTypes: true });
      return entries
        .filter((entry) => entry.isFile())
        .map((entry) => `${prefix}${path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`)
        .filter((key) => !key.endsWith(TEMP_SUFFIX) && isValidFileKey(key));
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }
}

const isMissing = (error: unknown) => (error as { code?: string }).code === 'ENOENT' || (error as { code?: string }).code === 'ENOTDIR';
