import type { CommandContext } from '../kit/commandContext.ts';
import type { TutorHandlers } from './tutorHandlers.ts';

/** The tutor (or an admin) edits the bio and/or years of experience; the decider trims and checks them. */
export function editTutorProfile(
  handlers: Pick<TutorHandlers, 'tutors'>,
  tutorId: string,
  changes: { bio?: string | undefined; experience?: number | null | undefined },
  ctx: CommandContext,
) {
  const data: { tutorId: string; bio?: string; experience?: number | null } = { tutorId };
  if (changes.bio !== undefined) data.bio = changes.bio;
  if (changes.experience !== undefined) data.experience = changes.experience;
  return handlers.tutors.handle(tutorId, { type: 'EditTutorProfile', data }, ctx);
}
