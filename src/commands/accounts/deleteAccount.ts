import { findUserById } from '../../projections/accounts/queries.ts';
import { contactMessagesOf } from '../../projections/contact/queries.ts';
import { sessionIdsOfAccount } from '../../projections/sessions/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import type { AccountDeps } from './accountDeps.ts';

/**
 * Deletion by crypto-shredding: the events stay (the audit trail keeps its shape) but the key
 * that seals the person's data is destroyed, so names, e-mails and phones in them become
 * unreadable. This records the decision; the account deletion workflow
 * (src/sagas/accounts/accountDeletionSaga.ts) follows it from the log: it erases the students and
 * contact messages, cancels the sessions still ahead, clears the person from the calendar events of
 * all their sessions, gives the username and e-mail back and shreds the keys, resuming after a crash.
 */
export async function deleteAccount(deps: AccountDeps, userId: string, ctx: CommandContext) {
  const user = await findUserById(deps.sql, userId);
  // Messages sent from the account's address while signed out are the same person's: a fact the
  // workflow cannot know from the log alone (the address is sealed per message).
  const fromAddress = user ? await contactMessagesOf(deps.sql, { userId: null, email: user.email }) : [];
  // Sessions booked before the workflow followed bookings are known to the read model only.
  const sessionIds = await sessionIdsOfAccount(deps.sql, userId);
  const result = await deps.handlers.users.handle(
    userId,
    { type: 'DeleteAccount', data: { userId, contactIds: fromAddress, sessionIds } },
    ctx,
  );
  await deps.signIns.endAllFor(userId);
  await deps.sql`DELETE FROM http_idempotency WHERE subject = ${userId}`;
  return result;
}
