import type { Clock } from '../../adapters/clock/clock.ts';
import type { PaymentEventOutbox, PaymentPort } from '../../adapters/payments/paymentPort.ts';
import { handlePaymentEvent, type PurchaseHandlers } from '../../commands/purchases/purchaseHandlers.ts';

const BATCH = 50;
const POLL_MS = 1000;

/**
 * Consumes the sandbox provider's events exactly as Stripe's webhooks are consumed: each event
 * becomes a purchase command (idempotent by the provider's event id), then is marked delivered.
 * Woken after each commit that recorded events; polling is the backstop. A failing event stays
 * undelivered and is handed out again on the next round.
 */
export async function workPaymentEvents(
  outbox: PaymentEventOutbox,
  purchases: PurchaseHandlers,
  payments: Pick<PaymentPort, 'retrievePaymentIntent'>,
  clock: Clock,
): Promise<{ drain(): Promise<void> }> {
  let running: Promise<void> | null = null;
  let again = false;
  const round = async () => {
    do {
      again = false;
      const events = await outbox.pendingEvents(BATCH);
      for (const event of events) {
        await handlePaymentEvent(purchases, event, payments, clock.now());
        await outbox.markDelivered(event.eventId);
      }
      if (events.length === BATCH) again = true;
    } while (again);
  };
  const drain = (): Promise<void> => {
    if (running !== null) {
      again = true;
      return running;
    }
    running = round()
      .catch(() => {
        // Left undelivered: the next wake-up or poll hands the events out again.
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  await outbox.listen(() => {
    void drain();
  });
  setInterval(() => {
    void drain();
  }, POLL_MS).unref();
  void drain();
  return { drain };
}
