import type { z } from 'zod';
import type { contactMailSent, contactMessageReceived } from '../../domain/contact/contactEvents.ts';
import type { Projector } from '../runner/projector.ts';

/** Contact messages for the support inbox, with whether each confirmation and notification went out. */
export const contactMessagesProjector: Projector = {
  name: 'contact_messages',
  handles: ['ContactMessageReceived', 'ContactConfirmationSent', 'SupportNotifiedOfContact', 'ContactMessageErased'],
  tables: ['contact_messages'],
  async setup(tx) {
    await tx.unsafe(`
      CREATE TABLE IF NOT EXISTS contact_messages (
        id                   uuid PRIMARY KEY,
        name                 text NOT NULL,
        email                text NOT NULL,
        phone                text,
        subject              text NOT NULL,
        message              text NOT NULL,
        received_at          timestamptz NOT NULL,
        confirmation_sent_at timestamptz,
        support_notified_at  timestamptz
      );`);
  },
  async apply(tx, events) {
    const received = events.filter((e) => e.type === 'ContactMessageReceived').map((e) => e.data as z.infer<typeof contactMessageReceived>);
    if (received.length > 0) {
      await tx`
        INSERT INTO contact_messages (id, name, email, phone, subject, message, received_at)
        SELECT "contactId", name, email, phone, subject, message, "receivedAt"
        FROM jsonb_to_recordset(${tx.json(received as never)}) AS x(
          "contactId" uuid, name text, email text, phone text, subject text, message text, "receivedAt" timestamptz)
        ON CONFLICT (id) DO NOTHING`;
    }
    const erased = events.filter((e) => e.type === 'ContactMessageErased').map((e) => (e.data as { contactId: string }).contactId);
    if (erased.length > 0) await tx`DELETE FROM contact_messages WHERE id = ANY(${erased}::uuid[])`;
    // Sent-mail events are rare and follow their message; one statement per kind and batch.
    for (const [type, column] of [
      ['ContactConfirmationSent', 'confirmation_sent_at'],
      ['SupportNotifiedOfContact', 'support_notified_at'],
    ] as const) {
      const sent = events.filter((e) => e.type === type).map((e) => e.data as z.infer<typeof contactMailSent>);
      if (sent.length === 0) continue;
      await tx`
        UPDATE contact_messages m SET ${tx(column)} = x."sentAt"
        FROM jsonb_to_recordset(${tx.json(sent as never)}) AS x("contactId" uuid, "sentAt" timestamptz)
        WHERE m.id = x."contactId"`;
    }
  },
};
