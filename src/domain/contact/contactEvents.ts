import { z } from 'zod';
import { defineEvent } from '../eventDefinition.ts';

export const contactMessageReceived = z.object({
  contactId: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  subject: z.string(),
  message: z.string(),
  receivedAt: z.string(),
});

export const contactMailSent = z.object({
  contactId: z.string(),
  mailId: z.string(),
  sentAt: z.string(),
});

export const contactMessageErased = z.object({ contactId: z.string(), at: z.string() });

export type ContactEvent =
  | { type: 'ContactMessageReceived'; data: z.infer<typeof contactMessageReceived> }
  | { type: 'ContactConfirmationSent'; data: z.infer<typeof contactMailSent> }
  | { type: 'SupportNotifiedOfContact'; data: z.infer<typeof contactMailSent> }
  | { type: 'ContactMessageErased'; data: z.infer<typeof contactMessageErased> };

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

export const contactEventCatalog = {
  ContactMessageReceived: defineEvent({
    schema: contactMessageReceived,
    personal: {
      fields: ['name', 'email', 'phone', 'message'],
      subject: (d: z.infer<typeof contactMessageReceived>) => `contact-${d.contactId}`,
    },
    describe: (d: z.infer<typeof contactMessageReceived>) => `Contact message received: ${d.subject}`,
  }),
  ContactConfirmationSent: defineEvent({
    schema: contactMailSent,
    describe: () => 'Confirmation e-mail sent to the sender',
  }),
  ContactMessageErased: defineEvent({
    schema: contactMessageErased,
    describe: () => "Contact message erased with its sender's account",
  }),
  SupportNotifiedOfContact: defineEvent({
    schema: contactMailSent,
    describe: () => 'Support notified of a contact message',
  }),
};
