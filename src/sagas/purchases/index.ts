import { courseHandlers } from '../../commands/courses/courseHandlers.ts';
import { promoCodeHandlers } from '../../commands/promoCodes/promoCodeHandlers.ts';
import { purchaseHandlers } from '../../commands/purchases/purchaseHandlers.ts';
import type { SagaFeature } from '../kit/sagaFeature.ts';
import { scheduleAbandonSweeps } from './abandonedPurchases.ts';
import { workPaymentEvents } from './paymentEventsWorker.ts';
import { purchaseFulfilmentSaga } from './purchaseFulfilmentSaga.ts';

/**
 * Purchases: provider events (Stripe's through the webhook route, the sandbox's from its outbox)
 * complete or fail purchases; the fulfilment workflow redeems the promo, creates the course and
 * confirms the slot, or gives the promo use and the slot back.
 */
export const purchaseSagas: SagaFeature = {
  name: 'purchases',
  queues: [],
  workflows: (ports) => [
    purchaseFulfilmentSaga({
      purchases: purchaseHandlers(ports.store),
      promoCodes: promoCodeHandlers(ports.store),
      courses: courseHandlers(ports.store),
      students: ports.accountHandlers,
    }),
  ],
  work: async (ports) => {
    const purchases = purchaseHandlers(ports.store);
    if (ports.payments.outbox) await workPaymentEvents(ports.payments.outbox, purchases, ports.payments);
    scheduleAbandonSweeps({ sql: ports.sql, purchases, payments: ports.payments });
  },
};
