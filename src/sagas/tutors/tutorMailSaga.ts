import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { ERASED } from '../../adapters/personalData/personalDataVault.ts';
import { deterministicUuid } from '../../commands/kit/commandContext.ts';
import { toDomainEvent } from '../../commands/kit/handleCommand.ts';
import type { TutorApplicationEvent } from '../../domain/accounts/tutorApplication.ts';
import { type UserEvent, userStreamId } from '../../domain/accounts/user.ts';
import type { TutorInvitationEvent } from '../../domain/tutors/invitation.ts';
import type { TutorEvent } from '../../domain/tutors/tutor.ts';
import type { Reactor } from '../kit/reactor.ts';

export const TUTOR_MAIL_QUEUE = 'tutor-mail';

/** Jobs carry ids only: the worker reads the (sealed) address from the stream when it sends. */
interface TutorMailJob {
  streamId: string;
  eventId: string;
}

export const tutorMailReactor: Reactor = {
  name: 'tutor_mail_saga',
  handles: ['TutorInvited', 'TutorProfileCreated', 'TutorApplicationRejected'],
  jobsFor: (event) => [
    {
      queue: TUTOR_MAIL_QUEUE,
      id: deterministicUuid(`${event.id}/tutor-mail`),
      data: { streamId: event.streamId, eventId: event.id } satisfies TutorMailJob,
    },
  ],
};

const signature = ['', '— The Topmark team'];
type Deps = { store: EventStore; mailer: Mailer };

async function sendInvitation(deps: Deps, id: string, invited: Extract<TutorInvitationEvent, { type: 'TutorInvited' }>) {
  if (invited.data.email === ERASED) return;
  await deps.mailer.send({
    id,
    dataSubject: `tutorInvitation-${invited.data.invitationId}`,
    to: invited.data.email,
    subject: "You're invited to tutor with Topmark",
    text: [
      'Hello,',
      '',
      'You have been invited to join Topmark as a tutor.',
      `Sign in with your Google account at ${invited.data.signInUrl} to submit your application.`,
      `The invitation is valid until ${invited.data.expiresAt.slice(0, 10)}.`,
      ...signature,
    ].join('\n'),
  });
}

/** The approved tutor is welcomed at the account's address (the application's copy is shredded by then). */
async function sendWelcome(deps: Deps, id: string, userId: string) {
  const events = (await deps.store.readStream(userStreamId(userId))).map((e) => toDomainEvent<UserEvent>(e));
  const registered = events.find((e) => e.type === 'UserRegistered');
  if (registered?.type !== 'UserRegistered' || registered.data.email === ERASED) return;
  if (events.some((e) => e.type === 'AccountDeleted')) return;
  await deps.mailer.send({
    id,
    dataSubject: `user-${userId}`,
    to: registered.data.email,
    subject: 'Your Topmark tutor application was approved',
    text: [
      `Hi ${registered.data.firstName},`,
      '',
      'Welcome to Topmark! Your tutor application was approved.',
      'Sign in with the same Google account on the tutor sign-in page to complete your onboarding.',
      ...signature,
    ].join('\n'),
  });
}

async function sendRejection(deps: Deps, id: string, events: readonly TutorApplicationEvent[]) {
  const submitted = events.find((e) => e.type === 'TutorApplicationSubmitted');
  if (submitted?.type !== 'TutorApplicationSubmitted') return;
  // A denied application's data is erased: nobody to write to.
  if (events.some((e) => e.type === 'TutorApplicationDenied') || submitted.data.email === ERASED) return;
  await deps.mailer.send({
    id,
    dataSubject: `user-${submitted.data.userId}`,
    to: submitted.data.email,
    subject: 'Your Topmark tutor application',
    text: [
      `Hi ${submitted.data.firstName},`,
      '',
      'Thank you for applying to tutor with Topmark. After review, we are unable to offer you a tutoring position at this time.',
      ...signature,
    ].join('\n'),
  });
}

export async function sendTutorMail(deps: Deps, job: TutorMailJob): Promise<void> {
  const recorded = await deps.store.readStream(job.streamId);
  const events = recorded.map((e) => ({ id: e.id, event: toDomainEvent<TutorApplicationEvent | TutorInvitationEvent | TutorEvent>(e) }));
  const event = events.find((e) => e.id === job.eventId)?.event;
  const id = deterministicUuid(`tutor-mail/${job.eventId}`);
  if (event?.type === 'TutorInvited') return sendInvitation(deps, id, event);
  if (event?.type === 'TutorProfileCreated') return sendWelcome(deps, id, event.data.userId);
  if (event?.type === 'TutorApplicationRejected')
    return sendRejection(
      deps,
      id,
      events.map((e) => e.event as TutorApplicationEvent),
    );
}

export async function workTutorMail(queue: JobQueue, deps: { store: EventStore; mailer: Mailer }): Promise<void> {
  await queue.work<TutorMailJob>(TUTOR_MAIL_QUEUE, (job) => sendTutorMail(deps, job));
}
