import { describe, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { PROMO_CODE_TAKEN, promoCodeReservationDecider } from './promoCodeReservationDecider.ts';

const now = new Date('2026-11-23T12:00:00.000Z');
const at = now.toISOString();
const metadata = { now, actorId: 'admin-1', actorRole: 'admin' };

describe('promo code reservation', () => {
  const spec = deciderSpec(promoCodeReservationDecider);
  it('reserves a free code, again for its holder, never for another', () => {
    spec
      .given([])
      .when({ type: 'ReservePromoCode', data: { promoCodeId: 'p1' }, metadata })
      .thenEvents([{ type: 'PromoCodeReserved', data: { promoCodeId: 'p1', at } }]);
    spec
      .given([{ type: 'PromoCodeReserved', data: { promoCodeId: 'p1', at } }])
      .when({ type: 'ReservePromoCode', data: { promoCodeId: 'p1' }, metadata })
      .thenNothing();
    spec
      .given([{ type: 'PromoCodeReserved', data: { promoCodeId: 'p1', at } }])
      .when({ type: 'ReservePromoCode', data: { promoCodeId: 'p2' }, metadata })
      .thenThrows(PROMO_CODE_TAKEN, 'conflict');
  });
  it('releases only for its holder; a released code can be taken', () => {
    const held = { type: 'PromoCodeReserved' as const, data: { promoCodeId: 'p1', at } };
    spec
      .given([held])
      .when({ type: 'ReleasePromoCodeReservation', data: { promoCodeId: 'p2' }, metadata })
      .thenNothing();
    spec
      .given([held])
      .when({ type: 'ReleasePromoCodeReservation', data: { promoCodeId: 'p1' }, metadata })
      .thenEvents([{ type: 'PromoCodeReservationReleased', data: { promoCodeId: 'p1', at } }]);
    spec
      .given([held, { type: 'PromoCodeReservationReleased', data: { promoCodeId: 'p1', at } }])
      .when({ type: 'ReservePromoCode', data: { promoCodeId: 'p2' }, metadata })
      .thenEvents([{ type: 'PromoCodeReserved', data: { promoCodeId: 'p2', at } }]);
  });
});
