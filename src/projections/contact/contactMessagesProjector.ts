import { defineProjection } from '../kit/defineProjection.ts';
import { deleteRows, insertRows, updateRows } from '../kit/writes.ts';
import { contactMessages } from './tables.ts';

/** Contact messages for the support inbox, with whether each confirmation and notification went out. */
export const contactMessagesProjector = defineProjection({
  name: 'contact_messages',
  handles: ['ContactMessageReceived', 'ContactConfirmationSent', 'SupportNotifiedOfContact', 'ContactMessageErased'],
  tables: [contactMessages],
  async apply(tx, events) {
    // A message is received before its mails go out and erased last: insert, then update, then delete.
    const received = events.flatMap((e) =>
      e.type === 'ContactMessageReceived'
        ? [
            {
              id: e.data.contactId,
              name: e.data.name,
              email: e.data.email,
              phone: e.data.phone,
              subject: e.data.subject,
              message: e.data.message,
              sender_user_id: e.data.senderUserId,
              received_at: e.data.receivedAt,
              confirmation_sent_at: null,
              support_notified_at: null,
            },
          ]
        : [],
    );
    await insertRows(tx, contactMessages, received, 'nothing');
    const confirmed = events.flatMap((e) =>
      e.type === 'ContactConfirmationSent' ? [{ id: e.data.contactId, confirmation_sent_at: e.data.sentAt }] : [],
    );
    await updateRows(tx, contactMessages, ['confirmation_sent_at'], confirmed);
    const notified = events.flatMap((e) =>
      e.type === 'SupportNotifiedOfContact' ? [{ id: e.data.contactId, support_notified_at: e.data.sentAt }] : [],
    );
    await updateRows(tx, contactMessages, ['support_notified_at'], notified);
    const erased = events.flatMap((e) => (e.type === 'ContactMessageErased' ? [e.data.contactId] : []));
    await deleteRows(tx, contactMessages, 'id', erased);
  },
});
