import { courseHandlers } from '../../commands/courses/courseHandlers.ts';
import { promoCodeHandlers } from '../../commands/promoCodes/promoCodeHandlers.ts';
import { purchaseHandlers } from '../../commands/purchases/purchaseHandlers.ts';
import type { SagaFeature } from '../kit/sagaFeature.ts';
import { abandonedPurchaseSweepQueue, scheduleAbandonSweeps } from './abandonedPurchases.ts';
import { MONEY_NOTICE_QUEUE, moneyNoticeReactor, workMoneyNotices } from './moneyNotices.ts';
import {
  ORPHANED_ENROLLMENT_CLAIM_QUEUE,
  orphanedEnrollmentClaimReactor,
  workOrphanedEnrollmentClaims,
} from './orphanedEnrollmentClaims.ts';
import { workPaymentEvents } from './paymentEventsWorker.ts';
import { purchaseFulfilmentSaga } from './purchaseFulfilmentSaga.ts';

/**
 * Purchases: provider events (Stripe's through the webhook route, the sandbox's from its outbox)
 * complete or fail purchases; the fulfilment workflow redeems the promo, creates the course and
 * confirms the slot, or gives the promo use and the slot back.
 */
export const purchaseSagas: SagaFeature = {
  name: 'purchases',
  // Receipts, refund notices and tutors' payout notices: one job per event, each mail once per reader.
  // A checkout's slot whose purchase never started (the request died in between) is given back after the payment window.
  queues: [
    { name: MONEY_NOTICE_QUEUE, retryLimit: 8, retryDelaySeconds: 5 },
    { name: ORPHANED_ENROLLMENT_CLAIM_QUEUE, retryLimit: 10, retryDelaySeconds: 60 },
    // Checkouts left unpaid past the payment window, swept every minute.
    abandonedPurchaseSweepQueue,
  ],
  reactors: [moneyNoticeReactor, orphanedEnrollmentClaimReactor],
  workflows: (ports) => [
    purchaseFulfilmentSaga({
      purchases: purchaseHandlers(ports.store),
      promoCodes: promoCodeHandlers(ports.store),
      courses: courseHandlers(ports.store),
      students: ports.accountHandlers,
      clock: ports.clock,
    }),
  ],
  work: async (ports) => {
    await workMoneyNotices(ports.jobs, { sql: ports.sql, store: ports.store, mailer: ports.mailer });
    const purchases = purchaseHandlers(ports.store);
    if (ports.payments.outbox) await workPaymentEvents(ports.payments.outbox, purchases, ports.payments, ports.clock);
    await scheduleAbandonSweeps(ports.jobs, { sql: ports.sql, purchases, payments: ports.payments }, ports.clock);
    await workOrphanedEnrollmentClaims(ports.jobs, { purchases, students: ports.accountHandlers, clock: ports.clock });
  },
};
