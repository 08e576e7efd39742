import { INVALID_CODE } from '../../domain/accounts/userDecider.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { findUserByEmail } from '../../projections/accounts/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { type AccountDeps, codeHash, newCode } from './accountDeps.ts';

export async function verifyEmail(deps: AccountDeps, email: string, code: string, ctx: CommandContext) {
  const user = await findUserByEmail(deps.sql, email);
  // An unknown address gets the answer a wrong code gets: no account enumeration.
  if (!user) throw new DomainError(INVALID_CODE, 'invalid');
  const result = await deps.handlers.users.handle(
    user.id,
    { type: 'VerifyEmail', data: { userId: user.id, codeHash: codeHash(user.id, code) } },
    ctx,
  );
  if (result.events.some((e) => e.type === 'EmailVerificationFailed')) throw new DomainError(INVALID_CODE, 'invalid');
  return { userId: user.id, position: result.position };
}

export async function resendVerification(deps: AccountDeps, email: string, ctx: CommandContext) {
  const user = await findUserByEmail(deps.sql, email);
  if (!user) return { position: null };
  const code = newCode();
  const result = await deps.handlers.users.handle(
    user.id,
    { type: 'IssueVerificationCode', data: { userId: user.id, code, codeHash: codeHash(user.id, code) } },
    ctx,
  );
  return { position: result.position };
}
