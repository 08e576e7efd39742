import { INVALID_RESET_CODE, userDecider, userStreamId } from '../../domain/accounts/userDecider.ts';
import { DomainError } from '../../domain/decider.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { handleCommand } from '../kit/handleCommand.ts';
import { type AccountDeps, codeHash, findUserByEmail, newCode } from './accountDeps.ts';

/** Answers the same whether or not the address has an account, and whether or not it was too soon. */
export async function requestPasswordReset(deps: AccountDeps, email: string, ctx: CommandContext) {
  const user = await findUserByEmail(deps.sql, email);
  if (!user) return;
  const code = newCode();
  try {
    await handleCommand(
      deps.store,
      userDecider,
      userStreamId(user.id),
      { type: 'RequestPasswordReset', userId: user.id, code, codeHash: codeHash(user.id, code), now: ctx.now },
      ctx,
    );
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
  }
}

export async function resetPassword(deps: AccountDeps, email: string, code: string, newPassword: string, ctx: CommandContext) {
  const user = await findUserByEmail(deps.sql, email);
  if (!user) throw new DomainError(INVALID_RESET_CODE, 400);
  const passwordHash = await deps.hasher.hash(newPassword);
  const result = await handleCommand(
    deps.store,
    userDecider,
    userStreamId(user.id),
    { type: 'ResetPassword', userId: user.id, codeHash: codeHash(user.id, code), passwordHash, now: ctx.now },
    ctx,
  );
  if (result.events.some((e) => e.type === 'PasswordResetFailed')) throw new DomainError(INVALID_RESET_CODE, 400);
  // A new password ends every session, wherever it was opened.
  await deps.sessions.endAllFor(user.id);
  return { userId: user.id, position: result.position };
}
