import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import {
  evolveTutorInvitation,
  INVITATION_VALIDITY_DAYS,
  initialTutorInvitationState,
  type TutorInvitationEvent,
  type TutorInvitationState,
} from './invitation.ts';

export const INVALID_INVITATION_EMAIL = 'A valid e-mail address is required';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type TutorInvitationCommand = Command<'InviteTutor', { invitationId: string; email: string; signInUrl: string }>;

/** Inviting an address (again) opens an invitation for `INVITATION_VALIDITY_DAYS` days; the latest one counts. */
export const decideTutorInvitation = decideWith<TutorInvitationCommand, TutorInvitationEvent, TutorInvitationState>({
  InviteTutor: ({ data, metadata: { now, actorId } }) => {
    const email = data.email.trim().toLowerCase();
    if (email.length > 254 || !EMAIL.test(email)) throw new DomainError(INVALID_INVITATION_EMAIL, 'invalid');
    const expiresAt = new Date(now.getTime() + INVITATION_VALIDITY_DAYS * 86_400_000).toISOString();
    return [
      {
        type: 'TutorInvited',
        data: {
          invitationId: data.invitationId,
          email,
          signInUrl: data.signInUrl,
          invitedBy: actorId ?? null,
          expiresAt,
          at: now.toISOString(),
        },
      },
    ];
  },
});

export const tutorInvitationDecider: Decider<TutorInvitationCommand, TutorInvitationEvent, TutorInvitationState> = {
  initialState: initialTutorInvitationState,
  evolve: evolveTutorInvitation,
  decide: decideTutorInvitation,
};
