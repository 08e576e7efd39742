import type { Sql, TransactionSql } from '../../db/db.ts';
import type { PaymentEvent, PaymentEventOutbox } from '../paymentPort.ts';
import { newId } from './records.ts';

/**
 * The sandbox's event outbox: every change a Stripe webhook would report is written to
 * `sandbox_payment_events` in the same transaction as the change, with an `evt_…` id. A consumer
 * (the payment saga) reads `pendingEvents()` in order, handles each by its id exactly as it handles
 * a webhook, and calls `markDelivered(id)`; an event not marked is handed out again (at least once,
 * like webhooks). After each commit a NOTIFY on the channel wakes `listen()`ers; polling stays the
 * backstop. Every sandbox transaction that changes payments runs through `begin` so its events are
 * announced.
 */

export const SANDBOX_EVENTS_CHANNEL = 'sandbox_payment_events';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export class SandboxOutbox implements PaymentEventOutbox {
  /** Events recorded by each open transaction, announced after it commits. */
  private readonly recorded = new WeakMap<TransactionSql, string[]>();

  constructor(private readonly sql: Sql) {}

  /** A transaction whose recorded events are announced (NOTIFY, outside the transaction) once it commits. */
  async begin<T>(run: (tx: TransactionSql) => Promise<T>): Promise<T> {
    const events: string[] = [];
    const result = await this.sql.begin(async (tx) => {
      this.recorded.set(tx, events);
      return run(tx);
    });
    const last = events.at(-1);
    if (last) await this.sql.notify(SANDBOX_EVENTS_CHANNEL, last).catch(() => {});
    return result as T;
  }

  /** Records an event in the transaction of the change it reports (announced by `begin` after the commit). */
  async emit(tx: TransactionSql, event: DistributiveOmit<PaymentEvent, 'eventId' | 'created'>): Promise<void> {
    const full = { ...event, eventId: newId('evt'), created: Math.floor(Date.now() / 1000) } as PaymentEvent;
    await tx`INSERT INTO sandbox_payment_events (id, type, payload) VALUES (${full.eventId}, ${full.type}, ${tx.json(full as never)})`;
    this.recorded.get(tx)?.push(full.eventId);
  }

  /** Events not yet marked delivered, oldest first. */
  async pendingEvents(limit = 100): Promise<PaymentEvent[]> {
    const rows = await this.sql<{ payload: PaymentEvent }[]>`
      SELECT payload FROM sandbox_payment_events WHERE delivered_at IS NULL ORDER BY seq LIMIT ${limit}`;
    return rows.map((r) => r.payload);
  }

  /** The consumer handled the event; marking twice is fine. */
  async markDelivered(eventId: string): Promise<void> {
    await this.sql`UPDATE sandbox_payment_events SET delivered_at = now() WHERE id = ${eventId} AND delivered_at IS NULL`;
  }

  /** Wakes `onEvent` (with the event id) after each commit that recorded events, in any process. */
  async listen(onEvent: (eventId: string) => void): Promise<{ unlisten(): Promise<void> }> {
    const { unlisten } = await this.sql.listen(SANDBOX_EVENTS_CHANNEL, onEvent);
    return { unlisten };
  }
}
