import type { Sql } from '../../db/db.ts';
import {
  type CardResult,
  type CheckoutSession,
  type CreateCheckoutSessionInput,
  PaymentError,
  type SandboxCheckoutPage,
} from '../paymentPort.ts';
import { checkCreate, idempotent, requestOf } from './idempotency.ts';
import type { SandboxIntents } from './intents.ts';
import type { SandboxOutbox } from './outbox.ts';
import { intentRow, newId, type SessionRow, sessionIsOpen, sessionRow, token } from './records.ts';

export interface CheckoutSessionOptions {
  /** The site's origin: hosted checkout pages are `${publicUrl}/sandbox/checkout/{id}`. */
  publicUrl: string;
  /** Open checkout sessions expire after this long (Stripe: 24 h). */
  checkoutTtlSeconds?: number;
}

/**
 * The sandbox's hosted checkout sessions: a session is open until it expires (its own `expiresAt`,
 * 30 minutes to 24 hours ahead, or the TTL), its page at `/sandbox/checkout/{id}` takes a card, and
 * the payment intent it makes at the first attempt follows the card as any other (see
 * `SandboxIntents`); once that intent succeeds the session is complete.
 */
export class SandboxCheckoutSessions {
  constructor(
    private readonly sql: Sql,
    private readonly outbox: SandboxOutbox,
    private readonly intents: SandboxIntents,
    private readonly options: CheckoutSessionOptions,
  ) {}

  async create(input: CreateCheckoutSessionInput): Promise<{ id: string; url: string }> {
    checkCreate(input);
    for (const url of [input.successUrl, input.cancelUrl]) {
      if (!URL.canParse(url)) throw new PaymentError('invalid_request', 'success and cancel URLs must be absolute URLs');
    }
    const nowSeconds = Math.floor(Date.now() / 1000);
    if (
      input.expiresAt !== undefined &&
      (!Number.isSafeInteger(input.expiresAt) || input.expiresAt < nowSeconds + 1_800 - 60 || input.expiresAt > nowSeconds + 86_400)
    ) {
      // As Stripe: 30 minutes to 24 hours ahead (a minute's leeway for the caller's clock).
      throw new PaymentError(
        'invalid_request',
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from checkout session creation.',
      );
    }
    const request = { ...requestOf(input), successUrl: input.successUrl, cancelUrl: input.cancelUrl, expiresAt: input.expiresAt ?? null };
    const id = await idempotent(this.outbox, input.idempotencyKey, 'checkout_session', request, async (tx) => {
      const sessionId = `cs_sbx_${token(20)}`;
      const ttl = this.options.checkoutTtlSeconds ?? 86_400;
      const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt * 1000);
      await tx`
        INSERT INTO sandbox_checkout_sessions (id, amount_cents, currency, description, metadata, success_url, cancel_url, expires_at)
        VALUES (${sessionId}, ${input.amountCents}, ${input.currency}, ${input.description}, ${tx.json(input.metadata)},
                ${input.successUrl}, ${input.cancelUrl}, COALESCE(${expiresAt}::timestamptz, now() + make_interval(secs => ${ttl})))`;
      return sessionId;
    });
    return { id, url: this.url(id) };
  }

  async retrieve(id: string): Promise<CheckoutSession> {
    return this.sessionOf(await sessionRow(this.sql, id));
  }

  async expire(id: string): Promise<CheckoutSession> {
    return this.outbox.begin(async (tx) => {
      const row = await sessionRow(tx, id, true);
      if (row.status !== 'open') return this.sessionOf(row);
      // A payment waiting for its 3-D Secure answer is given up with the session.
      if (row.payment_intent_id) {
        await tx`
          UPDATE sandbox_payment_intents SET status = 'canceled', updated_at = now()
          WHERE id = ${row.payment_intent_id} AND status IN ('requires_payment_method', 'requires_action')`;
      }
      const [expired] = await tx<SessionRow[]>`
        UPDATE sandbox_checkout_sessions SET status = 'expired' WHERE id = ${id} RETURNING *`;
      return this.sessionOf(expired!);
    });
  }

  /**
   * The hosted checkout page's card form: the session's payment intent is made at the first attempt
   * and follows the card like any other (`requires_action` → `completeAuthentication`); once it
   * succeeds the session is complete (`checkout.session.completed`).
   */
  async complete(sessionId: string, cardNumber: string): Promise<CardResult> {
    const intentId = await this.outbox.begin(async (tx) => {
      const session = await sessionRow(tx, sessionId, true);
      if (session.payment_intent_id) return session.payment_intent_id;
      if (!sessionIsOpen(session)) {
        throw new PaymentError('invalid_request', 'This checkout session is no longer open.', { code: 'checkout_session_expired' });
      }
      const id = newId('pi');
      await tx`
        INSERT INTO sandbox_payment_intents (id, client_secret, amount_cents, description, metadata, checkout_session_id)
        VALUES (${id}, ${`${id}_secret_${token(18)}`}, ${session.amount_cents}, ${session.description}, ${tx.json(session.metadata)}, ${session.id})`;
      await tx`UPDATE sandbox_checkout_sessions SET payment_intent_id = ${id} WHERE id = ${session.id}`;
      return id;
    });
    return this.intents.confirmWithCard(intentId, cardNumber);
  }

  /** The hosted page's 3-D Secure answer: the session's payment must be waiting for it. */
  async authenticate(sessionId: string, approve: boolean): Promise<CardResult> {
    const session = await sessionRow(this.sql, sessionId);
    if (!session.payment_intent_id) {
      throw new PaymentError('invalid_request', 'This checkout session has no payment waiting for authentication.', {
        code: 'payment_intent_unexpected_state',
      });
    }
    return this.intents.completeAuthentication(session.payment_intent_id, approve);
  }

  /** What the hosted checkout page shows: the order, its state, and where Pay and Cancel lead. */
  async page(sessionId: string): Promise<SandboxCheckoutPage> {
    const row = await sessionRow(this.sql, sessionId);
    const intent = row.payment_intent_id ? await intentRow(this.sql, row.payment_intent_id) : null;
    return {
      checkoutSession: this.sessionOf(row),
      description: row.description,
      successUrl: row.success_url.replaceAll('{CHECKOUT_SESSION_ID}', encodeURIComponent(row.id)),
      cancelUrl: row.cancel_url,
      requiresAction: intent?.status === 'requires_action',
    };
  }

  url(sessionId: string): string {
    return `${this.options.publicUrl.replace(/\/+$/, '')}/sandbox/checkout/${encodeURIComponent(sessionId)}`;
  }

  /** A session past its expiry reads as `expired` even before anyone expires it. */
  private sessionOf(row: SessionRow): CheckoutSession {
    const status = row.status === 'open' && !sessionIsOpen(row) ? 'expired' : row.status;
    return {
      id: row.id,
      url: status === 'open' ? this.url(row.id) : null,
      status,
      paymentStatus: status === 'complete' ? 'paid' : 'unpaid',
      paymentIntentId: row.payment_intent_id,
      amountCents: row.amount_cents,
      metadata: row.metadata,
    };
  }
}
