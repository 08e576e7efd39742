import type { Sql } from '../../adapters/db/db.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { INVITATION_NOT_FOUND } from '../../domain/tutors/invitationDecider.ts';
import { findTutorInvitationStream } from '../../projections/tutors/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { invitationStreamOf, type TutorHandlers } from './tutorHandlers.ts';

/**
 * The stream of an invitation the console lists. The read model only finds the stream; the
 * stream decides (its latest invitation must be this one, still outstanding). An unknown id, or
 * one whose address was erased, is not found and nothing is appended.
 */
async function streamOf(sql: Sql, invitationId: string): Promise<string> {
  const found = await findTutorInvitationStream(sql, invitationId);
  const streamId = found?.streamId ?? (found && found.email.includes('@') ? invitationStreamOf(found.email) : null);
  if (!streamId?.startsWith('tutorInvitation-')) throw new DomainError(INVITATION_NOT_FOUND, 'not_found');
  return streamId;
}

/** An admin mails an outstanding invitation again (at most once a minute); the mail saga sends it. */
export async function resendTutorInvitation(
  handlers: Pick<TutorHandlers, 'invitationStreams'>,
  sql: Sql,
  invitationId: string,
  ctx: CommandContext,
) {
  const streamId = await streamOf(sql, invitationId);
  const result = await handlers.invitationStreams.handle(streamId, { type: 'ResendTutorInvitation', data: { invitationId } }, ctx);
  return { position: result.position };
}

/** An admin withdraws an outstanding invitation: signing in with it is refused from now on. */
export async function revokeTutorInvitation(
  handlers: Pick<TutorHandlers, 'invitationStreams'>,
  sql: Sql,
  invitationId: string,
  ctx: CommandContext,
) {
  const streamId = await streamOf(sql, invitationId);
  const result = await handlers.invitationStreams.handle(streamId, { type: 'RevokeTutorInvitation', data: { invitationId } }, ctx);
  return { position: result.position };
}
