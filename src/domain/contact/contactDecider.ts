import { type Decider, DomainError } from '../decider.ts';
import { type ContactEvent, type ContactState, evolveContact, initialContactState } from './contactEvents.ts';
import type { ContactMessageInput } from './contactMessage.ts';

export type ContactCommand =
  | { type: 'ReceiveContactMessage'; contactId: string; message: ContactMessageInput; now: Date }
  | { type: 'RecordContactMailSent'; contactId: string; kind: 'confirmation' | 'support'; mailId: string; now: Date }
  | { type: 'EraseContactMessage'; contactId: string; now: Date };

export function decideContact(command: ContactCommand, state: ContactState): ContactEvent[] {
  switch (command.type) {
    case 'ReceiveContactMessage': {
      if (state.received) throw new DomainError('This message has already been received', 409);
      const m = command.message;
      return [
        {
          type: 'ContactMessageReceived',
          data: {
            contactId: command.contactId,
            name: m.name.trim(),
            email: m.email.trim().toLowerCase(),
            phone: m.phone?.trim() ? m.phone.trim() : null,
            subject: m.subject.trim(),
            message: m.message.trim(),
            receivedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'EraseContactMessage':
      if (!state.received || state.erased) return [];
      return [{ type: 'ContactMessageErased', data: { contactId: command.contactId, at: command.now.toISOString() } }];
    case 'RecordContactMailSent': {
      if (!state.received) throw new DomainError('Contact message not found', 404);
      const data = { contactId: command.contactId, mailId: command.mailId, sentAt: command.now.toISOString() };
      // A job retried after its mail went out reports again: recording it twice would be noise.
      if (command.kind === 'confirmation') {
        return state.confirmationMailId ? [] : [{ type: 'ContactConfirmationSent', data }];
      }
      return state.supportMailId ? [] : [{ type: 'SupportNotifiedOfContact', data }];
    }
  }
}

export const contactDecider: Decider<ContactCommand, ContactEvent, ContactState> = {
  initialState: initialContactState,
  evolve: evolveContact,
  decide: decideContact,
};
