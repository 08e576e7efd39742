/**
 * Where uploaded files live (tutors' profile pictures, pending uploads), by key: `a/b/c.ext`,
 * lower-case letters, digits, `-`, `_` and `.` in segments separated by `/`. Keys come from the
 * server (ids, hashes, random tokens), never from a client as typed; an adapter refuses any other
 * key, and refuses more than MAX_FILE_BYTES.
 */
export interface FileStorage {
  /**
   * Stores the bytes under `key`, replacing what was there; a reader sees the old or the new bytes,
   * never a part. More than MAX_FILE_BYTES: FileTooLargeError, nothing stored.
   */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** The keys under a prefix ending in `/` (e.g. `uploads/<tutorId>/`), in no particular order. */
  list(prefix: string): Promise<string[]>;
}

/**
 * The largest file any adapter stores: 5 MiB, the profile-picture limit (MAX_PICTURE_BYTES, spec
 * part 2: "max 5MB", 5,242,880 bytes). Callers check their own, user-facing limit first; this one
 * keeps a bug from filling the database with huge blobs.
 */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

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

export class FileTooLargeError extends Error {
  constructor(key: string, size: number) {
    super(`File too large for ${JSON.stringify(key.slice(0, 100))}: ${size} bytes, at most ${MAX_FILE_BYTES}`);
    this.name = 'FileTooLargeError';
  }
}
