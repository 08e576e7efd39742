import type { Sql, TransactionSql } from '../../db/db.ts';
import {
  type CardResult,
  type CreatePaymentIntentInput,
  PaymentError,
  type PaymentIntent,
  type Refund,
  type RefundInput,
  TEST_PAYMENT_METHODS,
} from '../paymentPort.ts';
import { AUTHENTICATION_FAILED, cardOutcome, DECLINED } from './cards.ts';
import { checkCreate, idempotent, requestOf } from './idempotency.ts';
import type { SandboxOutbox } from './outbox.ts';
import { type IntentRow, intentOf, intentRow, newId, type SessionRow, sessionIsOpen, sessionRow, token } from './records.ts';

/**
 * The sandbox's payment intents: created with a client secret, confirmed with a test card (a
 * decline leaves the intent waiting for another card, 3-D Secure waits for `completeAuthentication`),
 * canceled, and refunded in part or whole. Each change records the event a Stripe webhook would
 * report; an intent made by a hosted checkout session completes that session when it is paid.
 */
export class SandboxIntents {
  constructor(
    private readonly sql: Sql,
    private readonly outbox: SandboxOutbox,
  ) {}

  async create(input: CreatePaymentIntentInput): Promise<PaymentIntent> {
    checkCreate(input);
    const id = await idempotent(this.outbox, input.idempotencyKey, 'payment_intent', requestOf(input), async (tx) => {
      const intentId = newId('pi');
      await tx`
        INSERT INTO sandbox_payment_intents (id, client_secret, amount_cents, currency, description, metadata)
        VALUES (${intentId}, ${`${intentId}_secret_${token(18)}`}, ${input.amountCents}, ${input.currency},
                ${input.description}, ${tx.json(input.metadata)})`;
      return intentId;
    });
    return this.retrieve(id);
  }

  async retrieve(id: string): Promise<PaymentIntent> {
    return intentOf(await intentRow(this.sql, id));
  }

  /** Confirms with one of Stripe's test payment methods (`pm_card_visa`, …), as the Stripe adapter does. */
  async confirm(id: string, input: { paymentMethod: string }): Promise<PaymentIntent> {
    const card = TEST_PAYMENT_METHODS[input.paymentMethod];
    if (!card) throw new PaymentError('not_found', `No such PaymentMethod: '${input.paymentMethod}'`, { code: 'resource_missing' });
    const result = await this.confirmWithCard(id, card);
    const intent = await this.retrieve(id);
    if (result.status === 'requires_payment_method') {
      throw new PaymentError('card_declined', result.message ?? DECLINED, {
        code: intent.lastPaymentError?.code ?? null,
        paymentIntentId: id,
      });
    }
    return intent;
  }

  async cancel(id: string): Promise<PaymentIntent> {
    return this.outbox.begin(async (tx) => {
      const row = await intentRow(tx, id, true);
      if (row.status === 'canceled') return intentOf(row);
      if (row.status === 'succeeded') {
        throw new PaymentError('invalid_request', `You cannot cancel this PaymentIntent because it has a status of ${row.status}.`, {
          code: 'payment_intent_unexpected_state',
          paymentIntentId: id,
        });
      }
      const [updated] = await tx<IntentRow[]>`
        UPDATE sandbox_payment_intents SET status = 'canceled', updated_at = now() WHERE id = ${id} RETURNING *`;
      return intentOf(updated!);
    });
  }

  async refund(input: RefundInput): Promise<Refund> {
    if (input.amountCents !== undefined && (!Number.isSafeInteger(input.amountCents) || input.amountCents < 1)) {
      throw new PaymentError('invalid_request', `A refund is a whole number of cents above 0, got ${input.amountCents}`);
    }
    const request = { paymentIntentId: input.paymentIntentId, amountCents: input.amountCents ?? null };
    const id = await idempotent(this.outbox, input.idempotencyKey, 'refund', request, async (tx) => {
      const intent = await intentRow(tx, input.paymentIntentId, true);
      if (intent.status !== 'succeeded') {
        throw new PaymentError('invalid_request', `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
          code: 'charge_not_refundable',
          paymentIntentId: intent.id,
        });
      }
      const left = intent.amount_cents - intent.amount_refunded_cents;
      if (left === 0)
        throw new PaymentError('invalid_request', `${intent.id} has already been refunded.`, { code: 'charge_already_refunded' });
      const amount = input.amountCents ?? left;
      if (amount > left) {
        throw new PaymentError(
          'invalid_request',
          `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
          { code: 'amount_too_large' },
        );
      }
      const refundId = newId('re');
      await tx`INSERT INTO sandbox_refunds (id, payment_intent_id, amount_cents) VALUES (${refundId}, ${intent.id}, ${amount})`;
      await tx`
        UPDATE sandbox_payment_intents SET amount_refunded_cents = amount_refunded_cents + ${amount}, updated_at = now()
        WHERE id = ${intent.id}`;
      await this.outbox.emit(tx, {
        type: 'charge.refunded',
        paymentIntentId: intent.id,
        amountRefundedCents: intent.amount_refunded_cents + amount,
        amountCents: intent.amount_cents,
      });
      return refundId;
    });
    const [row] = await this.sql<{ id: string; payment_intent_id: string; amount_cents: number }[]>`
      SELECT id, payment_intent_id, amount_cents FROM sandbox_refunds WHERE id = ${id}`;
    return { id: row!.id, paymentIntentId: row!.payment_intent_id, amountCents: row!.amount_cents, status: 'succeeded' };
  }

