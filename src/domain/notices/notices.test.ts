import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import {
  defaultNotificationPreferences,
  MAX_READ_IDS,
  type NoticeEvent,
  noticePreferencesDecider,
  noticeReadsDecider,
  preferencesOf,
} from './notices.ts';
import { payoutText, receiptText, refundText } from './noticeTexts.ts';

const now = new Date('2026-11-27T18:00:00.000Z');
const at = now.toISOString();
const userId = 'u1';
const preferences = deciderSpec(noticePreferencesDecider);
const reads = deciderSpec(noticeReadsDecider);
type Changed = Extract<NoticeEvent, { type: 'NotificationPreferencesChanged' }>;
type Read = Extract<NoticeEvent, { type: 'NoticesRead' }>;
const changed = (emailOff: Changed['data']['emailOff']): Changed => ({
  type: 'NotificationPreferencesChanged',
  data: { userId, emailOff, at },
});
const readAll = (upTo: string): Read => ({ type: 'NoticesRead', data: { userId, noticeIds: [], upTo, at } });

describe('notification preferences', () => {
  it('are all on by default', () => {
    expect(defaultNotificationPreferences).toEqual({
      sessionBooked: true,
      sessionRescheduled: true,
      sessionCancelled: true,
      sessionCompleted: true,
      sessionReminders: true,
    });
    expect(preferencesOf(null)).toEqual(defaultNotificationPreferences);
  });

  it('given none, turning reminders off records the whole set of kinds off', () => {
    preferences
      .given([])
      .when({ type: 'ChangeNotificationPreferences', data: { userId, preferences: { sessionReminders: false } }, metadata: { now } })
      .thenEvents([changed(['sessionReminders'])]);
  });

  it('keeps the kinds a change does not name', () => {
    preferences
      .given([changed(['sessionReminders'])])
      .when({ type: 'ChangeNotificationPreferences', data: { userId, preferences: { sessionBooked: false } }, metadata: { now } })
      .thenEvents([changed(['sessionBooked', 'sessionReminders'])]);
  });

  it('turns a kind back on', () => {
    preferences
      .given([changed(['sessionBooked', 'sessionReminders'])])
      .when({ type: 'ChangeNotificationPreferences', data: { userId, preferences: { sessionBooked: true } }, metadata: { now } })
      .thenEvents([changed(['sessionReminders'])]);
  });

  it('records nothing when nothing changes', () => {
    preferences
      .given([changed(['sessionCancelled'])])
      .when({
        type: 'ChangeNotificationPreferences',
        data: { userId, preferences: { sessionCancelled: false, sessionBooked: true } },
        metadata: { now },
      })
      .thenNothing();
    preferences
      .given([])
      .when({ type: 'ChangeNotificationPreferences', data: { userId, preferences: {} }, metadata: { now } })
      .thenNothing();
  });
});

describe('notices read', () => {
  it('records the ids marked read, each once', () => {
    reads
      .given([])
      .when({ type: 'MarkNoticesRead', data: { userId, noticeIds: ['a', 'b', 'a'] }, metadata: { now } })
      .thenEvents([{ type: 'NoticesRead', data: { userId, noticeIds: ['a', 'b'], upTo: null, at } }]);
  });

  it('refuses more ids than one click can hold, and records nothing for none', () => {
    const many = Array.from({ length: MAX_READ_IDS + 1 }, (_, i) => `n${i}`);
    reads
      .given([])
      .when({ type: 'MarkNoticesRead', data: { userId, noticeIds: many }, metadata: { now } })
      .thenThrows(/At most/, 'invalid');
    reads
      .given([])
      .when({ type: 'MarkNoticesRead', data: { userId, noticeIds: [] }, metadata: { now } })
      .thenNothing();
  });

  it('marks all up to an instant once: an earlier or equal instant again changes nothing', () => {
    const upTo = '2026-11-27T17:00:00.000Z';
    reads
      .given([])
      .when({ type: 'MarkAllNoticesRead', data: { userId, upTo }, metadata: { now } })
      .thenEvents([readAll(upTo)]);
    reads
      .given([readAll(upTo)])
      .when({ type: 'MarkAllNoticesRead', data: { userId, upTo: '2026-11-27T16:00:00.000Z' }, metadata: { now } })
      .thenNothing();
    reads
      .given([readAll(upTo)])
      .when({ type: 'MarkAllNoticesRead', data: { userId, upTo }, metadata: { now } })
      .thenNothing();
    reads
      .given([readAll(upTo)])
      .when({ type: 'MarkAllNoticesRead', data: { userId, upTo: '2026-11-27T17:30:00.000Z' }, metadata: { now } })
      .thenEvents([readAll('2026-11-27T17:30:00.000Z')]);
  });
});

describe('the bell’s words', () => {
  it('say a free order was not a payment, and give amounts to the cent', () => {
    expect(receiptText(0, 4).title).toBe('Order confirmed: nothing charged');
    expect(receiptText(123_456, 10).title).toBe('Payment received: $1,234.56');
    expect(refundText(500, 1).body).toBe('1 session credit removed from your course. The details were e-mailed to you.');
    expect(payoutText(7_505, '2026-11-01', '2026-11-15')).toEqual({
      kind: 'payout',
      title: 'Payout sent: $75.05',
      body: 'Your pay for 2026-11-01 to 2026-11-15.',
    });
  });
});
