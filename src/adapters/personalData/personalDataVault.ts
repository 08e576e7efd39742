import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Sql } from '../db/db.ts';

const PREFIX = 'pii:v1:';
export const ERASED = '[erased]';
/** How every sealed value starts (for SQL filters that tell sealed from plain values). */
export const SEALED_PREFIX = PREFIX;

/**
 * One AES-256-GCM key per data subject, kept in PostgreSQL apart from the events. Deleting a
 * subject's key ("crypto-shredding") makes every copy of their personal data in the event log
 * unreadable, which an append-only log could not achieve by deleting events.
 */
export class PersonalDataVault {
  /**
   * Keys this process created or read, for sealing only. A key never changes once made, but any
   * process may shred it: reading (opening) therefore always asks the table, so an erasure done by
   * another process takes effect on the next read here. Sealing with a key shredded elsewhere only
   * makes the new value unreadable, which is what the erasure wants. Kept a minute, the 10,000
   * most recently used.
   */
  private sealingKeys = new LRUCache<string, Buffer>({ max: 10_000, ttl: 60_000 });

  constructor(private readonly sql: Sql) {}

  static isEncrypted(value: unknown): value is string {
    return typeof value === 'string' && value.startsWith(PREFIX);
  }

  /** Keys for the subjects, created on first use; one round trip for all of them. */
  async keysFor(subjects: string[]): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    const missing = subjects.filter((s) => {
      const cached = this.sealingKeys.get(s);
      if (cached) {
        out.set(s, cached);
        return false;
      }
      return true;
    });
    if (missing.length > 0) {
      const unique = [...new Set(missing)];
      const fresh = unique.map(() => randomBytes(32).toString('hex'));
      const rows = await this.sql<{ subject: string; key: Buffer }[]>`
        INSERT INTO personal_data_keys (subject, key)
        SELECT s, decode(k, 'hex') FROM unnest(${unique}::text[], ${fresh}::text[]) AS t(s, k)
        ON CONFLICT (subject) DO UPDATE SET subject = EXCLUDED.subject
        RETURNING subject, key`;
      for (const r of rows) {
        out.set(r.subject, r.key);
        this.sealingKeys.set(r.subject, r.key);
      }
    }
    return out;
  }

  /** Existing keys only (reading never creates one), as the table holds them now; null for a shredded subject. */
  private async existingKeys(subjects: string[]): Promise<Map<string, Buffer | null>> {
    const unique = [...new Set(subjects)];
    const rows = await this.sql<{ subject: string; key: Buffer }[]>`
      SELECT subject, key FROM personal_data_keys WHERE subject = ANY(${unique}::text[])`;
    const found = new Map(rows.map((r) => [r.subject, r.key]));
    return new Map(unique.map((s) => [s, found.get(s) ?? null]));
  }

  /**
   * `ivSeed`: for a copy a projection makes again on every rebuild (the audit log), the nonce is
   * derived from the key and a seed naming the one value it seals (event id and field), so the
   * rebuilt copy equals the live one; a seed never seals two different texts.
   */
  encrypt(subject: string, key: Buffer, plaintext: string, ivSeed?: string): string {
    const iv = ivSeed === undefined ? randomBytes(12) : createHmac('sha256', key).update(ivSeed).digest().subarray(0, 12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(subject));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const sealed = Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
    return `${PREFIX}${Buffer.from(subject).toString('base64url')}:${sealed}`;
  }

  /**
   * Seals the values with the subject's existing key and never creates one: null when the subject
   * has no key (erased), so that nothing written after an erasure is readable again.
   */
  async sealWithExistingKey(subject: string, values: readonly string[], ivSeeds?: readonly string[]): Promise<string[] | null> {
    const key = (await this.existingKeys([subject])).get(subject);
    if (!key) return null;
    return values.map((value, i) => this.encrypt(subject, key, value, ivSeeds?.[i]));
  }

  subjectOf(value: string): string {
    const rest = value.slice(PREFIX.length);
    return Buffer.from(rest.slice(0, rest.indexOf(':')), 'base64url').toString();
  }

  /** Decrypts every sealed value; values of shredded subjects read as ERASED. */
  async decryptAll(values: string[]): Promise<Map<string, string>> {
    const keys = await this.existingKeys(values.map((v) => this.subjectOf(v)));
    const out = new Map<string, string>();
    for (const value of values) {
      const subject = this.subjectOf(value);
      const key = keys.get(subject);
      if (!key) {
        out.set(value, ERASED);
        continue;
      }
      const sealed = Buffer.from(value.slice(PREFIX.length + value.slice(PREFIX.length).indexOf(':') + 1), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAAD(Buffer.from(subject));
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      out.set(value, Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]).toString('utf8'));
    }
    return out;
  }

  async shred(subject: string): Promise<void> {
    await this.sql`DELETE FROM personal_data_keys WHERE subject = ${subject}`;
    this.sealingKeys.delete(subject);
  }
}
