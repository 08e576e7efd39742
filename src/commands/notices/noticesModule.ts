import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore, Position } from '../../adapters/eventstore/eventStore.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import type { NotificationPreferences } from '../../domain/notices/notices.ts';
import { newestNoticeAt, noticesOf, ownNoticeIds } from '../../projections/notices/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { changeNotificationPreferences, markAllNoticesRead, markNoticesRead, notificationPreferencesOf } from './notices.ts';

/** The kinds mailed whatever the settings (docs/sessions-calendar.md). */
const ALWAYS_SENT = ['receipt', 'refund', 'payout', 'applicationDecision'];

const settingsOf = (email: NotificationPreferences) => ({ email, alwaysSent: ALWAYS_SENT });

/**
 * The notices feature (issue 22 §4, docs/sessions-calendar.md "Notification settings" and "In-app
 * notices"), built once by system.ts: a person's e-mail settings, read from their own stream as the
 * notice jobs read them, and the bell's list from the `notices` read model. Everything is the
 * caller's own: every member takes the signed-in user's id.
 */
export function noticesModule(deps: { sql: Sql; store: EventStore }) {
  const { sql, store } = deps;
  const settings = async (userId: string) => settingsOf(await notificationPreferencesOf(store, userId));
  return {
    /** Which projections the bell's answers read. */
    projections: ['notices'] as const,

    /** The person's e-mail settings and the kinds always mailed. */
    settings,

    /** Turns the kinds named on or off (the others keep theirs); answers the settings read back from the stream, what the next notice job reads. */
    async changeSettings(userId: string, email: Partial<NotificationPreferences>, ctx: CommandContext) {
      await changeNotificationPreferences(store, userId, email, ctx);
      return settings(userId);
    },

    /** The person's latest notices, unread first then newest, and the number unread. */
    list: (userId: string) => noticesOf(sql, userId),

    /**
     * Marks all the person's notices read (up to the newest) or the ones named; someone else's id
     * and an unknown one look the same (404) and nothing is marked. The position to wait for.
     */
    async markRead(userId: string, which: { all: true } | { ids: readonly string[] }, ctx: CommandContext): Promise<Position | null> {
      if ('all' in which) {
        const upTo = await newestNoticeAt(sql, userId);
        return upTo ? (await markAllNoticesRead(store, userId, upTo, ctx)).position : null;
      }
      const own = await ownNoticeIds(sql, userId, which.ids);
      if (which.ids.some((id) => !own.has(id))) throw new DomainError('Notice not found', 'not_found');
      return (await markNoticesRead(store, userId, which.ids, ctx)).position;
    },
  };
}

export type NoticesModule = ReturnType<typeof noticesModule>;
