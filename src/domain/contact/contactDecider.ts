import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import { type ContactEvent, type ContactState, evolveContact, initialContactState } from './contact.ts';
import { type ContactMessageInput, HELP_FIELDS_REQUIRED } from './contactMessage.ts';

/** A help message as the HTTP layer resolved it: the sender's name and address come from their account. */
export interface HelpMessage {
  name: string;
  email: string;
  subject: string;
  message: string;
  studentId: string | null;
}

export type ContactCommand =
  | Command<'ReceiveContactMessage', { contactId: string; message: ContactMessageInput; senderUserId: string | null }>
  | Command<'ReceiveHelpMessage', { contactId: string; help: HelpMessage; senderUserId: string }>
  | Command<'RecordContactMailSent', { contactId: string; kind: 'confirmation' | 'support'; mailId: string }>
  | Command<'EraseContactMessage', { contactId: string }>;

export const decideContact = decideWith<ContactCommand, ContactEvent, ContactState>({
  ReceiveContactMessage({ data, metadata: { now } }, state) {
    if (state.received) throw new DomainError('This message has already been received', 'conflict');
    const m = data.message;
    return [
      {
        type: 'ContactMessageReceived',
        data: {
          contactId: data.contactId,
          name: m.name.trim(),
          email: m.email.trim().toLowerCase(),
          phone: m.phone?.trim() ? m.phone.trim() : null,
          subject: m.subject.trim(),
          message: m.message.trim(),
          senderUserId: data.senderUserId,
          receivedAt: now.toISOString(),
        },
      },
    ];
  },
  ReceiveHelpMessage({ data, metadata: { now } }, state) {
    if (state.received) throw new DomainError('This message has already been received', 'conflict');
    const h = data.help;
    const subject = h.subject.trim();
    const message = h.message.trim();
    if (!subject || !message) throw new DomainError(HELP_FIELDS_REQUIRED, 'invalid');
    return [
      {
        type: 'ContactMessageReceived',
        data: {
          contactId: data.contactId,
          name: h.name.trim(),
          email: h.email.trim().toLowerCase(),
          phone: null,
          subject,
          message,
          senderUserId: data.senderUserId,
          channel: 'help',
          studentId: h.studentId,
          receivedAt: now.toISOString(),
        },
      },
    ];
  },
  EraseContactMessage({ data, metadata: { now } }, state) {
    if (!state.received || state.erased) return [];
    return [{ type: 'ContactMessageErased', data: { contactId: data.contactId, at: now.toISOString() } }];
  },
  RecordContactMailSent({ data, metadata: { now } }, state) {
    if (!state.received) throw new DomainError('Contact message not found', 'not_found');
    const sent = { contactId: data.contactId, mailId: data.mailId, sentAt: now.toISOString() };
    // A job retried after its mail went out reports again: recording it twice would be noise.
    if (data.kind === 'confirmation') return state.confirmationMailId ? [] : [{ type: 'ContactConfirmationSent', data: sent }];
    return state.supportMailId ? [] : [{ type: 'SupportNotifiedOfContact', data: sent }];
  },
});

export const contactDecider: Decider<ContactCommand, ContactEvent, ContactState> = {
  initialState: initialContactState,
  evolve: evolveContact,
  decide: decideContact,
};
