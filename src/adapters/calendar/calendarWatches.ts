import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Sql } from '../db/db.ts';
import { instanceSecret } from '../db/instanceSecrets.ts';
import type { PushChannel } from './calendarPort.ts';

/**
 * Which tutors' calendars are watched, and how far each was read (`calendar_watches`, migration
 * 0019): the live push channel, the sync token of the last incremental listing, the last sync and
 * the last error. Shared by every process: the webhook (any API replica) finds the channel here,
 * the sync job (any worker) moves the token on.
 */
export interface CalendarWatch {
  tutorId: string;
  channelId: string | null;
  resourceId: string | null;
  channelAddress: string | null;
  channelExpiresAt: Date | null;
  syncToken: string | null;
  lastSyncAt: Date | null;
  lastErrorReason: string | null;
  lastError: string | null;
  lastErrorAt: Date | null;
}

export interface CalendarWatches {
  /** The tutor's row, made on first use (no channel, no token). */
  open(tutorId: string): Promise<CalendarWatch>;
  find(tutorId: string): Promise<CalendarWatch | null>;
  /** The tutor whose channel this is, while it has not expired. */
  liveChannel(channelId: string, now: Date): Promise<{ tutorId: string; resourceId: string | null } | null>;
  /**
   * Names `channel` (null: none) as the tutor's live channel, if the one named now is still
   * `expected` (another run may have replaced it meanwhile): false when it was not.
   */
  replaceChannel(tutorId: string, expected: string | null, channel: (PushChannel & { address: string }) | null): Promise<boolean>;
  /** A sync that worked: the token the next one starts from; `problem` is what failed beside it (a channel Google refused), or null. */
  recordSync(tutorId: string, syncToken: string, at: Date, problem: { reason: string; message: string } | null): Promise<void>;
  recordError(tutorId: string, problem: { reason: string; message: string }, at: Date): Promise<void>;
  /**
   * The calendar cannot be read until the tutor acts (a refused grant): the channel and the token
   * are forgotten (the next sync is a full one) and the reason kept. True when the row did not
   * already say so (the first time, not every retry or sweep).
   */
  recordAccessLost(tutorId: string, problem: { reason: string; message: string }, at: Date): Promise<boolean>;
  forget(tutorId: string): Promise<CalendarWatch | null>;
  /** Every watched tutor (the 5-minute sweep). */
  tutorIds(): Promise<string[]>;
}

interface Row {
  tutor_id: string;
  channel_id: string | null;
  resource_id: string | null;
  channel_address: string | null;
  channel_expires_at: Date | null;
  sync_token: string | null;
  last_sync_at: Date | null;
  last_error_reason: string | null;
  last_error: string | null;
  last_error_at: Date | null;
}

const COLUMNS =
  'tutor_id, channel_id, resource_id, channel_address, channel_expires_at, sync_token, last_sync_at, last_error_reason, last_error, last_error_at';

const watchOf = (r: Row): CalendarWatch => ({
  tutorId: r.tutor_id,
  channelId: r.channel_id,
  resourceId: r.resource_id,
  channelAddress: r.channel_address,
  channelExpiresAt: r.channel_expires_at,
  syncToken: r.sync_token,
  lastSyncAt: r.last_sync_at,
  lastErrorReason: r.last_error_reason,
  lastError: r.last_error,
  lastErrorAt: r.last_error_at,
});

/** Errors are kept for operators, bounded. */
const bounded = (message: string) => message.slice(0, 1000);

