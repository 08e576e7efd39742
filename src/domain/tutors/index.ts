import { tutorInvitationEvents } from './invitation.ts';
import { tutorEvents } from './tutor.ts';

/** Every event type of the tutors feature, aggregate by aggregate. */
export const tutorFeatureEvents = { ...tutorInvitationEvents, ...tutorEvents };
