import { createHmac, timingSafeEqual } from 'node:crypto';
import { PaymentError, type PaymentEvent } from '../paymentPort.ts';

/**
 * The sandbox's events as Stripe-style signed webhooks: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret,
 * "<t>.<body>")>`, checked in constant time and within a tolerance, so the webhook route can be
 * exercised with the sandbox as with Stripe.
 */

const EVENT_TYPES: ReadonlySet<string> = new Set([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'checkout.session.completed',
  'charge.refunded',
  'other',
]);

/** An event as a signed webhook delivery (raw body and `Stripe-Signature`-style header). */
export function signDelivery(secret: string, event: PaymentEvent, timestamp: number): { body: string; signature: string } {
  const body = JSON.stringify(event);
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  return { body, signature: `t=${timestamp},v1=${signature}` };
}

/** The event of a signed delivery; a bad or stale signature, or a body that is no payment event, is refused. */
export function verifyDelivery(
  secret: string,
  toleranceSeconds: number,
  rawBody: Buffer | string,
  signatureHeader: string | undefined,
): PaymentEvent {
  const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  if (!signatureHeader) throw new PaymentError('invalid_signature', 'The webhook has no signature header');
  const parts = signatureHeader.split(',').map((p) => p.split('=') as [string, string?]);
  const timestamp = Number(parts.find(([k]) => k === 't')?.[1]);
  const signatures = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => Buffer.from(v!, 'hex'));
  if (!Number.isInteger(timestamp) || signatures.length === 0) {
    throw new PaymentError('invalid_signature', 'Unable to extract timestamp and signatures from header');
  }
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest();
  if (!signatures.some((s) => s.length === expected.length && timingSafeEqual(s, expected))) {
    throw new PaymentError('invalid_signature', 'No signatures found matching the expected signature for payload');
  }
  if (Math.abs(Math.floor(Date.now() / 1000) - timestamp) > toleranceSeconds) {
    throw new PaymentError('invalid_signature', 'Timestamp outside the tolerance zone');
  }
  const event = JSON.parse(body) as Partial<PaymentEvent> | null;
  if (typeof event?.eventId !== 'string' || !EVENT_TYPES.has(String(event.type))) {
    throw new PaymentError('invalid_request', 'The webhook body is not a payment event');
  }
  return event as PaymentEvent;
}
