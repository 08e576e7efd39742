import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { ERASED } from '../../adapters/personalData/personalDataVault.ts';
import { deterministicUuid } from '../../commands/kit/commandContext.ts';
import { toDomainEvent } from '../../commands/kit/handleCommand.ts';
import { type TutorApplicationEvent, tutorApplicationStreamId } from '../../domain/accounts/tutorApplication.ts';
import type { TutorInvitationEvent } from '../../domain/tutors/invitation.ts';
import type { Reactor } from '../kit/reactor.ts';

export const TUTOR_MAIL_QUEUE = 'tutor-mail';

/** Jobs carry ids only: the worker reads the (sealed) address from the stream when it sends. */
interface TutorMailJob {
  streamId: string;
  eventId: string;
}

export const tutorMailReactor: Reactor = {
  name: 'tutor_mail_saga',
  handles: ['TutorInvited', 'TutorApplicationApproved', 'TutorApplicationRejected'],
  jobsFor: (event) => [
    {
      queue: TUTOR_MAIL_QUEUE,
      id: deterministicUuid(`${event.id}/tutor-mail`),
      data: {
        streamId: event.type === 'TutorInvited' ? event.streamId : tutorApplicationStreamId((event.data as { userId: string }).userId),
        eventId: event.id,
      } satisfies TutorMailJob,
    },
  ],
};

const signature = ['', '— The Topmark team'];

export async function sendTutorMail(deps: { store: EventStore; mailer: Mailer }, job: TutorMailJob): Promise<void> {
  const recorded = await deps.store.readStream(job.streamId);
  const events = recorded.map((e) => ({ id: e.id, event: toDomainEvent<TutorApplicationEvent | TutorInvitationEvent>(e) }));
  const event = events.find((e) => e.id === job.eventId)?.event;
  if (!event) return;
  const id = deterministicUuid(`tutor-mail/${job.eventId}`);
  if (event.type === 'TutorInvited') {
    if (event.data.email === ERASED) return;
    await deps.mailer.send({
      id,
      dataSubject: `tutorInvitation-${event.data.invitationId}`,
      to: event.data.email,
      subject: "You're invited to tutor with Topmark",
      text: [
        'Hello,',
        '',
        'You have been invited to join Topmark as a tutor.',
        `Sign in with your Google account at ${event.data.signInUrl} to submit your application.`,
        `The invitation is valid until ${event.data.expiresAt.slice(0, 10)}.`,
        ...signature,
      ].join('\n'),
    });
    return;
  }
  const submitted = events.find((e) => e.event.type === 'TutorApplicationSubmitted')?.event;
  if (submitted?.type !== 'TutorApplicationSubmitted') return;
  // A denied application's data is erased: nobody to write to.
  if (events.some((e) => e.event.type === 'TutorApplicationDenied') || submitted.data.email === ERASED) return;
  if (event.type !== 'TutorApplicationApproved' && event.type !== 'TutorApplicationRejected') return;
  const approved = event.type === 'TutorApplicationApproved';
  await deps.mailer.send({
    id,
    dataSubject: `user-${submitted.data.userId}`,
    to: submitted.data.email,
    subject: approved ? 'Your Topmark tutor application was approved' : 'Your Topmark tutor application',
    text: [
      `Hi ${submitted.data.firstName},`,
      '',
      ...(approved
        ? [
            'Welcome to Topmark! Your tutor application was approved.',
            'Sign in with the same Google account on the tutor sign-in page to complete your onboarding.',
          ]
        : ['Thank you for applying to tutor with Topmark. After review, we are unable to offer you a tutoring position at this time.']),
      ...signature,
    ].join('\n'),
  });
}

export async function workTutorMail(queue: JobQueue, deps: { store: EventStore; mailer: Mailer }): Promise<void> {
  await queue.work<TutorMailJob>(TUTOR_MAIL_QUEUE, (job) => sendTutorMail(deps, job));
}
