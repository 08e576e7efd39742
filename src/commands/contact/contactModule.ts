import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { RateLimiter, type RateLimitRule, waitText } from '../../adapters/rateLimit/rateLimiter.ts';
import type { ContactMessageInput, HelpMessageInput } from '../../domain/contact/contactMessage.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import type { CurrentUser } from '../../projections/accounts/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { receiveContactMessage, receiveHelpMessage } from './receiveContactMessage.ts';

/** Help messages per account (the view-only login counts with its student's account); always on. */
export const HELP_USER_LIMIT: RateLimitRule = { limit: 10, windowSeconds: 3600 };

const tooManyHelpMessages = (retryAfterSeconds: number) =>
  `Too many help messages were sent from this account. Please try again in ${waitText(retryAfterSeconds)}.`;

/**
 * The contact feature, built once by system.ts: the public contact form and the student area's Help
 * dialog, each a contact message on its own stream (sealed, mailed by the contact saga). Which
 * student a help message may be about is the route's check.
 */
export function contactModule(deps: { store: EventStore; rateLimiter: RateLimiter }) {
  const { store, rateLimiter } = deps;
  return {
    /** Which projections a sent message's answer waits for. */
    projections: ['audit_log', 'contact_messages'] as const,

    /** A message from the public form; the sender gets a confirmation. */
    receive: (message: ContactMessageInput, ctx: CommandContext) => receiveContactMessage(store, message, ctx),

    /**
     * A signed-in family's help message about `studentId` (the route checked it is theirs) from
     * `sender`, the account signed in (a view-only login's is its student's): the reply goes to the
     * account's address, the name is the dialog's or the account's; at most HELP_USER_LIMIT an hour
     * per account.
     */
    async help(
      sender: Pick<CurrentUser, 'id' | 'email' | 'firstName' | 'lastName' | 'username'>,
      input: Pick<HelpMessageInput, 'name' | 'subject' | 'message'>,
      studentId: string | null,
      ctx: CommandContext,
    ) {
      const claim = await rateLimiter.claim(RateLimiter.key('help-user', sender.id), HELP_USER_LIMIT);
      if (!claim.allowed) throw new DomainError(tooManyHelpMessages(claim.retryAfterSeconds), 'rate_limited');
      const name = input.name?.trim() || `${sender.firstName} ${sender.lastName}`.trim() || sender.username;
      const { subject, message } = input;
      return receiveHelpMessage(store, { name, email: sender.email, subject, message, studentId }, sender.id, ctx);
    },
  };
}

export type ContactModule = ReturnType<typeof contactModule>;
