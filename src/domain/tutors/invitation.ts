import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/** An invitation lasts 14 days: long enough for a busy tutor, short enough that a stale address is not trusted for long. */
export const INVITATION_VALIDITY_DAYS = 14;

export const tutorInvited = z.object({
  invitationId: z.string(),
  email: z.string(),
  invitedBy: z.string().nullable(),
  /** The tutor sign-in page the invitation e-mail links to (`${PUBLIC_URL}/tutor-login`). */
  signInUrl: z.string(),
  expiresAt: z.string(),
  at: z.string(),
});

export const tutorInvitationEvents = {
  TutorInvited: eventType(tutorInvited, {
    // The address is the invitee's: sealed with the invitation's own key, shredded with a denied application.
    personal: { fields: ['email'], subject: (d) => `tutorInvitation-${d.invitationId}` },
    describe: () => 'Tutor invited',
  }),
};

export type TutorInvitationEvent = EventsOf<typeof tutorInvitationEvents>;
export interface TutorInvitationState {
  /** The latest invitation of the address: inviting again renews it. */
  invitationId: string | null;
  expiresAt: string | null;
}
export const initialTutorInvitationState: TutorInvitationState = { invitationId: null, expiresAt: null };
export const evolveTutorInvitation = (_state: TutorInvitationState, event: TutorInvitationEvent): TutorInvitationState => ({
  invitationId: event.data.invitationId,
  expiresAt: event.data.expiresAt,
});

/** The invitation still open at `now`, if any. */
export const openInvitation = (state: TutorInvitationState, now: Date): string | null =>
  state.invitationId && state.expiresAt && Date.parse(state.expiresAt) > now.getTime() ? state.invitationId : null;

/**
 * Invitations are keyed by the address, never in clear: the stream is named by a hash (a
 * name-based UUID of `invitationKeyName(email)`, computed by the command layer: the domain hashes nothing).
 */
export const invitationKeyName = (email: string) => `tutor-invitation/${email.trim().toLowerCase()}`;
export const tutorInvitationStreamId = (emailKey: string) => `tutorInvitation-${emailKey}`;
