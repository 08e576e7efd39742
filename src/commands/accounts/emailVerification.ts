import { ALREADY_VERIFIED, INVALID_CODE } from '../../domain/accounts/userDecider.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { findUserByEmail } from '../../projections/accounts/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { type AccountDeps, codeHash, newCode } from './accountDeps.ts';

/**
 * No account enumeration: an address that is verified, deleted or unknown gets the answer an
 * unknown one gets (a wrong code to verify, "sent" to resend).
 */
const answersAsUnknown = (error: unknown) =>
  error instanceof DomainError && (error.message === ALREADY_VERIFIED || error.kind === 'not_found');

export async function verifyEmail(deps: AccountDeps, email: string, code: string, ctx: CommandContext) {
  const user = await findUserByEmail(deps.sql, email);
  if (!user) throw new DomainError(INVALID_CODE, 'invalid');
  const result = await deps.handlers.users
    .handle(user.id, { type: 'VerifyEmail', data: { userId: user.id, codeHash: codeHash(user.id, code) } }, ctx)
    .catch((error: unknown) => {
      throw answersAsUnknown(error) ? new DomainError(INVALID_CODE, 'invalid') : error;
    });
  if (result.events.some((e) => e.type === 'EmailVerificationFailed')) throw new DomainError(INVALID_CODE, 'invalid');
  return { userId: user.id, position: result.position };
}

export async function resendVerification(deps: AccountDeps, email: string, ctx: CommandContext) {
  const user = await findUserByEmail(deps.sql, email);
  if (!user) return { position: null };
  const code = newCode();
  try {
    const result = await deps.handlers.users.handle(
      user.id,
      { type: 'IssueVerificationCode', data: { userId: user.id, code, codeHash: codeHash(user.id, code) } },
      ctx,
    );
    return { position: result.position };
  } catch (error) {
    if (answersAsUnknown(error)) return { position: null };
    throw error;
  }
}
