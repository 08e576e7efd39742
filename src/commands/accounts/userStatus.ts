import { ALREADY_DEACTIVATED } from '../../domain/accounts/userDecider.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import type { AccountDeps } from './accountDeps.ts';

/**
 * An admin deactivates an account (issue 12 §2): the user stream records it with the reason, then
 * the sign-in store suspends the user, so their cookies (and their students' view-only ones) stop
 * working on the next request. The suspension follows the event, never precedes it: a refused
 * command suspends nobody. "Already deactivated" suspends again, so a request that died between
 * the two steps is mended by the next attempt, whichever key it carries.
 */
export async function deactivateUser(
  deps: Pick<AccountDeps, 'handlers' | 'signIns'>,
  input: { userId: string; reason: string },
  ctx: CommandContext,
) {
  try {
    const result = await deps.handlers.users.handle(input.userId, { type: 'DeactivateUser', data: input }, ctx);
    // A retried request answers from the stream: it suspends only if no reactivation came since.
    if ((await deps.handlers.users.load(input.userId)).deactivated) await deps.signIns.suspend(input.userId);
    return result;
  } catch (error) {
    if (error instanceof DomainError && error.message === ALREADY_DEACTIVATED) await deps.signIns.suspend(input.userId);
    throw error;
  }
}

/** An admin lifts the deactivation: recorded first, then sign-in may open sessions again. */
export async function reactivateUser(
  deps: Pick<AccountDeps, 'handlers' | 'signIns'>,
  input: { userId: string; reason: string },
  ctx: CommandContext,
) {
  const result = await deps.handlers.users.handle(input.userId, { type: 'ReactivateUser', data: input }, ctx);
  // A retry of a reactivation already recorded must not lift a later deactivation.
  const state = await deps.handlers.users.load(input.userId);
  if (!state.deactivated) await deps.signIns.resume(input.userId);
  return result;
}
