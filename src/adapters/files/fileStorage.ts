/**
 * Where uploaded files live (tutors' profile pictures), by key: `a/b/c.ext`, lower-case letters,
 * digits, `-`, `_` and `.` in segments separated by `/`. Keys come from the server (ids, hashes,
 * random tokens), never from a client as typed; an adapter refuses any other key.
 */
export interface FileStorage {
  /** Stores the bytes under `key`, replacing what was there; a reader sees the old or the new bytes, never a part. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** The keys under a prefix ending in `/` (e.g. `uploads/<tutorId>/`), in no particular order. */
  list(prefix: string): Promise<string[]>;
}

const SEGMENT = /^[a-z0-9_][a-z0-9_.-]{0,127}$/;

/** The rule every adapter applies: no empty, dot-only, absolute or backslashed segments, no upper case. */
export function isValidFileKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  return key.split('/').every((segment) => SEGMENT.test(segment) && !/^\.+$/.test(segment));
}

export class InvalidFileKeyError extends Error {
  constructor(key: string) {
    super(`Invalid file key: ${JSON.stringify(key.slice(0, 100))}`);
    this.name = 'InvalidFileKeyError';
  }
}
