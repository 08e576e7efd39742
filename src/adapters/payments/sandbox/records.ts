import { randomBytes } from 'node:crypto';
import type { Sql, TransactionSql } from '../../db/db.ts';
import { type CheckoutSession, PaymentError, type PaymentIntent, type PaymentIntentStatus } from '../paymentPort.ts';

/** The sandbox's rows (migration 0011) as read by id, their ids, and a payment intent as the port shows it. */

export interface IntentRow {
  id: string;
  client_secret: string;
  amount_cents: number;
  description: string | null;
  metadata: Record<string, string>;
  status: PaymentIntentStatus;
  last_error_code: string | null;
  last_error_message: string | null;
  amount_refunded_cents: number;
  checkout_session_id: string | null;
  card_last4: string | null;
  card_brand: string | null;
  created_at: Date;
}

export interface SessionRow {
  id: string;
  amount_cents: number;
  description: string;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  status: CheckoutSession['status'];
  payment_intent_id: string | null;
  expires_at: Date;
}

export const token = (bytes = 12) => randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x');
export const newId = (prefix: string) => `${prefix}_sbx_${token()}`;
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

export function intentOf(row: IntentRow): PaymentIntent {
  return {
    id: row.id,
    clientSecret: row.client_secret,
    status: row.status,
    amountCents: row.amount_cents,
    currency: 'cad',
    description: row.description,
    metadata: row.metadata,
    lastPaymentError: row.last_error_message ? { code: row.last_error_code, message: row.last_error_message } : null,
    created: seconds(row.created_at),
    card: row.status === 'succeeded' && row.card_last4 ? { brand: row.card_brand ?? 'unknown', last4: row.card_last4 } : null,
  };
}

export async function intentRow(sql: Sql | TransactionSql, id: string, forUpdate = false): Promise<IntentRow> {
  const rows = forUpdate
    ? await sql<IntentRow[]>`SELECT * FROM sandbox_payment_intents WHERE id = ${id} FOR UPDATE`
    : await sql<IntentRow[]>`SELECT * FROM sandbox_payment_intents WHERE id = ${id}`;
  if (!rows[0]) throw new PaymentError('not_found', `No such payment_intent: '${id}'`, { code: 'resource_missing' });
  return rows[0];
}

export async function sessionRow(sql: Sql | TransactionSql, id: string, forUpdate = false): Promise<SessionRow> {
  const rows = forUpdate
    ? await sql<SessionRow[]>`SELECT * FROM sandbox_checkout_sessions WHERE id = ${id} FOR UPDATE`
    : await sql<SessionRow[]>`SELECT * FROM sandbox_checkout_sessions WHERE id = ${id}`;
  if (!rows[0]) throw new PaymentError('not_found', `No such checkout.session: '${id}'`, { code: 'resource_missing' });
  return rows[0];
}

/** An open session is paid or completed only before it expires (the row says `open` until someone expires it). */
export const sessionIsOpen = (row: SessionRow) => row.status === 'open' && row.expires_at.getTime() > Date.now();
