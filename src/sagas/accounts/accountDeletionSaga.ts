import type { Clock } from '../../adapters/clock/clock.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { FileStorage } from '../../adapters/files/fileStorage.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import type { PersonalDataVault } from '../../adapters/personalData/personalDataVault.ts';
import { type AccountHandlers, reservationStreamId } from '../../commands/accounts/accountDeps.ts';
import { courseLedger } from '../../commands/courses/courseLedger.ts';
import type { CommandContext } from '../../commands/kit/commandContext.ts';
import { stepOf } from '../../commands/kit/processStep.ts';
import { calendarErasureJob } from '../../commands/sessions/sessionCalendarErasure.ts';
import { SCHEDULE_ATTEMPTS, sessionHandlers } from '../../commands/sessions/sessionHandlers.ts';
import { settleSession } from '../../commands/sessions/settleSession.ts';
import { type AccountDeletionStep, accountDeletionWorkflow } from '../../domain/accounts/accountDeletion.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { filePrefixesOf } from '../../domain/tutors/picture.ts';
import type { Projector } from '../../projections/runner/projector.ts';
import { workflowProjector } from '../kit/workflowRunner.ts';

export const ACCOUNT_DELETION = 'account_deletion';

export interface AccountDeletionDeps {
  handlers: AccountHandlers;
  vault: PersonalDataVault;
  files: FileStorage;
  /** The sessions of the account are cancelled and settled through their own streams. */
  store: EventStore;
  /** The calendar is left to a retried job. */
  jobs: Pick<JobQueue, 'send'>;
  clock: Clock;
}

/** The deletion cascade: each step of the workflow as a command on its stream, the key shredded last. */
export function accountDeletionSaga(deps: AccountDeletionDeps): Projector {
  const { students, reservations, contacts } = deps.handlers;
  return workflowProjector(
    accountDeletionWorkflow(reservationStreamId),
    async (step: AccountDeletionStep, ctx) => {
      switch (step.target) {
        case 'students':
          return students.handle(step.id, step.command, ctx);
        case 'reservations':
          return reservations.handle(step.id, step.command, ctx);
        case 'contacts':
          return contacts.handle(step.id, step.command, ctx);
        case 'sessions':
          return cancelForErasure(deps.store, step.id, ctx);
        case 'calendar':
          return deps.jobs.send(calendarErasureJob(step.sessionId, ctx.commandId));
        case 'personalData':
          return deps.vault.shred(step.subject);
        case 'files':
          return deleteFilesOf(deps.files, step.ownerId);
      }
    },
    deps.clock,
  );
}

/**
 * Cancels a session still ahead as a cancellation does (`cancelSession`): the session records it,
 * then the credit is released and the tutor's hour freed at once, so the hour is bookable again as
 * soon as the workflow has passed (the settlement job would otherwise do it a minute later).
 */
async function cancelForErasure(store: EventStore, sessionId: string, ctx: CommandContext) {
  const handlers = sessionHandlers(store);
  const step = stepOf(ctx);
  const decided = await handlers.sessions.handle(sessionId, { type: 'CancelSessionForErasure', data: { sessionId } }, step('cancel'));
  const cancelled = decided.events.find((e) => e.type === 'SessionCancelled');
  if (cancelled?.type !== 'SessionCancelled') return;
  const { tutorId, courseId, credit } = cancelled.data;
  try {
    await settleSession(handlers, courseLedger(store, { maxAttempts: SCHEDULE_ATTEMPTS }), { sessionId, tutorId, courseId, credit }, step);
  } catch (error) {
    // A course the log does not hold (data seeded around the booking process) must not stop the
    // erasure: the key would never be shredded. The settlement job that follows SessionCancelled
    // tries again and surfaces it.
    if (!(error instanceof DomainError && error.kind === 'not_found')) throw error;
  }
}

/** Deletes every file the account owns (again is a no-op). */
async function deleteFilesOf(files: FileStorage, ownerId: string): Promise<void> {
  for (const prefix of filePrefixesOf(ownerId)) {
    for (const key of await files.list(prefix)) await files.delete(key);
  }
}
