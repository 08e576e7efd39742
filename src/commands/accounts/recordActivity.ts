import type { EventStore, Position } from '../../adapters/eventstore/eventStore.ts';
import type { UserState } from '../../domain/accounts/user.ts';
import { type UserActivityEvent, userActivityStreamId } from '../../domain/accounts/userActivity.ts';
import { decideUserActivity, type UserActivityCommand } from '../../domain/accounts/userActivityDecider.ts';
import type { CommandInput } from '../../domain/kit/decider.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { appendFacts } from '../kit/handleCommand.ts';

/**
 * Decides on the account's state and records on its activity stream. The activity stream holds
 * facts no decision reads back, so it is appended with `any`: sign-ins never contend with the
 * account's own commands. Event ids derive from the command id: a retry records nothing twice.
 */
export async function recordActivity(
  store: EventStore,
  user: UserState,
  input: CommandInput<UserActivityCommand>,
  ctx: CommandContext,
): Promise<{ events: UserActivityEvent[]; position: Position | null }> {
  const command = { ...input, metadata: { now: ctx.now, actorId: ctx.actorId, actorRole: ctx.actorRole } } as UserActivityCommand;
  const events = decideUserActivity(command, user);
  if (events.length === 0) return { events, position: null };
  const result = await appendFacts(store, userActivityStreamId(command.data.userId), events, ctx);
  return { events, position: result.position };
}
