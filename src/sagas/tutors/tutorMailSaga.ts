import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { ERASED, type PersonalDataVault } from '../../adapters/personalData/personalDataVault.ts';
import { deterministicUuid } from '../../commands/kit/commandContext.ts';
import { toDomainEvent } from '../../commands/kit/handleCommand.ts';
import type { TutorApplicationEvent } from '../../domain/accounts/tutorApplication.ts';
import { type UserEvent, userStreamId } from '../../domain/accounts/user.ts';
import type { TutorInvitationEvent } from '../../domain/tutors/invitation.ts';
import type { TutorEvent } from '../../domain/tutors/tutor.ts';
import { reactor } from '../kit/reactor.ts';

export const TUTOR_MAIL_QUEUE = 'tutor-mail';

/** The address tutor applicants write to (spec part 2 §1), as the tutor login page names it. */
export const TUTOR_APPLICATIONS_EMAIL = 'careers@topmark.ca';

/** Jobs carry ids only: the worker reads the (sealed) address from the stream when it sends. */
interface TutorMailJob {
  streamId: string;
  eventId: string;
}

/**
 * A denied applicant's decision mail (queued by the review workflow, not the reactor): the
 * denial shreds the address on the stream, so the job carries it sealed under the mail's own key
 * (`subject`), shredded once the mail is sent.
 */
export interface DecisionMailJob extends TutorMailJob {
  decision: { subject: string; to: string; firstName: string };
}

/** One job per event, whoever queues it. */
export const tutorMailJobId = (eventId: string) => deterministicUuid(`${eventId}/tutor-mail`);
const tutorMailId = (eventId: string) => deterministicUuid(`tutor-mail/${eventId}`);

export const tutorMailReactor = reactor({
  name: 'tutor_mail_saga',
  handles: ['TutorInvited', 'TutorInvitationResent', 'TutorProfileCreated', 'TutorApplicationRejected'],
  jobsFor: (event) => [
    {
      queue: TUTOR_MAIL_QUEUE,
      id: tutorMailJobId(event.id),
      data: { streamId: event.streamId, eventId: event.id } satisfies TutorMailJob,
    },
  ],
});

const signature = ['', '— The Topmark team'];
type Deps = { store: EventStore; mailer: Mailer; vault: PersonalDataVault };

/**
 * The invitation (first sent or sent again) to the address its `TutorInvited` names. Nothing when
 * it was revoked or accepted before the mail went out: the link would no longer do what it says.
 */
async function sendInvitation(deps: Deps, id: string, invitationId: string, events: readonly TutorInvitationEvent[]) {
  const invited = events.find((e) => e.type === 'TutorInvited' && e.data.invitationId === invitationId);
  if (invited?.type !== 'TutorInvited' || invited.data.email === ERASED) return;
  const closed = events.some(
    (e) => (e.type === 'TutorInvitationRevoked' || e.type === 'TutorInvitationAccepted') && e.data.invitationId === invitationId,
  );
  if (closed) return;
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
  // Denied meanwhile: the address is erased, and the denial's own mail (queued before the erasure) tells them.
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
      '',
      `Your application is closed and is not reviewed again. If you have a question about the decision, write to ${TUTOR_APPLICATIONS_EMAIL}.`,
      ...signature,
    ].join('\n'),
  });
}

/**
 * The denial, in plain and kind words, to the address the job carries sealed. The kept copy is
 * sealed with the same key, and the key is shredded once the mail is out: the outbox then lists it
 * as "[erased]", like every mail of an erased person. A run after that (a retry of a job whose
 * completion was lost) finds the key gone and sends nothing. The last attempt shreds the key even
 * when sending failed: the denial's erasure does not wait on a mail server for ever.
 */
async function sendDenial(deps: Deps, job: DecisionMailJob, attempt: { retryCount: number; retryLimit: number }) {
  const { subject } = job.decision;
  try {
    const opened = await deps.vault.decryptAll([job.decision.to, job.decision.firstName]);
    const to = opened.get(job.decision.to) ?? ERASED;
    const firstName = opened.get(job.decision.firstName) ?? ERASED;
    if (to === ERASED) return;
    await deps.mailer.send({
      id: tutorMailId(job.eventId),
      dataSubject: subject,
      to,
      subject: 'Your Topmark tutor application',
      text: [
        firstName && firstName !== ERASED ? `Hi ${firstName},` : 'Hello,',
        '',
        'Thank you for your interest in tutoring with Topmark. After review, we have declined your application.',
        '',
        'As part of this decision, the personal data your application held (your name, e-mail address and Google sign-in) has been deleted from Topmark. This e-mail is the last message you receive from us about it.',
        '',
        `Your application is closed and is not reviewed again. If you have a question, write to ${TUTOR_APPLICATIONS_EMAIL}.`,
        ...signature,
      ].join('\n'),
    });
  } catch (error) {
    if (attempt.retryCount >= attempt.retryLimit) await deps.vault.shred(subject);
    throw error;
  }
  await deps.vault.shred(subject);
}

export async function sendTutorMail(
  deps: Deps,
  job: TutorMailJob | DecisionMailJob,
  attempt: { retryCount: number; retryLimit: number } = { retryCount: 0, retryLimit: 0 },
): Promise<void> {
  if ('decision' in job) return sendDenial(deps, job, attempt);
  const recorded = await deps.store.readStream(job.streamId);
  const events = recorded.map((e) => ({ id: e.id, event: toDomainEvent<TutorApplicationEvent | TutorInvitationEvent | TutorEvent>(e) }));
  const event = events.find((e) => e.id === job.eventId)?.event;
  const id = tutorMailId(job.eventId);
  if (event?.type === 'TutorInvited' || event?.type === 'TutorInvitationResent')
    return sendInvitation(
      deps,
      id,
      event.data.invitationId,
      events.map((e) => e.event as TutorInvitationEvent),
    );
  if (event?.type === 'TutorProfileCreated') return sendWelcome(deps, id, event.data.userId);
  if (event?.type === 'TutorApplicationRejected')
    return sendRejection(
      deps,
      id,
      events.map((e) => e.event as TutorApplicationEvent),
    );
}

export async function workTutorMail(queue: JobQueue, deps: Deps): Promise<void> {
  await queue.work<TutorMailJob | DecisionMailJob>(TUTOR_MAIL_QUEUE, (job, attempt) => sendTutorMail(deps, job, attempt));
}
