import { accountHolder, secondaryLoginHolder } from '../../domain/accounts/reservation.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { stepOf } from '../kit/processStep.ts';
import { type AccountDeps, reservationStreamId } from './accountDeps.ts';

/**
 * Deletion by crypto-shredding: the events stay (the audit trail keeps its shape) but the key
 * that seals the person's data is destroyed, so names, e-mails and phones in them become
 * unreadable. The events recorded here make the projections forget the person's rows.
 * Every step derives its command id from the request's, so a failed deletion retried by the
 * user resumes where it stopped; no step's error is swallowed.
 */
export async function deleteAccount(deps: AccountDeps, userId: string, ctx: CommandContext) {
  const { users, students, reservations, contacts } = deps.handlers;
  const step = stepOf(ctx);
  const [user] = await deps.sql<{ username: string; email: string }[]>`SELECT username, email FROM users WHERE id = ${userId}`;
  const profiles = await deps.sql<{ id: string; secondary_username: string | null }[]>`
    SELECT id, secondary_username FROM students WHERE user_id = ${userId}`;
  for (const s of profiles) {
    await students.handle(s.id, { type: 'EraseStudentProfile', data: { studentId: s.id } }, step(`erase-${s.id}`));
    if (s.secondary_username) {
      await reservations.handle(
        reservationStreamId('username', s.secondary_username),
        { type: 'Release', data: { holderId: secondaryLoginHolder(s.id) } },
        step(`release-secondary-${s.id}`),
      );
    }
  }
  // Contact messages sent while signed in, or from the same address, belong to the same person.
  const messages = await deps.sql<{ id: string }[]>`
    SELECT id FROM contact_messages WHERE sender_user_id = ${userId} OR (${user?.email ?? null}::text IS NOT NULL AND lower(email) = lower(${user?.email ?? null}))`;
  for (const m of messages) {
    await contacts.handle(m.id, { type: 'EraseContactMessage', data: { contactId: m.id } }, step(`contact-${m.id}`));
    await deps.vault.shred(`contact-${m.id}`);
  }
  if (user) {
    for (const [kind, value] of [
      ['username', user.username],
      ['email', user.email],
    ] as const) {
      await reservations.handle(
        reservationStreamId(kind, value),
        { type: 'Release', data: { holderId: accountHolder(userId) } },
        step(`release-${kind}`),
      );
    }
  }
  const result = await users.handle(userId, { type: 'DeleteAccount', data: { userId } }, step('delete'));
  await deps.vault.shred(`user-${userId}`);
  await deps.sessions.endAllFor(userId);
  await deps.sql`DELETE FROM http_idempotency WHERE subject = ${userId}`;
  return result;
}
