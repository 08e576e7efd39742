import { z } from 'zod';
import type { Decider } from '../decider.ts';
import { defineEvent } from '../eventDefinition.ts';

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

export type TutorApplicationEvent = { type: 'TutorApplicationSubmitted'; data: z.infer<typeof tutorApplicationSubmitted> };
export type TutorApplicationCommand = {
  type: 'SubmitTutorApplication';
  data: Omit<z.infer<typeof tutorApplicationSubmitted>, 'at'>;
  now: Date;
};

export const tutorApplicationDecider: Decider<TutorApplicationCommand, TutorApplicationEvent, { submitted: boolean }> = {
  initialState: { submitted: false },
  evolve: () => ({ submitted: true }),
  decide: (command, state) =>
    state.submitted ? [] : [{ type: 'TutorApplicationSubmitted', data: { ...command.data, at: command.now.toISOString() } }],
};

export const tutorApplicationEventCatalog = {
  TutorApplicationSubmitted: defineEvent({
    schema: tutorApplicationSubmitted,
    personal: { fields: ['email', 'firstName', 'lastName', 'googleId'], subject: (d: { userId: string }) => `user-${d.userId}` },
    describe: () => 'Tutor application submitted',
  }),
};

export const tutorApplicationStreamId = (userId: string) => `tutorApplication-${userId}`;
