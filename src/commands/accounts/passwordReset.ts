import { INVALID_RESET_CODE } from '../../domain/accounts/userDecider.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { findUserByEmail } from '../../projections/accounts/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { type AccountDeps, codeHash, newCode } from './accountDeps.ts';

/** Answers the same whether or not the address has an account, and whether or not it was too soon. */
export async function requestPasswordReset(deps: AccountDeps, email: string, ctx: CommandContext) {
  const user = await findUserByEmail(deps.sql, email);
  if (!user) return;
  const code = newCode();
  try {
    await deps.handlers.users.handle(
      user.id,
      { type: 'RequestPasswordReset', data: { userId: user.id, code, codeHash: codeHash(user.id, code) } },
      ctx,
    );
  } catch (error) {
    // Too soon or no account: the same answer as a success, by design (no enumeration).
    if (!(error instanceof DomainError)) throw error;
  }
}

export async function resetPassword(deps: AccountDeps, email: string, code: string, newPassword: string, ctx: CommandContext) {
  const user = await findUserByEmail(deps.sql, email);
  if (!user) throw new DomainError(INVALID_RESET_CODE, 'invalid');
  const passwordHash = await deps.hasher.hash(newPassword);
  const result = await deps.handlers.users.handle(
    user.id,
    { type: 'ResetPassword', data: { userId: user.id, codeHash: codeHash(user.id, code), passwordHash } },
    ctx,
  );
  if (result.events.some((e) => e.type === 'PasswordResetFailed')) throw new DomainError(INVALID_RESET_CODE, 'invalid');
  // A new password ends every session, wherever it was opened.
  await deps.signIns.endAllFor(user.id);
  return { userId: user.id, position: result.position };
}
