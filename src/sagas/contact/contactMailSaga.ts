import type { Clock } from '../../adapters/clock/clock.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { ERASED } from '../../adapters/personalData/personalDataVault.ts';
import { recordContactMailSent } from '../../commands/contact/receiveContactMessage.ts';
import { commandContext, deterministicUuid } from '../../commands/kit/commandContext.ts';
import { toDomainEvent } from '../../commands/kit/handleCommand.ts';
import { type ContactEvent, contactStreamId } from '../../domain/contact/contact.ts';
import { reactor } from '../kit/reactor.ts';

export const CONTACT_MAIL_QUEUE = 'contact-mail';

type Kind = 'confirmation' | 'support';
interface ContactMailJob {
  contactId: string;
  kind: Kind;
  causationId: string;
}

/** Each contact message sends two mails: a confirmation to the sender and a notice to support. */
export const contactMailReactor = reactor({
  name: 'contact_mail_saga',
  handles: ['ContactMessageReceived'],
  jobsFor(event) {
    const { contactId } = event.data;
    return (['confirmation', 'support'] as const).map((kind) => ({
      queue: CONTACT_MAIL_QUEUE,
      id: deterministicUuid(`${event.id}/${kind}`),
      // ids only: the job table must not hold personal data
      data: { contactId, kind, causationId: event.id } satisfies ContactMailJob,
    }));
  },
});

export interface ContactMailDeps {
  store: EventStore;
  mailer: Mailer;
  supportAddress: string;
  clock: Clock;
}

export async function sendContactMail(deps: ContactMailDeps, job: ContactMailJob): Promise<void> {
  const events = (await deps.store.readStream(contactStreamId(job.contactId))).map((e) => toDomainEvent<ContactEvent>(e));
  const received = events.find((e) => e.type === 'ContactMessageReceived');
  if (received?.type !== 'ContactMessageReceived') throw new Error(`Contact message ${job.contactId} not found`);
  // Erased with its sender's account before the mail went out: nobody left to write to.
  if (events.some((e) => e.type === 'ContactMessageErased') || received.data.email === ERASED) return;
  const m = received.data;
  const mailId = deterministicUuid(`contact-mail/${job.contactId}/${job.kind}`);
  if (job.kind === 'confirmation') {
    await deps.mailer.send({
      id: mailId,
      dataSubject: `contact-${job.contactId}`,
      to: m.email,
      subject: 'We received your message',
      text: [
        `Hi ${m.name},`,
        '',
        `Thank you for contacting Topmark. We received your message "${m.subject}" and will reply within 24 hours`,
        '(support hours Mon-Fri 9 AM-6 PM EST).',
        '',
        'Your message:',
        m.message,
        '',
        '— The Topmark team',
      ].join('\n'),
    });
  } else {
    await deps.mailer.send({
      id: mailId,
      dataSubject: `contact-${job.contactId}`,
      to: deps.supportAddress,
      subject: m.channel === 'help' ? `Help request: ${m.subject}` : `New contact message: ${m.subject}`,
      text: [
        `From: ${m.name} <${m.email}>${m.phone ? `, phone ${m.phone}` : ''}`,
        ...(m.channel === 'help'
          ? [
              `Sent from the student area's Help dialog by account ${m.senderUserId ?? 'unknown'}${m.studentId ? ` about student ${m.studentId}` : ''}`,
            ]
          : []),
        `Received: ${m.receivedAt}`,
        `Subject: ${m.subject}`,
        '',
        m.message,
      ].join('\n'),
    });
  }
  await recordContactMailSent(
    deps.store,
    job.contactId,
    job.kind,
    mailId,
    commandContext({
      commandId: deterministicUuid(`contact-mail-recorded/${job.contactId}/${job.kind}`),
      actorRole: 'system',
      causationId: job.causationId,
      now: deps.clock.now(),
    }),
  );
}

export async function workContactMail(queue: JobQueue, deps: ContactMailDeps): Promise<void> {
  // The two mails of a message record on the same stream: one after the other, not racing on its revision.
  await queue.work<ContactMailJob>(CONTACT_MAIL_QUEUE, (job) => sendContactMail(deps, job), { keyOf: (job) => job.contactId });
}
