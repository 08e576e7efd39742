import { describe, expect, it } from 'vitest';
import {
  actorLabel,
  applicantName,
  centsToMoney,
  eventTypeLabel,
  exactTime,
  readableInstant,
  readableText,
  readableValue,
  timeAgo,
} from './format.ts';

const now = Date.parse('2026-11-23T12:00:00Z');
const secondsAgo = (seconds: number) => new Date(now - seconds * 1000).toISOString();

describe('timeAgo (the Applied column)', () => {
  it('speaks in the largest whole unit', () => {
    expect(timeAgo(secondsAgo(10), now)).toBe('just now');
    expect(timeAgo(secondsAgo(60), now)).toBe('1 minute ago');
    expect(timeAgo(secondsAgo(5 * 3600 + 59), now)).toBe('5 hours ago');
    expect(timeAgo(secondsAgo(3 * 86_400), now)).toBe('3 days ago');
    expect(timeAgo(secondsAgo(15 * 86_400), now)).toBe('2 weeks ago');
    expect(timeAgo(secondsAgo(400 * 86_400), now)).toBe('1 year ago');
  });
  it('says nothing about an unreadable time', () => {
    expect(timeAgo('not a date', now)).toBe('');
  });
});

describe('applicantName', () => {
  it('joins the names, or is null when there are none', () => {
    expect(applicantName({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(applicantName({ firstName: ' ', lastName: null })).toBeNull();
  });
});

describe('readableText (recorded sentences in people language)', () => {
  it('shows instants in the viewer zone, not as ISO strings', () => {
    const text = readableText('Session booked for 2026-12-04T21:00:00.000Z (60 min)');
    expect(text).toBe(`Session booked for ${exactTime('2026-12-04T21:00:00.000Z')} (60 min)`);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(text).toMatch(/Dec [45], 2026/);
  });
  it('shows cents as money with two decimals', () => {
    expect(readableText('Purchase refunded (13725 cents, 2 session(s) removed)')).toBe('Purchase refunded ($137.25, 2 session(s) removed)');
    expect(readableText('Refund at the payment provider not made in Topmark (500 of 20000 cents)')).toBe(
      'Refund at the payment provider not made in Topmark ($5.00 of $200.00)',
    );
    expect(centsToMoney(0)).toBe('$0.00');
  });
  it('replaces the ids it has names for, and leaves other text alone', () => {
    const id = 'b252b41a-8c1e-4c53-9a43-0b8c7e3b1f10';
    expect(readableText(`Purchase ${id}: the payment provider reports`, new Map([[id, 'Algebra 1 · Ann Lee']]))).toBe(
      'Purchase Algebra 1 · Ann Lee: the payment provider reports',
    );
    expect(readableText('Course ended')).toBe('Course ended');
  });
  it('shows a recorded instant value in the viewer zone, other values as they are', () => {
    expect(readableInstant('2026-11-27T19:27:27.209Z')).toBe(exactTime('2026-11-27T19:27:27.209Z'));
    expect(readableInstant('password')).toBe('password');
  });
  it('shows a field in cents as money, an instant in the viewer zone, anything else as recorded', () => {
    expect(readableValue('amountCents', 13725)).toBe('$137.25');
    expect(readableValue('price.hourly_rate_cents', 4550)).toBe('$45.50');
    expect(readableValue('sessions', 13725)).toBe('13725');
    expect(readableValue('start', '2026-12-04T21:00:00.000Z')).toBe(exactTime('2026-12-04T21:00:00.000Z'));
    expect(readableValue('tags', ['a'])).toBe('["a"]');
    expect(readableValue('note', null)).toBeNull();
  });
});

describe('eventTypeLabel and actorLabel', () => {
  it('shows event types as words', () => {
    expect(eventTypeLabel('SessionBooked')).toBe('Session booked');
    expect(eventTypeLabel('PurchaseRefundedAtProvider')).toBe('Purchase refunded at provider');
  });
  it('names the actor, a deleted account, or the system', () => {
    expect(actorLabel({ id: 'u1', name: 'Ada Lovelace' })).toBe('Ada Lovelace');
    expect(actorLabel({ id: 'u1' })).toBe('Deleted user');
    expect(actorLabel({ id: null })).toBe('System');
  });
});
