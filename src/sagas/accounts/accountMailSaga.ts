import type { Clock } from '../../adapters/clock/clock.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { ERASED } from '../../adapters/personalData/personalDataVault.ts';
import { recordActivity } from '../../commands/accounts/recordActivity.ts';
import { commandContext, deterministicUuid } from '../../commands/kit/commandContext.ts';
import { toDomainEvent } from '../../commands/kit/handleCommand.ts';
import { initialUserState, type UserEvent, userStreamId } from '../../domain/accounts/user.ts';
import { reactor } from '../kit/reactor.ts';

export const ACCOUNT_MAIL_QUEUE = 'account-mail';

interface AccountMailJob {
  userId: string;
  eventId: string;
}

/** Codes are mailed by a job; the job carries ids only and reads the sealed code from the stream. */
export const accountMailReactor = reactor({
  name: 'account_mail_saga',
  handles: ['EmailVerificationCodeIssued', 'PasswordResetCodeIssued'],
  jobsFor: (event) => [
    {
      queue: ACCOUNT_MAIL_QUEUE,
      id: deterministicUuid(`${event.id}/mail`),
      data: { userId: event.data.userId, eventId: event.id } satisfies AccountMailJob,
    },
  ],
});

export async function sendAccountMail(deps: { store: EventStore; mailer: Mailer; clock: Clock }, job: AccountMailJob): Promise<void> {
  const recorded = await deps.store.readStream(userStreamId(job.userId));
  const events = recorded.map((e) => ({ id: e.id, event: toDomainEvent<UserEvent>(e) }));
  const registered = events.find((e) => e.event.type === 'UserRegistered')?.event;
  const issued = events.find((e) => e.id === job.eventId)?.event;
  if (registered?.type !== 'UserRegistered' || !issued) return;
  if (events.some((e) => e.event.type === 'AccountDeleted') || registered.data.email === ERASED) return;
  if (issued.type !== 'EmailVerificationCodeIssued' && issued.type !== 'PasswordResetCodeIssued') return;
  const { code, expiresAt } = issued.data;
  const minutes = Math.round((Date.parse(expiresAt) - Date.parse(issued.data.issuedAt)) / 60_000);
  const verification = issued.type === 'EmailVerificationCodeIssued';
  const mailId = deterministicUuid(`account-mail/${job.eventId}`);
  await deps.mailer.send({
    id: mailId,
    dataSubject: `user-${job.userId}`,
    to: registered.data.email,
    // The code stays out of the subject, which the dev outbox logs.
    subject: verification ? 'Your Topmark verification code' : 'Your Topmark password reset code',
    text: [
      `Hi ${registered.data.firstName},`,
      '',
      verification
        ? `Your 6-digit verification code is ${code}. Enter it on the verification page to activate your account.`
        : `Your 6-digit password reset code is ${code}. Enter it with your new password on the sign-in page.`,
      `The code expires in ${minutes} minutes.`,
      '',
      "If you didn't ask for this, you can ignore this e-mail.",
      '',
      '— The Topmark team',
    ].join('\n'),
  });
  await recordActivity(
    deps.store,
    initialUserState,
    { type: 'RecordAccountMailSent', data: { userId: job.userId, mailId, kind: verification ? 'verification' : 'password_reset' } },
    commandContext({
      commandId: deterministicUuid(`account-mail-recorded/${job.eventId}`),
      actorRole: 'system',
      causationId: job.eventId,
      now: deps.clock.now(),
    }),
  );
}

export async function workAccountMail(queue: JobQueue, deps: { store: EventStore; mailer: Mailer; clock: Clock }): Promise<void> {
  await queue.work<AccountMailJob>(ACCOUNT_MAIL_QUEUE, (job) => sendAccountMail(deps, job));
}
