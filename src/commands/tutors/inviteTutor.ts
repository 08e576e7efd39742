import type { CommandContext } from '../kit/commandContext.ts';
import { deterministicUuid } from '../kit/commandContext.ts';
import type { TutorHandlers } from './tutorHandlers.ts';

/** An admin invites an address to apply as a tutor; the mail saga sends the sign-in link. */
export async function inviteTutor(handlers: Pick<TutorHandlers, 'invitations'>, email: string, signInUrl: string, ctx: CommandContext) {
  const invitationId = deterministicUuid(`tutor-invitation/${ctx.commandId}`);
  const result = await handlers.invitations.handle(email, { type: 'InviteTutor', data: { invitationId, email, signInUrl } }, ctx);
  const invited = result.events.find((e) => e.type === 'TutorInvited');
  return { invitationId, expiresAt: invited?.data.expiresAt ?? null, position: result.position };
}
