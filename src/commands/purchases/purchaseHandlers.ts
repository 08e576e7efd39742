import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import {
  type CheckoutSession,
  type PaymentCard,
  PaymentError,
  type PaymentEvent,
  type PaymentPort,
} from '../../adapters/payments/paymentPort.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import type { CatalogueFacts } from '../../domain/purchases/checkoutCatalogue.ts';
import type { PurchaseStartedData } from '../../domain/purchases/purchase.ts';
import { purchaseStreamId } from '../../domain/purchases/purchase.ts';
import { purchaseDecider, type RepurchaseFacts } from '../../domain/purchases/purchaseDecider.ts';
import { type CommandContext, commandContext, deterministicUuid } from '../kit/commandContext.ts';
import { commandHandler } from '../kit/handleCommand.ts';

/** The command handlers of the purchases feature (stream `purchase-<id>`). */
export function purchaseHandlers(store: EventStore) {
  return { purchases: commandHandler(store, purchaseDecider, purchaseStreamId) };
}
export type PurchaseHandlers = ReturnType<typeof purchaseHandlers>;

/** A checkout's purchase id derives from the request's command id: a retried request (same Idempotency-Key) is the same purchase. */
export const purchaseIdFor = (commandId: string) => deterministicUuid(`purchase/${commandId}`);

/** The provider's idempotency key for the purchase's payment intent. */
export const paymentIdempotencyKey = (purchaseId: string) => `purchase-${purchaseId}`;

/** A first purchase: the decider prices it from the catalogue's streams as read by the caller (`catalogueReader`). */
export const startPurchase = (
  handlers: PurchaseHandlers,
  data: { terms: Omit<PurchaseStartedData, 'at'>; catalogue: CatalogueFacts },
  ctx: CommandContext,
) => handlers.purchases.handle(data.terms.purchaseId, { type: 'StartPurchase', data }, ctx, { expectNewStream: true });

/** A repurchase for an existing course: the decider checks the course's ledger, its subject's catalogue and the student's grade, read by the caller. */
export const startRepurchase = (
  handlers: PurchaseHandlers,
  data: { terms: Omit<PurchaseStartedData, 'at'> } & RepurchaseFacts,
  ctx: CommandContext,
) => handlers.purchases.handle(data.terms.purchaseId, { type: 'StartRepurchase', data }, ctx);

/**
 * The payment succeeded (or nothing was owed: `free`); only the first report completes it. A
 * repurchase paid on a hosted checkout page names its `checkoutSessionId`.
 */
export const completePurchase = (
  handlers: PurchaseHandlers,
  data: { purchaseId: string; paymentIntentId: string; checkoutSessionId?: string | null; card?: PaymentCard | null },
  ctx: CommandContext,
) => handlers.purchases.handle(data.purchaseId, { type: 'CompletePurchase', data }, ctx);

/**
 * The card that paid an intent, for the receipt: the one already in hand, else the provider's
 * answer (Stripe's webhooks carry the charge as an id only). Only the receipt needs it, so a
 * provider that cannot answer now leaves it out rather than hold up the completion.
 */
export async function paidCard(
  payments: Pick<PaymentPort, 'retrievePaymentIntent'>,
  paymentIntentId: string,
  known: PaymentCard | null = null,
): Promise<PaymentCard | null> {
  if (known) return known;
  try {
    return (await payments.retrievePaymentIntent(paymentIntentId)).card;
  } catch (error) {
    if (error instanceof PaymentError) return null;
    throw error;
  }
}

/** The metadata a repurchase's checkout session (and the intent paying it) carries: its intent events are not what completes it. */
export const REPURCHASE_METADATA_KIND = 'repurchase';

export const failPurchase = (
  handlers: PurchaseHandlers,
  data: { purchaseId: string; reason: string; message: string },
  ctx: CommandContext,
) => handlers.purchases.handle(data.purchaseId, { type: 'FailPurchase', data }, ctx);

export const abandonPurchase = (handlers: PurchaseHandlers, data: { purchaseId: string }, ctx: CommandContext) =>
  handlers.purchases.handle(data.purchaseId, { type: 'AbandonPurchase', data }, ctx);

/**
 * A provider event (a Stripe webhook, or the sandbox's outbox) as a purchase command. The command
 * id derives from the provider's event id, so a repeated delivery appends nothing; the decider
 * makes the completion exactly-once whichever of the event and confirm-payment comes first.
 * Events about no purchase of ours (no `purchaseId` in the intent's metadata, or an unknown one)
 * are acknowledged and ignored.
 */
