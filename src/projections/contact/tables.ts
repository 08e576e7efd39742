import { type RowOf, table, text, timestamptz, uuid } from '../kit/table.ts';

/** Contact messages for the support inbox, with whether each confirmation and notification went out. */
export const contactMessages = table(
  'contact_messages',
  {
    id: uuid().primaryKey(),
    name: text(),
    email: text(),
    phone: text().nullable(),
    subject: text(),
    message: text(),
    /** The account that sent it while signed in (null: signed out, or sent before this was recorded). */
    sender_user_id: text().nullable(),
    received_at: timestamptz(),
    confirmation_sent_at: timestamptz().nullable(),
    support_notified_at: timestamptz().nullable(),
  },
  {
    // Deleting an account looks up its messages by sender and by address.
    indexes: [
      { name: 'contact_messages_sender', on: ['sender_user_id'] },
      { name: 'contact_messages_email', on: ['lower(email)'] },
    ],
  },
);
export type ContactMessageRow = RowOf<typeof contactMessages>;
