import { createHash, randomBytes } from 'node:crypto';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { calendarFeedDecider, calendarFeedStreamId } from '../../domain/sessions/calendarFeed.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { commandHandler } from '../kit/handleCommand.ts';

/** A feed token as it appears in the URL: 32 random bytes, base64url (43 characters). */
export const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const feedTokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Makes a new feed token for the user (the first, or a reset replacing the old) and records its
 * hash on `calendarFeed-<userId>`. The token is returned to be shown once and never stored.
 */
export async function issueCalendarFeedToken(store: EventStore, userId: string, ctx: CommandContext) {
  const token = randomBytes(32).toString('base64url');
  const tokenHash = feedTokenHash(token);
  const result = await commandHandler(store, calendarFeedDecider, calendarFeedStreamId).handle(
    userId,
    { type: 'IssueCalendarFeedToken', data: { userId, tokenHash } },
    ctx,
  );
  return { token, ...result };
}