export async function handlePaymentEvent(
  handlers: PurchaseHandlers,
  event: PaymentEvent,
  payments: Pick<PaymentPort, 'retrievePaymentIntent'>,
  now: Date,
): Promise<'handled' | 'ignored'> {
  const ctx = commandContext({ commandId: deterministicUuid(`payment-event/${event.eventId}`), actorRole: 'system', now });
  if (event.type === 'checkout.session.completed') return handleCheckoutCompleted(handlers, event.session, payments, ctx);
  if (event.type === 'charge.refunded') return handleChargeRefunded(handlers, event, payments, ctx);
  if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.payment_failed') return 'ignored';
  const purchaseId = event.paymentIntent.metadata.purchaseId;
  if (!purchaseId) return 'ignored';
  // The intent paying a hosted checkout session: a decline there lets the customer try another
  // card, and the session's own event (checkout.session.completed) completes the repurchase.
  if (event.paymentIntent.metadata.kind === REPURCHASE_METADATA_KIND) return 'ignored';
  const intent = event.paymentIntent;
  const card = event.type === 'payment_intent.succeeded' ? await paidCard(payments, intent.id, intent.card) : null;
  return handledUnless(['not_found'], () =>
    event.type === 'payment_intent.succeeded'
      ? completePurchase(handlers, { purchaseId, paymentIntentId: intent.id, card }, ctx)
      : failPurchase(handlers, { purchaseId, reason: event.failureCode ?? 'payment_failed', message: event.failureMessage }, ctx),
  );
}

/**
 * Runs a provider event's command: 'handled', or 'ignored' when the command is refused as one of
 * `kinds` (an event about no purchase of ours is acknowledged, so a stray event never blocks the
 * outbox behind it nor makes Stripe retry forever).
 */
async function handledUnless(kinds: readonly DomainError['kind'][], run: () => Promise<unknown>): Promise<'handled' | 'ignored'> {
  try {
    await run();
    return 'handled';
  } catch (error) {
    if (error instanceof DomainError && kinds.includes(error.kind)) return 'ignored';
    throw error;
  }
}

/**
 * A hosted checkout was paid: the repurchase it pays completes (exactly once, whichever of the
 * webhook and `GET /api/repurchase/verify/{sessionId}` comes first). An unpaid completion (a
 * delayed payment method) waits for the paid one; sessions about no purchase of ours are ignored.
 */
async function handleCheckoutCompleted(
  handlers: PurchaseHandlers,
  session: CheckoutSession,
  payments: Pick<PaymentPort, 'retrievePaymentIntent'>,
  ctx: CommandContext,
) {
  const purchaseId = session.metadata.purchaseId;
  if (!purchaseId || session.paymentStatus !== 'paid' || !session.paymentIntentId) return 'ignored' as const;
  const paymentIntentId = session.paymentIntentId;
  const card = await paidCard(payments, paymentIntentId);
  // Unknown purchase, or a session that is not the one the purchase is paid on: not ours to complete.
  return handledUnless(['not_found', 'conflict'], () =>
    completePurchase(handlers, { purchaseId, paymentIntentId, checkoutSessionId: session.id, card }, ctx),
  );
}

/**
 * The provider refunded on a payment: the purchase it paid notes it, and what Topmark's own refunds
 * do not explain is recorded and raised as an alert. The refund names the payment, not the
 * purchase: the payment's own metadata says which purchase it paid.
 */
async function handleChargeRefunded(
  handlers: PurchaseHandlers,
  event: Extract<PaymentEvent, { type: 'charge.refunded' }>,
  payments: Pick<PaymentPort, 'retrievePaymentIntent'>,
  ctx: CommandContext,
): Promise<'handled' | 'ignored'> {
  let purchaseId: string | undefined;
  try {
    purchaseId = (await payments.retrievePaymentIntent(event.paymentIntentId)).metadata.purchaseId;
  } catch (error) {
    if (error instanceof PaymentError && error.reason === 'not_found') return 'ignored';
    throw error;
  }
  if (!purchaseId) return 'ignored';
  const { paymentIntentId, amountRefundedCents, amountCents } = event;
  return handledUnless(['not_found'], () =>
    handlers.purchases.handle(
      purchaseId,
      { type: 'NoteProviderRefund', data: { purchaseId, paymentIntentId, amountRefundedCents, amountCents } },
      ctx,
    ),
  );
}
