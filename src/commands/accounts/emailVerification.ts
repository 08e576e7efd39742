import { INVALID_CODE, userDecider, userStreamId } from '../../domain/accounts/userDecider.ts';
import { DomainError } from '../../domain/decider.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { handleCommand } from '../kit/handleCommand.ts';
import { type AccountDeps, codeHash, findUserByEmail, newCode } from './accountDeps.ts';

export async function verifyEmail(deps: AccountDeps, email: string, code: string, ctx: CommandContext) {
  const user = await findUserByEmail(deps.sql, email);
  // An unknown address gets the answer a wrong code gets: no account enumeration.
  if (!user) throw new DomainError(INVALID_CODE, 400);
  const result = await handleCommand(
    deps.store,
    userDecider,
    userStreamId(user.id),
    { type: 'VerifyEmail', userId: user.id, codeHash: codeHash(user.id, code), now: ctx.now },
    ctx,
  );
  if (result.events.some((e) => e.type === 'EmailVerificationFailed')) throw new DomainError(INVALID_CODE, 400);
  return { userId: user.id, position: result.position };
}

export async function resendVerification(deps: AccountDeps, email: string, ctx: CommandContext) {
  const user = await findUserByEmail(deps.sql, email);
  if (!user) return { position: null };
  const code = newCode();
  const result = await handleCommand(
    deps.store,
    userDecider,
    userStreamId(user.id),
    { type: 'IssueVerificationCode', userId: user.id, code, codeHash: codeHash(user.id, code), now: ctx.now },
    ctx,
  );
  return { position: result.position };
}