  /**
   * The sandbox card form (`POST /api/sandbox/payments/{id}/confirm`). A decline leaves the intent
   * waiting for another card; a paid intent answers `succeeded` again (two confirms at once: one
   * pays, the other sees it paid). Refused for a canceled intent.
   */
  async confirmWithCard(paymentIntentId: string, cardNumber: string): Promise<CardResult> {
    const card = cardOutcome(cardNumber);
    const { outcome, last4 } = card;
    return this.outbox.begin(async (tx) => {
      const row = await intentRow(tx, paymentIntentId, true);
      if (row.status === 'succeeded') return { status: 'succeeded' as const };
      await assertSessionOpen(tx, row);
      if (row.status === 'canceled' || row.status === 'processing') {
        throw new PaymentError('invalid_request', `You cannot confirm this PaymentIntent because it has a status of ${row.status}.`, {
          code: 'payment_intent_unexpected_state',
          paymentIntentId,
        });
      }
      const taken = last4 && card.brand ? { last4, brand: card.brand } : null;
      if (outcome.kind === 'succeed') return this.succeed(tx, row, taken);
      if (outcome.kind === 'authenticate') {
        await tx`
          UPDATE sandbox_payment_intents
             SET status = 'requires_action', card_last4 = ${last4}, card_brand = ${card.brand}, updated_at = now()
           WHERE id = ${row.id}`;
        return { status: 'requires_action' as const };
      }
      return this.fail(tx, row, outcome.code, outcome.message);
    });
  }

  /** The customer's answer to the 3-D Secure challenge of an intent in `requires_action`. */
  async completeAuthentication(paymentIntentId: string, approve: boolean): Promise<CardResult> {
    return this.outbox.begin(async (tx) => {
      const row = await intentRow(tx, paymentIntentId, true);
      if (row.status === 'succeeded') return { status: 'succeeded' as const };
      await assertSessionOpen(tx, row);
      if (row.status !== 'requires_action') {
        throw new PaymentError('invalid_request', `This PaymentIntent is not waiting for authentication (status ${row.status}).`, {
          code: 'payment_intent_unexpected_state',
          paymentIntentId,
        });
      }
      if (approve) return this.succeed(tx, row, null);
      return this.fail(tx, row, 'payment_intent_authentication_failure', AUTHENTICATION_FAILED);
    });
  }

  /** `card`: the card just taken; null keeps the one the 3-D Secure challenge was for. */
  private async succeed(tx: TransactionSql, row: IntentRow, card: { last4: string; brand: string } | null): Promise<CardResult> {
    const [updated] = await tx<IntentRow[]>`
      UPDATE sandbox_payment_intents
         SET status = 'succeeded', last_error_code = NULL, last_error_message = NULL,
             card_last4 = COALESCE(${card?.last4 ?? null}, card_last4),
             card_brand = COALESCE(${card?.brand ?? null}, card_brand), updated_at = now()
       WHERE id = ${row.id} RETURNING *`;
    const intent = intentOf(updated!);
    await this.outbox.emit(tx, { type: 'payment_intent.succeeded', paymentIntent: intent });
    if (row.checkout_session_id) {
      // Paying the intent of a hosted checkout session completes the session, in the same transaction.
      const [session] = await tx<SessionRow[]>`
        UPDATE sandbox_checkout_sessions SET status = 'complete' WHERE id = ${row.checkout_session_id} RETURNING *`;
      await this.outbox.emit(tx, {
        type: 'checkout.session.completed',
        session: {
          id: session!.id,
          url: null,
          status: 'complete',
          paymentStatus: 'paid',
          paymentIntentId: row.id,
          amountCents: session!.amount_cents,
          metadata: session!.metadata,
        },
      });
    }
    return { status: 'succeeded' };
  }

  private async fail(tx: TransactionSql, row: IntentRow, code: string, message: string): Promise<CardResult> {
    const [updated] = await tx<IntentRow[]>`
      UPDATE sandbox_payment_intents
         SET status = 'requires_payment_method', last_error_code = ${code}, last_error_message = ${message}, updated_at = now()
       WHERE id = ${row.id} RETURNING *`;
    await this.outbox.emit(tx, {
      type: 'payment_intent.payment_failed',
      paymentIntent: intentOf(updated!),
      failureMessage: message,
      failureCode: code,
    });
    return { status: 'requires_payment_method', message };
  }
}

/** The intent of a hosted checkout session is paid only while the session is open (not expired). */
async function assertSessionOpen(tx: TransactionSql, row: IntentRow): Promise<void> {
  if (!row.checkout_session_id) return;
  const session = await sessionRow(tx, row.checkout_session_id, true);
  if (!sessionIsOpen(session)) {
    throw new PaymentError('invalid_request', 'This checkout session is no longer open.', { code: 'checkout_session_expired' });
  }
}
