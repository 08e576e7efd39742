import { describe, expect, it } from 'vitest';
import { apiSpec, SPEC_NOW } from '../../../tests/support/apiSpec.ts';
import { DomainError, type DomainEvent } from '../../domain/kit/decider.ts';
import { promoCodeStreamId } from '../../domain/promoCodes/promoCode.ts';
import { ADMINS_ONLY, PROMO_EXHAUSTED, PROMO_PERSON_LIMIT } from '../../domain/promoCodes/promoCodeDecider.ts';
import { PROMO_CODE_TAKEN } from '../../domain/promoCodes/promoCodeReservationDecider.ts';
import { stepOf } from '../kit/processStep.ts';
import { createPromoCode, editPromoCode } from './managePromoCodes.ts';
import { promoCodeHandlers, promoCodeReservationStreamId } from './promoCodeHandlers.ts';
import { claimPromoUse, holdingPromoUse, redeemPromoCode } from './promoUses.ts';

/**
 * The promo codes feature's rules through its command module, on the in-memory event store (no
 * database): a code is unique across codes, the limits hold across concurrent checkouts, a failed
 * payment gives its use back. The PostgreSQL suites (promoUses.test.ts, promoPerPerson.test.ts)
 * keep what the read models show.
 */
const spec = apiSpec(promoCodeHandlers);

const at = SPEC_NOW.toISOString();
const minutesFromNow = (minutes: number) => new Date(SPEC_NOW.getTime() + minutes * 60_000).toISOString();
const CODE_ID = '0b8a4c1e-6d2f-4a5b-9c3d-1e2f3a4b5c6d';
const OTHER_CODE_ID = '7f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0';
const codeStream = promoCodeStreamId(CODE_ID);
const reservationOf = promoCodeReservationStreamId;

/** The stored terms of `{ code, discountType: 'percentage', discountValue: '10' }` and the limits given. */
const terms = (code: string, limits: { maxUses?: number; maxUsesPerPerson?: number } = {}) => ({
  code,
  description: null,
  discountType: 'percentage',
  discountValue: 1000,
  maxUses: limits.maxUses ?? null,
  maxUsesPerPerson: limits.maxUsesPerPerson ?? null,
  validFrom: null,
  validUntil: null,
  isActive: true,
});
const created = (code: string, limits: { maxUses?: number; maxUsesPerPerson?: number } = {}): DomainEvent => ({
  type: 'PromoCodeCreated',
  data: { promoCodeId: CODE_ID, ...terms(code, limits), createdBy: 'admin-1', at },
});
const claimed = (claimId: string, userId: string, expiresAt = minutesFromNow(30)): DomainEvent => ({
  type: 'PromoUseClaimed',
  data: { promoCodeId: CODE_ID, claimId, userId, discountCents: 5_700, expiresAt, at },
});
const reserved = (promoCodeId: string): DomainEvent => ({ type: 'PromoCodeReserved', data: { promoCodeId, at } });
const use = (claimId: string, userId: string) => ({ promoCodeId: CODE_ID, claimId, userId, priceCents: 57_000 });
const input = (code: string) => ({ code, discountType: 'percentage', discountValue: '10' });

describe('promo codes: a code belongs to one promo code', () => {
  it('an admin creates a code: the code is reserved for the new promo code, then its stream is created', async () => {
    await spec
      .given()
      .when((h, call) => createPromoCode(h, input('spring'), call.as('admin', 'admin-1')))
      .thenAppended({
        appended: ({ promoCodeId }) => ({
          [reservationOf('SPRING')]: [{ type: 'PromoCodeReserved', data: { promoCodeId, at } }],
          [promoCodeStreamId(promoCodeId)]: [
            { type: 'PromoCodeCreated', data: { promoCodeId, ...terms('SPRING'), createdBy: 'admin-1', at } },
          ],
        }),
        answer: { promoCodeId: expect.any(String), position: expect.any(String) },
      });
  });

  it('the same create retried (same command id) appends nothing more', async () => {
    await spec
      .given()
      .when(async (h, call) => {
        const ctx = call.as('admin', 'admin-1');
        const first = await createPromoCode(h, input('spring'), ctx);
        const again = await createPromoCode(h, input('spring'), ctx);
        return [first.promoCodeId, again.promoCodeId];
      })
      .thenAppended({
        appended: ([promoCodeId]) => ({
          [reservationOf('SPRING')]: [reserved(promoCodeId as string)],
          [promoCodeStreamId(promoCodeId as string)]: [expect.objectContaining({ type: 'PromoCodeCreated' })],
        }),
        answer: [expect.any(String), expect.any(String)],
      })
      .then(({ answer: [first, again] }) => expect(again).toBe(first));
  });

  it('a code another promo code holds is refused as taken (any case), and nothing is appended', async () => {
    await spec
      .given({ [reservationOf('SPRING')]: [reserved(OTHER_CODE_ID)] })
      .when((h, call) => createPromoCode(h, input('Spring'), call.as('admin', 'admin-1')))
      .thenRefused(PROMO_CODE_TAKEN, 'conflict');
  });

  it('only admins manage codes', async () => {
    await spec
      .given()
      .when((h, call) => createPromoCode(h, input('spring'), call.as('student', 'ann')))
      .thenRefused(ADMINS_ONLY, 'forbidden');
  });

  it('an edit to another code claims the new code, edits, then gives the old code back', async () => {
    await spec
      .given({ [reservationOf('OLD')]: [reserved(CODE_ID)], [codeStream]: [created('OLD')] })
      .when((h, call) => editPromoCode(h, CODE_ID, input('new'), call.as('admin', 'admin-1')))
      .thenAppended({
        appended: {
          [reservationOf('NEW')]: [reserved(CODE_ID)],
          [codeStream]: [{ type: 'PromoCodeEdited', data: { promoCodeId: CODE_ID, ...terms('NEW'), at } }],
          [reservationOf('OLD')]: [{ type: 'PromoCodeReservationReleased', data: { promoCodeId: CODE_ID, at } }],
        },
      });
  });

  it('an edit to a code another promo code holds is refused, and the old code stays held', async () => {
    await spec
      .given({
        [reservationOf('OLD')]: [reserved(CODE_ID)],
        [reservationOf('NEW')]: [reserved(OTHER_CODE_ID)],
        [codeStream]: [created('OLD')],
      })
      .when((h, call) => editPromoCode(h, CODE_ID, input('new'), call.as('admin', 'admin-1')))
      .thenRefused(PROMO_CODE_TAKEN, 'conflict');
  });
});

