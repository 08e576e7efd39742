import type { FileStorage } from '../../adapters/files/fileStorage.ts';
import type { PersonalDataVault } from '../../adapters/personalData/personalDataVault.ts';
import { type AccountHandlers, reservationStreamId } from '../../commands/accounts/accountDeps.ts';
import { type AccountDeletionStep, accountDeletionWorkflow } from '../../domain/accounts/accountDeletion.ts';
import { filePrefixesOf } from '../../domain/tutors/picture.ts';
import type { Projector } from '../../projections/runner/projector.ts';
import { workflowProjector } from '../kit/workflowRunner.ts';

export const ACCOUNT_DELETION = 'account_deletion';

/** The deletion cascade: each step of the workflow as a command on its stream, the key shredded last. */
export function accountDeletionSaga(deps: { handlers: AccountHandlers; vault: PersonalDataVault; files: FileStorage }): Projector {
  const { students, reservations, contacts } = deps.handlers;
  return workflowProjector(accountDeletionWorkflow(reservationStreamId), async (step: AccountDeletionStep, ctx) => {
    switch (step.target) {
      case 'students':
        return students.handle(step.id, step.command, ctx);
      case 'reservations':
        return reservations.handle(step.id, step.command, ctx);
      case 'contacts':
        return contacts.handle(step.id, step.command, ctx);
      case 'personalData':
        return deps.vault.shred(step.subject);
      case 'files':
        return deleteFilesOf(deps.files, step.ownerId);
    }
  });
}

/** Deletes every file the account owns (again is a no-op). */
async function deleteFilesOf(files: FileStorage, ownerId: string): Promise<void> {
  for (const prefix of filePrefixesOf(ownerId)) {
    for (const key of await files.list(prefix)) await files.delete(key);
  }
}
