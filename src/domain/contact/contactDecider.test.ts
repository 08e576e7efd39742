import { describe, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import type { ContactEvent } from './contact.ts';
import { contactDecider } from './contactDecider.ts';

const now = new Date('2026-11-20T15:00:00.000Z');
const spec = deciderSpec(contactDecider);
const received: ContactEvent = {
  type: 'ContactMessageReceived',
  data: {
    contactId: 'c1',
    name: 'Ann Lee',
    email: 'ann@example.com',
    phone: null,
    subject: 'Pricing',
    message: 'Do you tutor calculus?',
    senderUserId: null,
    receivedAt: now.toISOString(),
  },
};

describe('contact decider', () => {
  it('receives a message, trimming fields, lower-casing the e-mail and dropping an empty phone', () => {
    spec
      .given([])
      .when({
        type: 'ReceiveContactMessage',
        data: {
          contactId: 'c1',
          senderUserId: null,
          message: { name: ' Ann Lee ', email: 'Ann@Example.com', phone: '  ', subject: 'Pricing ', message: ' Do you tutor calculus?' },
        },
        metadata: { now },
      })
      .thenEvents([received]);
  });

  it('refuses to receive the same message twice', () => {
    spec
      .given([received])
      .when({
        type: 'ReceiveContactMessage',
        data: { contactId: 'c1', senderUserId: null, message: { name: 'A', email: 'a@b.co', subject: 's', message: 'm' } },
        metadata: { now },
      })
      .thenThrows('This message has already been received', 'conflict');
  });

  it('records the confirmation once, however often the mail job reports it', () => {
    const sent: ContactEvent = { type: 'ContactConfirmationSent', data: { contactId: 'c1', mailId: 'm1', sentAt: now.toISOString() } };
    spec
      .given([received])
      .when({ type: 'RecordContactMailSent', data: { contactId: 'c1', kind: 'confirmation', mailId: 'm1' }, metadata: { now } })
      .thenEvents([sent]);
    spec
      .given([received, sent])
      .when({ type: 'RecordContactMailSent', data: { contactId: 'c1', kind: 'confirmation', mailId: 'm1' }, metadata: { now } })
      .thenNothing();
  });

  it('records the support notification separately from the confirmation', () => {
    const sent: ContactEvent = { type: 'ContactConfirmationSent', data: { contactId: 'c1', mailId: 'm1', sentAt: now.toISOString() } };
    spec
      .given([received, sent])
      .when({ type: 'RecordContactMailSent', data: { contactId: 'c1', kind: 'support', mailId: 'm2' }, metadata: { now } })
      .thenEvents([{ type: 'SupportNotifiedOfContact', data: { contactId: 'c1', mailId: 'm2', sentAt: now.toISOString() } }]);
  });

  it('cannot record mail for a message that does not exist', () => {
    spec
      .given([])
      .when({ type: 'RecordContactMailSent', data: { contactId: 'c1', kind: 'support', mailId: 'm2' }, metadata: { now } })
      .thenThrows('Contact message not found', 'not_found');
  });

  it('receives a help message from a signed-in sender, about their student, trimmed', () => {
    spec
      .given([])
      .when({
        type: 'ReceiveHelpMessage',
        data: {
          contactId: 'h1',
          senderUserId: 'u1',
          help: { name: ' Sam Lee ', email: 'Sam@Example.com', subject: ' Booking ', message: ' I cannot book. ', studentId: 's1' },
        },
        metadata: { now },
      })
      .thenEvents([
        {
          type: 'ContactMessageReceived',
          data: {
            contactId: 'h1',
            name: 'Sam Lee',
            email: 'sam@example.com',
            phone: null,
            subject: 'Booking',
            message: 'I cannot book.',
            senderUserId: 'u1',
            channel: 'help',
            studentId: 's1',
            receivedAt: now.toISOString(),
          },
        },
      ]);
  });

  it('refuses a help message without a subject or a message', () => {
    for (const [subject, message] of [
      ['  ', 'text'],
      ['Booking', ' '],
    ] as const) {
      spec
        .given([])
        .when({
          type: 'ReceiveHelpMessage',
          data: { contactId: 'h1', senderUserId: 'u1', help: { name: 'Sam', email: 's@e.co', subject, message, studentId: null } },
          metadata: { now },
        })
        .thenThrows('Subject and message are required', 'invalid');
    }
  });
});
