import { describe, expect, it } from 'vitest';
import { applicantName, timeAgo } from './format.ts';
import { systemTabsFor, tabsFor, validateAdminSearch } from './tabs.ts';

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

describe('admin tabs', () => {
  it('has the ten tabs in the spec order for admins and Purchases and Payouts for finance', () => {
    expect(tabsFor('admin').map((t) => t.label)).toEqual([
      'Overview',
      'Tutor Applications',
      'Create Tutor',
      'Sessions',
      'Purchases',
      'Payouts',
      'Users',
      'Promo Codes',
      'Alerts',
      'Audit Log',
    ]);
    expect(tabsFor('finance').map((t) => t.id)).toEqual(['purchases', 'payouts']);
  });
  it('keeps only a known ?tab=', () => {
    expect(validateAdminSearch({ tab: 'create-tutor' })).toEqual({ tab: 'create-tutor' });
    expect(validateAdminSearch({ tab: 'nope' })).toEqual({});
    expect(validateAdminSearch({})).toEqual({});
  });
  it('accepts the System tabs in ?tab= and shows them to admins only, the Mailbox only with the outbox', () => {
    expect(validateAdminSearch({ tab: 'projections' })).toEqual({ tab: 'projections' });
    expect(validateAdminSearch({ tab: 'mailbox' })).toEqual({ tab: 'mailbox' });
    expect(systemTabsFor('admin', { mailbox: true }).map((t) => t.label)).toEqual(['Projections', 'Jobs', 'Mailbox']);
    expect(systemTabsFor('admin', { mailbox: false }).map((t) => t.id)).toEqual(['projections', 'jobs']);
    expect(systemTabsFor('finance', { mailbox: true })).toEqual([]);
  });
});
