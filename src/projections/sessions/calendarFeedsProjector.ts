import { defineProjection } from '../kit/defineProjection.ts';
import { deleteRows, insertRows } from '../kit/writes.ts';
import { calendarFeeds } from './tables.ts';

/**
 * The feed look-up: token hash → user. A reset replaces the row (the old hash is gone in the same
 * transaction); a deleted account's row is removed, so its feed answers 404 like an unknown token.
 */
export const calendarFeedsProjector = defineProjection({
  name: 'calendar_feeds',
  handles: ['CalendarFeedTokenIssued', 'AccountDeleted'],
  tables: [calendarFeeds],
  async apply(tx, events) {
    // The last word per user in the batch: a token (issued or reset) or none (account deleted).
    const latest = new Map<string, { token_hash: string; issued_at: string } | null>();
    for (const e of events) {
      if (e.type === 'CalendarFeedTokenIssued') latest.set(e.data.userId, { token_hash: e.data.tokenHash, issued_at: e.data.issuedAt });
      else if (e.type === 'AccountDeleted') latest.set(e.data.userId, null);
    }
    await deleteRows(tx, calendarFeeds, 'user_id', [...latest.keys()]);
    const rows = [...latest].flatMap(([user_id, feed]) => (feed ? [{ user_id, ...feed }] : []));
    await insertRows(tx, calendarFeeds, rows, 'update');
  },
});
