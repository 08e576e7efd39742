import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import {
  type NotificationPreferences,
  noticePreferencesDecider,
  noticePreferencesStreamId,
  noticeReadsDecider,
  noticeReadsStreamId,
  notificationPreferencesChanged,
  type OptionalNoticeKind,
  preferencesOf,
} from '../../domain/notices/notices.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { commandHandler } from '../kit/handleCommand.ts';

/** The person's own e-mail settings: the kinds named change, the others keep theirs. */
export function changeNotificationPreferences(
  store: EventStore,
  userId: string,
  preferences: Partial<NotificationPreferences>,
  ctx: CommandContext,
) {
  return commandHandler(store, noticePreferencesDecider, noticePreferencesStreamId).handle(
    userId,
    { type: 'ChangeNotificationPreferences', data: { userId, preferences } },
    ctx,
  );
}

/**
 * The person's settings as their stream holds them now: what a notice job reads at send time, so a
 * change made a second before a notice goes out is honoured on every worker (no read model lag).
 */
export async function notificationPreferencesOf(store: EventStore, userId: string): Promise<NotificationPreferences> {
  const events = await store.readStream(noticePreferencesStreamId(userId));
  const last = events.at(-1);
  return preferencesOf(last ? notificationPreferencesChanged.parse(last.data).emailOff : null);
}

/** Whether this optional kind is mailed to the person. */
export async function mailsNotice(store: EventStore, userId: string, kind: OptionalNoticeKind): Promise<boolean> {
  return (await notificationPreferencesOf(store, userId))[kind];
}

export function markNoticesRead(store: EventStore, userId: string, noticeIds: readonly string[], ctx: CommandContext) {
  return commandHandler(store, noticeReadsDecider, noticeReadsStreamId).handle(
    userId,
    { type: 'MarkNoticesRead', data: { userId, noticeIds } },
    ctx,
  );
}

export function markAllNoticesRead(store: EventStore, userId: string, upTo: string, ctx: CommandContext) {
  return commandHandler(store, noticeReadsDecider, noticeReadsStreamId).handle(
    userId,
    { type: 'MarkAllNoticesRead', data: { userId, upTo } },
    ctx,
  );
}
