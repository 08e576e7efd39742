import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/** An invitation lasts 14 days: long enough for a busy tutor, short enough that a stale address is not trusted for long. */
export const INVITATION_VALIDITY_DAYS = 14;
/** An invitation is mailed again at most once a minute: a double click or an impatient admin sends one mail, not a flood. */
export const INVITATION_RESEND_INTERVAL_SECONDS = 60;

export const tutorInvited = z.object({
  invitationId: z.string(),
  email: z.string(),
  invitedBy: z.string().nullable(),
  /** The tutor sign-in page the invitation e-mail links to (`${PUBLIC_URL}/tutor-login`). */
  signInUrl: z.string(),
  expiresAt: z.string(),
  at: z.string(),
});
/** The same invitation mailed again (same link, same expiry); the mail saga reads the address from `TutorInvited`. */
export const tutorInvitationResent = z.object({ invitationId: z.string(), resentBy: z.string().nullable(), at: z.string() });
/** An admin withdrew the invitation: signing in with it is refused from now on. */
export const tutorInvitationRevoked = z.object({ invitationId: z.string(), revokedBy: z.string().nullable(), at: z.string() });
/** The invitee signed in and applied: the application names the invitation. */
export const tutorInvitationAccepted = z.object({ invitationId: z.string(), applicationId: z.string(), at: z.string() });

export const tutorInvitationEvents = {
  TutorInvited: eventType(tutorInvited, {
    // The address is the invitee's: sealed with the invitation's own key, shredded with a denied application.
    personal: { fields: ['email'], subject: (d) => `tutorInvitation-${d.invitationId}` },
    describe: () => 'Tutor invited',
  }),
  TutorInvitationResent: eventType(tutorInvitationResent, { describe: () => 'Tutor invitation sent again' }),
  TutorInvitationRevoked: eventType(tutorInvitationRevoked, { describe: () => 'Tutor invitation revoked' }),
  TutorInvitationAccepted: eventType(tutorInvitationAccepted, { describe: () => 'Tutor invitation accepted by an application' }),
};

export type TutorInvitationEvent = EventsOf<typeof tutorInvitationEvents>;
export type TutorInvitationStatus = 'none' | 'sent' | 'accepted' | 'revoked';
export interface TutorInvitationState {
  /** The latest invitation of the address: once it is no longer outstanding, inviting again opens a new one. */
  invitationId: string | null;
  expiresAt: string | null;
  status: TutorInvitationStatus;
  /** When the latest invitation was last mailed (invited or resent): the resend interval counts from it. */
  lastSentAt: string | null;
  /** The application that accepted the latest invitation. */
  acceptedBy: string | null;
}
export const initialTutorInvitationState: TutorInvitationState = {
  invitationId: null,
  expiresAt: null,
  status: 'none',
  lastSentAt: null,
  acceptedBy: null,
};
export const evolveTutorInvitation = (state: TutorInvitationState, event: TutorInvitationEvent): TutorInvitationState => {
  switch (event.type) {
    case 'TutorInvited':
      return {
        invitationId: event.data.invitationId,
        expiresAt: event.data.expiresAt,
        status: 'sent',
        lastSentAt: event.data.at,
        acceptedBy: null,
      };
    case 'TutorInvitationResent':
      return { ...state, lastSentAt: event.data.at };
    case 'TutorInvitationRevoked':
      return { ...state, status: 'revoked' };
    case 'TutorInvitationAccepted':
      return { ...state, status: 'accepted', acceptedBy: event.data.applicationId };
  }
};

/** The invitation still open at `now` (sent, neither accepted nor revoked, not expired), if any. */
export const openInvitation = (state: TutorInvitationState, now: Date): string | null =>
  state.status === 'sent' && state.invitationId && state.expiresAt && Date.parse(state.expiresAt) > now.getTime()
    ? state.invitationId
    : null;

/**
 * Invitations are keyed by the address, never in clear: the stream is named by a hash (a
 * name-based UUID of `invitationKeyName(email)`, computed by the command layer: the domain hashes nothing).
 */
export const invitationKeyName = (email: string) => `tutor-invitation/${email.trim().toLowerCase()}`;
export const tutorInvitationStreamId = (emailKey: string) => `tutorInvitation-${emailKey}`;
