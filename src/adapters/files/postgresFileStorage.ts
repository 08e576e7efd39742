import type { Sql } from '../db/db.ts';
import { type FileStorage, FileTooLargeError, InvalidFileKeyError, isValidFileKey, MAX_FILE_BYTES } from './fileStorage.ts';

/**
 * Files in PostgreSQL, one row of `stored_files` per key (migration 0016). Every process on the
 * database sees the same files (an API replica serves a picture another one received), they
 * survive a process or container being replaced, and they are backed up with the database. Files
 * are small (at most MAX_FILE_BYTES, 5 MiB), so a row holds them whole:
 *
 * - put is one upsert: a reader sees the old row or the new one (MVCC), never a part, and
 *   concurrent puts to one key leave one of the values, whole (the last to commit);
 * - list is a range of the primary key (`"C"` collation: byte order): `[prefix, prefix + 1)`,
 *   so no LIKE pattern, and `_` or `%` in a key are plain characters.
 */
export class PostgresFileStorage implements FileStorage {
  constructor(private readonly sql: Sql) {}

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const value = checked(key, bytes);
    await this.sql`
      INSERT INTO stored_files (key, bytes, size) VALUES (${key}, ${value}, ${value.length})
      ON CONFLICT (key) DO UPDATE SET bytes = excluded.bytes, size = excluded.size, updated_at = now()`;
  }

  /** Stores the bytes unless the key holds some already; true when they were stored. */
  async putIfAbsent(key: string, bytes: Uint8Array): Promise<boolean> {
    const value = checked(key, bytes);
    const rows = await this.sql`
      INSERT INTO stored_files (key, bytes, size) VALUES (${key}, ${value}, ${value.length})
      ON CONFLICT (key) DO NOTHING RETURNING key`;
    return rows.length === 1;
  }

  async get(key: string): Promise<Buffer | null> {
    assertKey(key);
    const [row] = await this.sql<{ bytes: Buffer }[]>`SELECT bytes FROM stored_files WHERE key = ${key}`;
    return row ? row.bytes : null;
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    await this.sql`DELETE FROM stored_files WHERE key = ${key}`;
  }

  async list(prefix: string): Promise<string[]> {
    if (!prefix.endsWith('/') || !isValidFileKey(`${prefix}x`)) throw new InvalidFileKeyError(prefix);
    // Every key starting with `a/b/` sorts from `a/b/` up to, not including, `a/b0` ('0' follows '/').
    const end = `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
    const rows = await this.sql<{ key: string }[]>`
      SELECT key FROM stored_files WHERE key >= ${prefix} AND key < ${end} ORDER BY key`;
    return rows.map((row) => row.key);
  }
}

function assertKey(key: string): void {
  if (!isValidFileKey(key)) throw new InvalidFileKeyError(key);
}

function checked(key: string, bytes: Uint8Array): Buffer {
  assertKey(key);
  if (bytes.length > MAX_FILE_BYTES) throw new FileTooLargeError(key, bytes.length);
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
