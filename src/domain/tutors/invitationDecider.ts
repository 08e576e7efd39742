import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import {
  evolveTutorInvitation,
  INVITATION_RESEND_INTERVAL_SECONDS,
  INVITATION_VALIDITY_DAYS,
  initialTutorInvitationState,
  openInvitation,
  type TutorInvitationEvent,
  type TutorInvitationState,
} from './invitation.ts';

export const INVALID_INVITATION_EMAIL = 'A valid e-mail address is required';
export const INVITATION_OUTSTANDING = 'An invitation to this address is already outstanding — resend it from the list';
export const INVITATION_NOT_FOUND = 'Invitation not found';
export const INVITATION_NOT_OUTSTANDING = 'This invitation is no longer outstanding: it was accepted, revoked or has expired';
export const INVITATION_RESENT_RECENTLY = `This invitation was sent less than a minute ago — wait a minute before sending it again`;
/** What an invitee whose invitation was withdrawn is told when they sign in with it. */
export const INVITATION_REVOKED = 'This invitation has been withdrawn';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type TutorInvitationCommand =
  | Command<'InviteTutor', { invitationId: string; email: string; signInUrl: string }>
  | Command<'ResendTutorInvitation', { invitationId: string }>
  | Command<'RevokeTutorInvitation', { invitationId: string }>
  | Command<'AcceptTutorInvitation', { applicationId: string }>;

/** The stream's latest invitation, outstanding at `now`, named by `invitationId`: resend and revoke act on nothing else. */
function outstanding(state: TutorInvitationState, invitationId: string, now: Date): void {
  // An older invitation of the address (replaced after it lapsed) is not this stream's any more.
  if (state.invitationId !== invitationId) throw new DomainError(INVITATION_NOT_FOUND, 'not_found');
  if (openInvitation(state, now) !== invitationId) throw new DomainError(INVITATION_NOT_OUTSTANDING, 'conflict');
}

/**
 * One outstanding invitation per address: inviting an address whose invitation is still open is
 * refused (the admin resends it instead), so a repeated or concurrent invite mails nothing more.
 * Once accepted, revoked or expired, inviting again opens a new one for `INVITATION_VALIDITY_DAYS` days.
 */
export const decideTutorInvitation = decideWith<TutorInvitationCommand, TutorInvitationEvent, TutorInvitationState>({
  InviteTutor: ({ data, metadata: { now, actorId } }, state) => {
    const email = data.email.trim().toLowerCase();
    if (email.length > 254 || !EMAIL.test(email)) throw new DomainError(INVALID_INVITATION_EMAIL, 'invalid');
    if (openInvitation(state, now)) throw new DomainError(INVITATION_OUTSTANDING, 'conflict');
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
  ResendTutorInvitation: ({ data, metadata: { now, actorId } }, state) => {
    outstanding(state, data.invitationId, now);
    const last = state.lastSentAt ? Date.parse(state.lastSentAt) : Number.NEGATIVE_INFINITY;
    if (now.getTime() - last < INVITATION_RESEND_INTERVAL_SECONDS * 1000) throw new DomainError(INVITATION_RESENT_RECENTLY, 'rate_limited');
    return [{ type: 'TutorInvitationResent', data: { invitationId: data.invitationId, resentBy: actorId ?? null, at: now.toISOString() } }];
  },
  RevokeTutorInvitation: ({ data, metadata: { now, actorId } }, state) => {
    outstanding(state, data.invitationId, now);
    return [
      { type: 'TutorInvitationRevoked', data: { invitationId: data.invitationId, revokedBy: actorId ?? null, at: now.toISOString() } },
    ];
  },
  /**
   * An applicant signs in: the open invitation of their address is accepted by their application
   * (once: signing in again accepts nothing new); a revoked one is refused, so the link stops
   * working. No invitation, or an expired one, leaves the application unlinked, as before.
   */
  AcceptTutorInvitation: ({ data, metadata: { now } }, state) => {
    if (state.status === 'revoked') throw new DomainError(INVITATION_REVOKED, 'forbidden');
    const open = openInvitation(state, now);
    if (!open) return [];
    return [{ type: 'TutorInvitationAccepted', data: { invitationId: open, applicationId: data.applicationId, at: now.toISOString() } }];
  },
});

/** The invitation an application links: the latest one, when this application accepted it. */
export const acceptedInvitation = (state: TutorInvitationState, applicationId: string): string | null =>
  state.status === 'accepted' && state.acceptedBy === applicationId ? state.invitationId : null;

export const tutorInvitationDecider: Decider<TutorInvitationCommand, TutorInvitationEvent, TutorInvitationState> = {
  initialState: initialTutorInvitationState,
  evolve: evolveTutorInvitation,
  decide: decideTutorInvitation,
};