export function calendarWatches(sql: Sql): CalendarWatches {
  const find = async (tutorId: string) => {
    const [row] = await sql.unsafe<Row[]>(`SELECT ${COLUMNS} FROM calendar_watches WHERE tutor_id = $1`, [tutorId]);
    return row ? watchOf(row) : null;
  };
  return {
    async open(tutorId) {
      await sql`INSERT INTO calendar_watches (tutor_id) VALUES (${tutorId}) ON CONFLICT (tutor_id) DO NOTHING`;
      return (await find(tutorId)) as CalendarWatch;
    },
    find,
    async liveChannel(channelId, now) {
      const [row] = await sql<{ tutor_id: string; resource_id: string | null }[]>`
        SELECT tutor_id, resource_id FROM calendar_watches WHERE channel_id = ${channelId} AND channel_expires_at > ${now}`;
      return row ? { tutorId: row.tutor_id, resourceId: row.resource_id } : null;
    },
    async replaceChannel(tutorId, expected, channel) {
      const rows = await sql`
        UPDATE calendar_watches
        SET channel_id = ${channel?.id ?? null}, resource_id = ${channel?.resourceId ?? null},
            channel_address = ${channel?.address ?? null}, channel_expires_at = ${channel?.expiresAt ?? null}, updated_at = now()
        WHERE tutor_id = ${tutorId} AND channel_id IS NOT DISTINCT FROM ${expected}`;
      return rows.count === 1;
    },
    async recordSync(tutorId, syncToken, at, problem) {
      await sql`
        UPDATE calendar_watches
        SET sync_token = ${syncToken}, last_sync_at = ${at},
            last_error_reason = ${problem?.reason ?? null}, last_error = ${problem ? bounded(problem.message) : null},
            last_error_at = ${problem ? at : null}, updated_at = now()
        WHERE tutor_id = ${tutorId}`;
    },
    async recordError(tutorId, problem, at) {
      await sql`
        UPDATE calendar_watches
        SET last_error_reason = ${problem.reason}, last_error = ${bounded(problem.message)}, last_error_at = ${at}, updated_at = now()
        WHERE tutor_id = ${tutorId}`;
    },
    async recordAccessLost(tutorId, problem, at) {
      // The row as it was (locked), then as it is: one statement, so two runs at once see one transition.
      const [row] = await sql<{ previous: string | null }[]>`
        WITH before AS (SELECT tutor_id, last_error_reason FROM calendar_watches WHERE tutor_id = ${tutorId} FOR UPDATE)
        UPDATE calendar_watches w
        SET channel_id = NULL, resource_id = NULL, channel_address = NULL, channel_expires_at = NULL, sync_token = NULL,
            last_error_reason = ${problem.reason}, last_error = ${bounded(problem.message)}, last_error_at = ${at}, updated_at = now()
        FROM before WHERE w.tutor_id = before.tutor_id
        RETURNING before.last_error_reason AS previous`;
      return row !== undefined && row.previous !== problem.reason;
    },
    async forget(tutorId) {
      const [row] = await sql.unsafe<Row[]>(`DELETE FROM calendar_watches WHERE tutor_id = $1 RETURNING ${COLUMNS}`, [tutorId]);
      return row ? watchOf(row) : null;
    },
    async tutorIds() {
      const rows = await sql<{ tutor_id: string }[]>`SELECT tutor_id FROM calendar_watches ORDER BY tutor_id`;
      return rows.map((r) => r.tutor_id);
    },
  };
}

/**
 * The token Google sends back with every message of a channel (`X-Goog-Channel-Token`): an HMAC of
 * the channel id under the installation's own secret (`instance_secrets`, the same in every
 * process), so a message is checked without a query, and a forged one names a channel id it
 * cannot sign. Compared in constant time.
 */
export interface ChannelTokens {
  tokenFor(channelId: string): Promise<string>;
  matches(channelId: string, token: string): Promise<boolean>;
}

const SECRET_NAME = 'google-calendar-channels';
const secrets = new WeakMap<Sql, Promise<string>>();

export function channelTokens(sql: Sql): ChannelTokens {
  const secret = () => {
    let held = secrets.get(sql);
    if (!held) {
      held = instanceSecret(sql, SECRET_NAME);
      held.catch(() => secrets.delete(sql));
      secrets.set(sql, held);
    }
    return held;
  };
  const tokenFor = async (channelId: string) =>
    createHmac('sha256', await secret())
      .update(`google-calendar-channel\u0000${channelId}`)
      .digest('base64url');
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return {
    tokenFor,
    async matches(channelId, token) {
      // Equal-length digests: timingSafeEqual neither throws on a token of another length nor tells how much matched.
      return timingSafeEqual(digest(await tokenFor(channelId)), digest(token));
    },
  };
}
