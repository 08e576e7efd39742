import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from '../db/db.ts';

export const SIGN_IN_DAYS = 14;
/** A sign-in seen more recently than this is not written again (its expiry slides by the minute). */
export const TOUCH_EVERY_SECONDS = 60;

export interface SignInRecord {
  userId: string;
  role: string;
  /** For a student's view-only login: the student it opens. */
  studentId: string | null;
  expiresAt: Date;
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Sign-in sessions, kept on the server (not the tutoring sessions of the domain). The cookie holds a
 * random token; the table (`user_sessions`, named before the store was) holds only its hash, so a
 * database dump cannot be replayed as cookies.
 */
export class SignInStore {
  constructor(private readonly sql: Sql) {}

  async create(userId: string, role: string, studentId: string | null = null): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + SIGN_IN_DAYS * 86_400_000);
    await this.sql`INSERT INTO user_sessions (token_hash, user_id, role, student_id, expires_at)
                   VALUES (${digest(token)}, ${userId}, ${role}, ${studentId}, ${expiresAt})`;
    return { token, expiresAt };
  }

  /**
   * The sign-in, when found and unexpired, extended (sliding expiry). Written at most once a
   * minute per sign-in: every authenticated request reads it, and rewriting the row each time cost
   * a new row version and its WAL per request for an expiry 14 days out.
   */
  async find(token: string): Promise<SignInRecord | null> {
    const expiresAt = new Date(Date.now() + SIGN_IN_DAYS * 86_400_000);
    const [row] = await this.sql<{ user_id: string; role: string; student_id: string | null; expires_at: Date }[]>`
      WITH found AS (
        SELECT token_hash, user_id, role, student_id, expires_at, last_seen_at FROM user_sessions
        WHERE token_hash = ${digest(token)} AND expires_at > now()
          AND NOT EXISTS (SELECT 1 FROM suspended_accounts a WHERE a.user_id = user_sessions.user_id)),
      touched AS (
        UPDATE user_sessions s SET last_seen_at = now(), expires_at = ${expiresAt}
        FROM found WHERE s.token_hash = found.token_hash AND found.last_seen_at < now() - ${`${TOUCH_EVERY_SECONDS} seconds`}::interval
        RETURNING s.expires_at)
      SELECT user_id, role, student_id, coalesce((SELECT expires_at FROM touched), found.expires_at) AS expires_at FROM found`;
    return row ? { userId: row.user_id, role: row.role, studentId: row.student_id, expiresAt: row.expires_at } : null;
  }

  async end(token: string): Promise<void> {
    await this.sql`DELETE FROM user_sessions WHERE token_hash = ${digest(token)}`;
  }

  async endAllFor(userId: string): Promise<void> {
    await this.sql`DELETE FROM user_sessions WHERE user_id = ${userId}`;
  }

  /** A student's view-only login was renamed or given a new password: its open sign-ins end. */
  async endSecondaryFor(studentId: string): Promise<void> {
    await this.sql`DELETE FROM user_sessions WHERE student_id = ${studentId} AND role = 'student_secondary'`;
  }

  /**
   * An admin deactivated the account: its sign-ins (and its students' view-only ones, which carry
   * the holder's id) end, and `find` refuses any sign-in of the user while they are suspended, so a
   * sign-in that raced the deactivation cannot leave a working cookie behind.
   */
  async suspend(userId: string): Promise<void> {
    await this.sql`INSERT INTO suspended_accounts (user_id) VALUES (${userId}) ON CONFLICT (user_id) DO NOTHING`;
    await this.endAllFor(userId);
  }

  /** Reactivated: sign-ins left from before (none work while suspended) are dropped, then sign-in may open new ones. */
  async resume(userId: string): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`DELETE FROM user_sessions WHERE user_id = ${userId}`;
      await tx`DELETE FROM suspended_accounts WHERE user_id = ${userId}`;
    });
  }

  /** A role change takes effect on open sign-ins at once. */
  async updateRole(userId: string, role: string): Promise<void> {
    await this.sql`UPDATE user_sessions SET role = ${role} WHERE user_id = ${userId} AND role <> 'student_secondary'`;
  }
}
