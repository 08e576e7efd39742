import { createHash } from 'node:crypto';
import type { Clock } from '../../adapters/clock/clock.ts';
import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import { ERASED, type PersonalDataVault } from '../../adapters/personalData/personalDataVault.ts';
import { type NewAccount, USERNAME_TAKEN } from '../../commands/accounts/registerUser.ts';
import type { CommandContext } from '../../commands/kit/commandContext.ts';
import { toDomainEvent } from '../../commands/kit/handleCommand.ts';
import { stepOf } from '../../commands/kit/processStep.ts';
import type { TutorHandlers } from '../../commands/tutors/tutorHandlers.ts';
import { type TutorApplicationEvent, tutorApplicationStreamId } from '../../domain/accounts/tutorApplication.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { decisionMailSubject, type TutorReviewStep, tutorReviewWorkflow } from '../../domain/tutors/tutorReview.ts';
import { isUsernameTaken } from '../../projections/accounts/queries.ts';
import type { Projector } from '../../projections/runner/projector.ts';
import { workflowProjector } from '../kit/workflowRunner.ts';
import { type DecisionMailJob, TUTOR_MAIL_QUEUE, tutorMailJobId } from './tutorMailSaga.ts';

export const TUTOR_REVIEW = 'tutor_review';

/** The accounts feature's registration process, handed in (a port): the tutors feature does not own accounts. */
export type RegisterAccount = (account: NewAccount, ctx: CommandContext) => Promise<{ userId: string }>;

export interface TutorReviewDeps {
  store: EventStore;
  sql: Sql;
  vault: PersonalDataVault;
  tutors: Pick<TutorHandlers, 'tutors'>;
  registerAccount: RegisterAccount;
  /** Where the decision mail to a denied applicant is queued (the tutor mail queue). */
  jobs: Pick<JobQueue, 'send'>;
  clock: Clock;
}

/** A username from the address's local part; later attempts add a suffix derived from the applicant (a replay picks the same). */
async function usernameFor(sql: Sql, email: string, applicantId: string, attempt: number): Promise<string> {
  const local = (email.split('@')[0] ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '')
    .slice(0, 30);
  const base = local.length >= 3 ? local : `tutor${local}`;
  for (let i = attempt; i < attempt + 20; i++) {
    const suffix = Number.parseInt(createHash('sha256').update(`${applicantId}/${i}`).digest('hex').slice(0, 8), 16) % 9000;
    const candidate = i === 0 ? base : `${base}${1000 + suffix}`;
    // A hint only: the claim on the username's reservation stream decides.
    if (!(await isUsernameTaken(sql, candidate))) return candidate;
  }
  throw new DomainError(USERNAME_TAKEN, 'conflict');
}

/** The application as submitted (opened: the address reads ERASED once shredded), if the log holds it. */
async function submittedApplication(deps: TutorReviewDeps, applicantId: string) {
  const events = (await deps.store.readStream(tutorApplicationStreamId(applicantId))).map((e) => toDomainEvent<TutorApplicationEvent>(e));
  return events.find(
    (e): e is Extract<TutorApplicationEvent, { type: 'TutorApplicationSubmitted' }> => e.type === 'TutorApplicationSubmitted',
  );
}

/** Registers the approved applicant as a tutor (Google, verified, no password), then creates the tutor profile. */
async function registerTutor(deps: TutorReviewDeps, step: Extract<TutorReviewStep, { target: 'tutorAccount' }>, ctx: CommandContext) {
  const submitted = await submittedApplication(deps, step.applicantId);
  if (!submitted) throw new Error(`No submitted application for applicant ${step.applicantId}`);
  const { email, firstName, lastName, googleId, termsAcceptedVersion, termsAcceptedIp } = submitted.data;
  const steps = stepOf(ctx);
  for (let attempt = 0; ; attempt++) {
    const username = await usernameFor(deps.sql, email, step.applicantId, attempt);
    try {
      const { userId } = await deps.registerAccount(
        {
          username,
          email,
          password: null,
          role: 'tutor',
          firstName,
          lastName,
          phone: null,
          authProvider: 'google',
          googleId,
          emailVerified: true,
          // The agreement accepted when applying counts: the tutor is not asked again.
          termsAccepted: termsAcceptedVersion ? { version: termsAcceptedVersion, ip: termsAcceptedIp, at: submitted.data.at } : null,
        },
        steps(`register-${attempt}`),
      );
      return deps.tutors.tutors.handle(
        userId,
        { type: 'CreateTutorProfile', data: { tutorId: userId, userId, applicationId: step.applicationId } },
        steps('create-profile'),
      );
    } catch (error) {
      if (error instanceof DomainError && error.message === USERNAME_TAKEN && attempt < 5) continue;
      throw error;
    }
  }
}

/**
 * A denied applicant's decision mail, queued before their key is shredded: the address and first
 * name are sealed into the job under a key of the mail's own (`decisionMailSubject`), which the
 * mail worker shreds once it has sent it. The job's id derives from the denial, so a batch replayed
 * after a crash queues nothing twice; replayed after the shredding, the address reads as erased and
 * the job queued the first time stands.
 */
async function queueDecisionMail(deps: TutorReviewDeps, step: Extract<TutorReviewStep, { target: 'decisionMail' }>, ctx: CommandContext) {
  const streamId = tutorApplicationStreamId(step.applicantId);
  const submitted = await submittedApplication(deps, step.applicantId);
  if (!submitted || submitted.data.email === ERASED || !ctx.causationId) return;
  const subject = decisionMailSubject(step.applicationId);
  const key = (await deps.vault.keysFor([subject])).get(subject);
  if (!key) throw new Error(`No key for ${subject}`);
  const seal = (value: string) => deps.vault.encrypt(subject, key, value);
  const job: DecisionMailJob = {
    streamId,
    eventId: ctx.causationId,
    decision: { subject, to: seal(submitted.data.email), firstName: seal(submitted.data.firstName) },
  };
  await deps.jobs.send({ queue: TUTOR_MAIL_QUEUE, id: tutorMailJobId(ctx.causationId), data: { ...job } });
}

/** Approval registers the tutor; denial queues the decision mail, then shreds the keys (the applicant's last). */
export function tutorReviewSaga(deps: TutorReviewDeps): Projector {
  return workflowProjector(
    tutorReviewWorkflow,
    async (step: TutorReviewStep, ctx) => {
      if (step.target === 'personalData') return deps.vault.shred(step.subject);
      if (step.target === 'decisionMail') return queueDecisionMail(deps, step, ctx);
      return registerTutor(deps, step, ctx);
    },
    deps.clock,
  );
}
