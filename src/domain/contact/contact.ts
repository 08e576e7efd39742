import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

export const contactMessageReceived = z.object({
  contactId: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  subject: z.string(),
  message: z.string(),
  /** The account that sent it when signed in: its deletion erases the message too. */
  senderUserId: z.string().nullable().default(null),
  /** Where it was written: the Help dialog of a signed-in student or parent; absent for the public contact form. */
  channel: z.literal('help').optional(),
  /** The student a help message is about (a student profile id), if any. */
  studentId: z.string().nullable().optional(),
  receivedAt: z.string(),
});

export const contactMailSent = z.object({
  contactId: z.string(),
  mailId: z.string(),
  sentAt: z.string(),
});

export const contactMessageErased = z.object({ contactId: z.string(), at: z.string() });

export const contactEvents = {
  ContactMessageReceived: eventType(contactMessageReceived, {
    // Everything the sender typed is theirs, the subject and the message included.
    personal: { fields: ['name', 'email', 'phone', 'subject', 'message'], subject: (d) => `contact-${d.contactId}` },
    describe: () => 'Contact message received',
  }),
  ContactConfirmationSent: eventType(contactMailSent, { describe: () => 'Confirmation e-mail sent to the sender' }),
  SupportNotifiedOfContact: eventType(contactMailSent, { describe: () => 'Support notified of a contact message' }),
  ContactMessageErased: eventType(contactMessageErased, { describe: () => "Contact message erased with its sender's account" }),
};

export type ContactEvent = EventsOf<typeof contactEvents>;

export interface ContactState {
  received: boolean;
  erased: boolean;
  confirmationMailId: string | null;
  supportMailId: string | null;
}

export const initialContactState: ContactState = {
  received: false,
  erased: false,
  confirmationMailId: null,
  supportMailId: null,
};

export function evolveContact(state: ContactState, event: ContactEvent): ContactState {
  switch (event.type) {
    case 'ContactMessageReceived':
      return { ...state, received: true };
    case 'ContactConfirmationSent':
      return { ...state, confirmationMailId: event.data.mailId };
    case 'SupportNotifiedOfContact':
      return { ...state, supportMailId: event.data.mailId };
    case 'ContactMessageErased':
      return { ...state, erased: true };
  }
}

export const contactStreamId = (contactId: string) => `contact-${contactId}`;
