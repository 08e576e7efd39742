import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { tutorApplicationStreamId } from '../../domain/accounts/tutorApplication.ts';
import { tutorApplicationDecider } from '../../domain/accounts/tutorApplicationDecider.ts';
import { invitationKeyName, tutorInvitationStreamId } from '../../domain/tutors/invitation.ts';
import { tutorInvitationDecider } from '../../domain/tutors/invitationDecider.ts';
import { tutorStreamId } from '../../domain/tutors/tutor.ts';
import { tutorDecider } from '../../domain/tutors/tutorDecider.ts';
import { deterministicUuid } from '../kit/commandContext.ts';
import { commandHandler } from '../kit/handleCommand.ts';

/** The command handlers of the tutors feature: invitations, applications under review, tutor profiles. */
export function tutorHandlers(store: EventStore) {
  return {
    /** Keyed by the invitee's address (hashed: see `invitationStreamOf`). */
    invitations: commandHandler(store, tutorInvitationDecider, (email) => invitationStreamOf(email)),
    /** The same streams by their id, as the invitations list names them (resend, revoke). */
    invitationStreams: commandHandler(store, tutorInvitationDecider, (streamId) => streamId),
    applications: commandHandler(store, tutorApplicationDecider, tutorApplicationStreamId),
    tutors: commandHandler(store, tutorDecider, tutorStreamId),
  };
}
export type TutorHandlers = ReturnType<typeof tutorHandlers>;

/** The invitation stream of an address: a name-based UUID of the lower-cased address, never the address. */
export const invitationStreamOf = (email: string) => tutorInvitationStreamId(deterministicUuid(invitationKeyName(email)));
