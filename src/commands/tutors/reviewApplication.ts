import type { CommandContext } from '../kit/commandContext.ts';
import type { TutorHandlers } from './tutorHandlers.ts';

export type Review = 'approve' | 'reject' | 'deny';
const commandOf = { approve: 'ApproveTutorApplication', reject: 'RejectTutorApplication', deny: 'DenyTutorApplication' } as const;

/**
 * An admin reviews the application of applicant `applicantId`. What follows is the workflows':
 * approval registers the tutor's account and profile, denial shreds the applicant's key; the
 * mail saga writes to the applicant about an approval or a rejection.
 */
export async function reviewTutorApplication(
  handlers: Pick<TutorHandlers, 'applications'>,
  applicantId: string,
  review: Review,
  ctx: CommandContext,
) {
  const result = await handlers.applications.handle(applicantId, { type: commandOf[review], data: { userId: applicantId } }, ctx);
  return { position: result.position };
}
