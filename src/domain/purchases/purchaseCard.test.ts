import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { cardLabel, FREE_PURCHASE, type PurchaseEvent, paymentCardOf, purchaseEvents } from './purchase.ts';
import { purchaseDecider } from './purchaseDecider.ts';

const now = new Date('2026-11-27T12:00:00Z');
const at = now.toISOString();
const meta = { now, actorId: null, actorRole: 'system' };
const spec = deciderSpec(purchaseDecider);

const started = (paymentIntentId: string | null): PurchaseEvent => ({
  type: 'PurchaseStarted',
  data: {
    purchaseId: 'p1',
    studentId: 's1',
    purchasedBy: 'u1',
    packageId: 'pkg',
    subjectId: 'math',
    sessionCount: 8,
    priceCents: 48_000,
    promo: null,
    finalCents: paymentIntentId ? 48_000 : 0,
    paymentIntentId,
    kind: 'purchase',
    courseId: null,
    checkoutSessionId: null,
    at,
  },
});
const complete = (paymentIntentId: string, card?: { brand: string; last4: string } | null) => ({
  type: 'CompletePurchase' as const,
  data: { purchaseId: 'p1', paymentIntentId, ...(card !== undefined ? { card } : {}) },
  metadata: meta,
});
const completed = (paymentIntentId: string, card: { brand: string; last4: string } | null): PurchaseEvent => ({
  type: 'PurchaseCompleted',
  data: { purchaseId: 'p1', paymentIntentId, kind: 'purchase', card, at },
});

describe('the card that paid, on the completion', () => {
  it('records the brand and last 4 digits the provider gave', () => {
    spec
      .given([started('pi_1')])
      .when(complete('pi_1', { brand: 'visa', last4: '4242' }))
      .thenEvents([completed('pi_1', { brand: 'visa', last4: '4242' })]);
  });

  it('records no card when the provider named none, for a free purchase, or for anything more than 4 digits', () => {
    spec
      .given([started('pi_1')])
      .when(complete('pi_1'))
      .thenEvents([completed('pi_1', null)]);
    spec
      .given([started(null)])
      .when(complete(FREE_PURCHASE, { brand: 'visa', last4: '4242' }))
      .thenEvents([completed(FREE_PURCHASE, null)]);
    spec
      .given([started('pi_1')])
      .when(complete('pi_1', { brand: 'visa', last4: '4242424242424242' }))
      .thenEvents([completed('pi_1', null)]);
    spec
      .given([started('pi_1')])
      .when(complete('pi_1', { brand: 'Visa <script>', last4: '4242' }))
      .thenEvents([completed('pi_1', null)]);
  });

  it('decodes completions recorded before cards were kept', () => {
    const old = purchaseEvents.PurchaseCompleted.schema.parse({ purchaseId: 'p1', paymentIntentId: 'pi_1', kind: 'purchase', at });
    expect(old.card ?? null).toBeNull();
    const withCard = purchaseEvents.PurchaseCompleted.schema.parse({
      purchaseId: 'p1',
      paymentIntentId: 'pi_1',
      kind: 'purchase',
      card: { brand: 'amex', last4: '0005' },
      at,
    });
    expect(withCard.card).toEqual({ brand: 'amex', last4: '0005' });
  });

  it('names the card as a receipt says it', () => {
    expect(cardLabel({ brand: 'visa', last4: '4242' })).toBe('Visa ending 4242');
    expect(cardLabel({ brand: 'amex', last4: '0005' })).toBe('American Express ending 0005');
    expect(cardLabel({ brand: 'unknown', last4: '1234' })).toBe('Card ending 1234');
    expect(paymentCardOf({ brand: 'visa', last4: '42a2' })).toBeNull();
    expect(paymentCardOf(null)).toBeNull();
  });
});
