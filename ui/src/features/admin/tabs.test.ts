import { describe, expect, it } from 'vitest';
import { systemTabsFor, tabsFor, validateAdminSearch } from './tabs.ts';

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
    // The page survives a reload: a whole number from 2 up; the first page and nonsense leave it out.
    expect(validateAdminSearch({ tab: 'alerts', page: '3' })).toEqual({ tab: 'alerts', page: 3 });
    expect(validateAdminSearch({ tab: 'alerts', page: 4 })).toEqual({ tab: 'alerts', page: 4 });
    for (const page of ['1', '0', '-2', '2.5', 'x', '9999999', 1.5]) expect(validateAdminSearch({ page })).toEqual({});
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
