import { createHash } from 'node:crypto';
import type { TransactionSql } from '../../db/db.ts';
import { assertAmount, assertMetadata, type CreatePaymentIntentInput, PaymentError } from '../paymentPort.ts';
import type { SandboxOutbox } from './outbox.ts';

/**
 * Idempotency keys as Stripe keeps them: a create runs once per key; the same request again answers
 * the first object, another request with the key is refused (`idempotency_error`).
 */

const hashOf = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
const sortedRecord = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : 1)));

/** Runs `create` once per idempotency key: the same request answers the first object, another is refused. */
export async function idempotent(
  outbox: SandboxOutbox,
  key: string,
  operation: string,
  request: unknown,
  create: (tx: TransactionSql) => Promise<string>,
): Promise<string> {
  const requestHash = hashOf(request);
  const result = await outbox.begin(async (tx) => {
    const claimed = await tx`
      INSERT INTO sandbox_payment_idempotency (idempotency_key, operation, request_hash) VALUES (${key}, ${operation}, ${requestHash})
      ON CONFLICT DO NOTHING RETURNING idempotency_key`;
    if (claimed.length === 0) {
      const [earlier] = await tx<{ operation: string; request_hash: string; object_id: string | null }[]>`
        SELECT operation, request_hash, object_id FROM sandbox_payment_idempotency WHERE idempotency_key = ${key}`;
      if (earlier?.operation !== operation || earlier.request_hash !== requestHash || !earlier.object_id) {
        throw new PaymentError(
          'invalid_request',
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          { code: 'idempotency_error' },
        );
      }
      return earlier.object_id;
    }
    const id = await create(tx);
    await tx`UPDATE sandbox_payment_idempotency SET object_id = ${id} WHERE idempotency_key = ${key}`;
    return id;
  });
  return result;
}

/** The checks every create (payment intent or checkout session) makes before its key is claimed. */
export function checkCreate(input: CreatePaymentIntentInput): void {
  assertAmount(input.amountCents);
  assertMetadata(input.metadata);
  if (input.currency !== 'cad') throw new PaymentError('invalid_request', `Unsupported currency: ${String(input.currency)}`);
  if (!input.idempotencyKey || input.idempotencyKey.length > 255) {
    throw new PaymentError('invalid_request', 'An idempotency key of 1 to 255 characters is required');
  }
}

/** What an idempotency key is bound to (the sandbox keeps no e-mail address, not even hashed). */
export const requestOf = (input: CreatePaymentIntentInput) => ({
  amountCents: input.amountCents,
  currency: input.currency,
  description: input.description,
  metadata: sortedRecord(input.metadata),
});
