import { z } from 'zod';
import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/**
 * Notification settings and the in-app notice list (issue 22 §4, docs/sessions-calendar.md).
 *
 * Optional notices are those a person may stop by e-mail: the session notices and reminders. A
 * receipt, a refund notice, a payout notice and an application decision are records of money or of
 * a decision about the person: always mailed, never listed here. Whatever the settings, every
 * notice still appears in the bell's list.
 *
 * Two streams per person, neither the account's own `user-<id>`: `noticePreferences-<id>` (read by
 * every notice job at send time, so it stays a handful of events) and `noticeReads-<id>` (one event
 * per "mark read" click). Keeping them apart keeps the account stream, which sign-in folds, short,
 * and keeps the preference read of a burst of notices from folding a history of clicks.
 */
export const optionalNoticeKinds = [
  'sessionBooked',
  'sessionRescheduled',
  'sessionCancelled',
  'sessionCompleted',
  'sessionReminders',
] as const;
export type OptionalNoticeKind = (typeof optionalNoticeKinds)[number];

/** Per optional kind: true when it is mailed. Default: every kind on. */
export type NotificationPreferences = Record<OptionalNoticeKind, boolean>;

export const defaultNotificationPreferences: NotificationPreferences = Object.fromEntries(
  optionalNoticeKinds.map((k) => [k, true]),
) as NotificationPreferences;

export const notificationPreferencesChanged = z.object({
  userId: z.string(),
  /** The optional kinds no longer mailed after this change (the whole set: every other kind is mailed). */
  emailOff: z.array(z.enum(optionalNoticeKinds)),
  at: z.string(),
});

/** At most this many ids in one "mark read": the list shows 20. */
export const MAX_READ_IDS = 100;

export const noticesRead = z.object({
  userId: z.string(),
  /** Notices marked read one by one (ids of the `notices` read model). */
  noticeIds: z.array(z.string()).max(MAX_READ_IDS),
  /** "Mark all read": every notice that occurred at or before this instant. */
  upTo: z.string().nullable(),
  at: z.string(),
});

export const noticeEvents = {
  NotificationPreferencesChanged: eventType(notificationPreferencesChanged, {
    describe: (d) => (d.emailOff.length === 0 ? 'E-mail notices: all on' : `E-mail notices turned off: ${d.emailOff.join(', ')}`),
  }),
  NoticesRead: eventType(noticesRead, {
    describe: (d) => (d.upTo ? 'All notices marked read' : `${d.noticeIds.length} notice(s) marked read`),
  }),
};

export type NoticeEvent = EventsOf<typeof noticeEvents>;
type PreferencesEvent = Extract<NoticeEvent, { type: 'NotificationPreferencesChanged' }>;
type ReadsEvent = Extract<NoticeEvent, { type: 'NoticesRead' }>;

export const noticePreferencesStreamId = (userId: string) => `noticePreferences-${userId}`;
export const noticeReadsStreamId = (userId: string) => `noticeReads-${userId}`;

/** The preferences a stream's events leave: the last change's set, or the default. */
export function preferencesOf(emailOff: readonly OptionalNoticeKind[] | null): NotificationPreferences {
  const off = new Set(emailOff ?? []);
  return Object.fromEntries(optionalNoticeKinds.map((k) => [k, !off.has(k)])) as NotificationPreferences;
}

export interface NoticePreferencesState {
  emailOff: readonly OptionalNoticeKind[];
}

export const initialNoticePreferencesState: NoticePreferencesState = { emailOff: [] };

export type NoticePreferencesCommand = Command<
  'ChangeNotificationPreferences',
  { userId: string; preferences: Partial<NotificationPreferences> }
>;

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((k) => b.includes(k));

export const noticePreferencesDecider: Decider<NoticePreferencesCommand, PreferencesEvent, NoticePreferencesState> = {
  initialState: initialNoticePreferencesState,
  evolve: (_state, event) => ({ emailOff: event.data.emailOff }),
  decide: decideWith<NoticePreferencesCommand, PreferencesEvent, NoticePreferencesState>({
    ChangeNotificationPreferences({ data, metadata: { now } }, state) {
      // Kinds the command does not name keep their setting (a partial update).
      const next = { ...preferencesOf(state.emailOff), ...data.preferences };
      const emailOff = optionalNoticeKinds.filter((k) => !next[k]);
      if (sameSet(emailOff, state.emailOff)) return [];
      return [{ type: 'NotificationPreferencesChanged', data: { userId: data.userId, emailOff, at: now.toISOString() } }];
    },
  }),
};

export interface NoticeReadsState {
  /** The latest "mark all read" instant: marking all again up to an earlier one changes nothing. */
  upTo: string | null;
}

export const initialNoticeReadsState: NoticeReadsState = { upTo: null };

export type NoticeReadsCommand =
  | Command<'MarkNoticesRead', { userId: string; noticeIds: readonly string[] }>
  | Command<'MarkAllNoticesRead', { userId: string; upTo: string }>;

export const noticeReadsDecider: Decider<NoticeReadsCommand, ReadsEvent, NoticeReadsState> = {
  initialState: initialNoticeReadsState,
  evolve: (state, event) =>
    event.data.upTo && (!state.upTo || Date.parse(event.data.upTo) > Date.parse(state.upTo)) ? { upTo: event.data.upTo } : state,
  decide: decideWith<NoticeReadsCommand, ReadsEvent, NoticeReadsState>({
    MarkNoticesRead({ data, metadata: { now } }) {
      const noticeIds = [...new Set(data.noticeIds)];
      if (noticeIds.length === 0) return [];
      if (noticeIds.length > MAX_READ_IDS) throw new DomainError(`At most ${MAX_READ_IDS} notices at a time`, 'invalid');
      return [{ type: 'NoticesRead', data: { userId: data.userId, noticeIds, upTo: null, at: now.toISOString() } }];
    },
    MarkAllNoticesRead({ data, metadata: { now } }, state) {
      if (Number.isNaN(Date.parse(data.upTo))) throw new DomainError('upTo must be a date and time', 'invalid');
      if (state.upTo && Date.parse(data.upTo) <= Date.parse(state.upTo)) return [];
      return [{ type: 'NoticesRead', data: { userId: data.userId, noticeIds: [], upTo: data.upTo, at: now.toISOString() } }];
    },
  }),
};

/** The optional kind a session notice (or reminder) is mailed under. */
export function optionalKindOfSessionNotice(kind: 'booked' | 'rescheduled' | 'cancelled' | 'completed' | 'reminder'): OptionalNoticeKind {
  switch (kind) {
    case 'booked':
      return 'sessionBooked';
    case 'rescheduled':
      return 'sessionRescheduled';
    case 'cancelled':
      return 'sessionCancelled';
    case 'completed':
      return 'sessionCompleted';
    case 'reminder':
      return 'sessionReminders';
  }
}
