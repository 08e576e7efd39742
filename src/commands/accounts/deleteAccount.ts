import { reservationDecider } from '../../domain/accounts/reservation.ts';
import { studentDecider, studentStreamId } from '../../domain/accounts/studentProfile.ts';
import { userDecider, userStreamId } from '../../domain/accounts/userDecider.ts';
import { contactDecider } from '../../domain/contact/contactDecider.ts';
import { contactStreamId } from '../../domain/contact/contactEvents.ts';
import { type CommandContext, deterministicUuid } from '../kit/commandContext.ts';
import { handleCommand } from '../kit/handleCommand.ts';
import { type AccountDeps, reservationStreamId } from './accountDeps.ts';

/**
 * Deletion by crypto-shredding: the events stay (the audit trail keeps its shape) but the key
 * that seals the person's data is destroyed, so names, e-mails and phones in them become
 * unreadable. The events recorded here make the projections forget the person's rows.
 */
export async function deleteAccount(deps: AccountDeps, userId: string, ctx: CommandContext) {
  const [user] = await deps.sql<{ username: string; email: string }[]>`SELECT username, email FROM users WHERE id = ${userId}`;
  const step = (name: string) => ({ ...ctx, commandId: deterministicUuid(`${ctx.commandId}/${name}`), causationId: ctx.commandId });
  const students = await deps.sql<{ id: string }[]>`SELECT id FROM students WHERE user_id = ${userId}`;
  for (const s of students) {
    await handleCommand(
      deps.store,
      studentDecider,
      studentStreamId(s.id),
      { type: 'EraseStudentProfile', studentId: s.id, now: ctx.now },
      step(`erase-${s.id}`),
    );
  }
  if (user) {
    // Contact messages sent from the same address belong to the same person.
    const messages = await deps.sql<{ id: string }[]>`SELECT id FROM contact_messages WHERE lower(email) = lower(${user.email})`.catch(
      () => [],
    );
    for (const m of messages) {
      await handleCommand(
        deps.store,
        contactDecider,
        contactStreamId(m.id),
        { type: 'EraseContactMessage', contactId: m.id, now: ctx.now },
        step(`contact-${m.id}`),
      );
      await deps.vault.shred(`contact-${m.id}`);
    }
    for (const [kind, value] of [
      ['username', user.username],
      ['email', user.email],
    ] as const) {
      await handleCommand(
        deps.store,
        reservationDecider,
        reservationStreamId(kind, value),
        { type: 'Release', userId, now: ctx.now },
        step(`release-${kind}`),
      );
    }
  }
  const result = await handleCommand(
    deps.store,
    userDecider,
    userStreamId(userId),
    { type: 'DeleteAccount', userId, now: ctx.now },
    step('delete'),
  );
  await deps.vault.shred(`user-${userId}`);
  await deps.sessions.endAllFor(userId);
  await deps.sql`DELETE FROM http_idempotency WHERE subject = ${userId}`;
  return result;
}
