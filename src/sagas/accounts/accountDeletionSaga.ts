import type { PersonalDataVault } from '../../adapters/personalData/personalDataVault.ts';
import { type AccountHandlers, reservationStreamId } from '../../commands/accounts/accountDeps.ts';
import { type AccountDeletionStep, accountDeletionWorkflow } from '../../domain/accounts/accountDeletion.ts';
import type { Projector } from '../../projections/runner/projector.ts';
import { workflowProjector } from '../kit/workflowRunner.ts';

export const ACCOUNT_DELETION = 'account_deletion';

/** The deletion cascade: each step of the workflow as a command on its stream, the key shredded last. */
export function accountDeletionSaga(deps: { handlers: AccountHandlers; vault: PersonalDataVault }): Projector {
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
    }
  });
}
