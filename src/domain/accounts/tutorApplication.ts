import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/** A tutor who signed in with Google and awaits review (the admin side comes with the tutors feature). */
export const tutorApplicationSubmitted = z.object({
  applicationId: z.string(),
  userId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  googleId: z.string().nullable(),
  at: z.string(),
});

export const tutorApplicationEvents = {
  TutorApplicationSubmitted: eventType(tutorApplicationSubmitted, {
    personal: { fields: ['email', 'firstName', 'lastName', 'googleId'], subject: (d) => `user-${d.userId}` },
    describe: () => 'Tutor application submitted',
  }),
};

export type TutorApplicationEvent = EventsOf<typeof tutorApplicationEvents>;
export interface TutorApplicationState {
  submitted: boolean;
}
export const initialTutorApplicationState: TutorApplicationState = { submitted: false };
export const evolveTutorApplication = (_state: TutorApplicationState, _event: TutorApplicationEvent): TutorApplicationState => ({
  submitted: true,
});

export const tutorApplicationStreamId = (applicantId: string) => `tutorApplication-${applicantId}`;