describe('promo codes: uses within the limits', () => {
  it('a checkout claims a use held for 30 minutes, with the discount of the price', async () => {
    await spec
      .given({ [codeStream]: [created('FIVE', { maxUses: 5 })] })
      .when((h, call) => claimPromoUse(h, use('pi-1', 'ann'), call.as('student', 'ann')))
      .thenAppended({ appended: { [codeStream]: [claimed('pi-1', 'ann')] } });
  });

  it('12 concurrent claims on a code limited to 5 uses: exactly 5 are held, the rest are told it is used up', async () => {
    await spec
      .given({ [codeStream]: [created('FIVE', { maxUses: 5 })] })
      .when(async (h, call) => {
        const outcomes = await Promise.allSettled(
          Array.from({ length: 12 }, (_, n) => claimPromoUse(h, use(`pi-${n}`, `u${n}`), call.as('student', `u${n}`))),
        );
        return outcomes.map((o) => (o.status === 'fulfilled' ? 'held' : (o.reason as Error).message)).sort();
      })
      .thenAppended({
        appended: { [codeStream]: Array.from({ length: 5 }, () => expect.objectContaining({ type: 'PromoUseClaimed' })) },
        answer: [...Array(5).fill('held'), ...Array(7).fill(PROMO_EXHAUSTED)].sort(),
      });
  });

  it('a used-up code is refused; a claim that expired no longer holds its place', async () => {
    await spec
      .given({ [codeStream]: [created('ONCE', { maxUses: 1 }), claimed('pi-1', 'ann')] })
      .when((h, call) => claimPromoUse(h, use('pi-2', 'bob'), call.as('student', 'bob')))
      .thenRefused(PROMO_EXHAUSTED, 'conflict');
    await spec
      .given({ [codeStream]: [created('ONCE', { maxUses: 1 }), claimed('pi-1', 'ann', minutesFromNow(-1))] })
      .when((h, call) => claimPromoUse(h, use('pi-2', 'bob'), call.as('student', 'bob')))
      .thenAppended({ appended: { [codeStream]: [claimed('pi-2', 'bob')] } });
  });

  it('the per-person limit holds one account to its uses, not another', async () => {
    const given = {
      [codeStream]: [created('TWICE', { maxUses: 100, maxUsesPerPerson: 2 }), claimed('pi-1', 'ann'), claimed('pi-2', 'ann')],
    };
    await spec
      .given(given)
      .when((h, call) => claimPromoUse(h, use('pi-3', 'ann'), call.as('student', 'ann')))
      .thenRefused(PROMO_PERSON_LIMIT, 'conflict');
    await spec
      .given(given)
      .when((h, call) => claimPromoUse(h, use('pi-3', 'bob'), call.as('student', 'bob')))
      .thenAppended({ appended: { [codeStream]: [claimed('pi-3', 'bob')] } });
  });

  it('a payment that fails gives its use back; the failure is what the caller sees', async () => {
    await spec
      .given({ [codeStream]: [created('FIVE', { maxUses: 5 })] })
      .when((h, call) =>
        holdingPromoUse(h, use('pi-1', 'ann'), stepOf(call.as('student', 'ann')), async () => {
          throw new DomainError('Your card was declined', 'unprocessable');
        }),
      )
      .thenRefused('Your card was declined', 'unprocessable', {
        appended: {
          [codeStream]: [
            claimed('pi-1', 'ann'),
            { type: 'PromoUseReleased', data: { promoCodeId: CODE_ID, claimId: 'pi-1', reason: 'payment_failed', at } },
          ],
        },
      });
  });

  it('a completed purchase redeems its use once, however often it is reported', async () => {
    const redemption = { ...use('pi-1', 'ann'), redemptionId: 'r-1', purchaseId: 'buy-1' };
    await spec
      .given({ [codeStream]: [created('FIVE', { maxUses: 5 }), claimed('pi-1', 'ann')] })
      .when(async (h, call) => {
        await redeemPromoCode(h, redemption, call.as('student', 'ann'));
        return (await redeemPromoCode(h, redemption, call.as('student', 'ann'))).events;
      })
      .thenAppended({
        appended: {
          [codeStream]: [
            {
              type: 'PromoCodeRedeemed',
              data: {
                promoCodeId: CODE_ID,
                claimId: 'pi-1',
                redemptionId: 'r-1',
                userId: 'ann',
                purchaseId: 'buy-1',
                discountCents: 5_700,
                at,
              },
            },
          ],
        },
        answer: [],
      });
  });
});
