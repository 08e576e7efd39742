import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/** The tutor's profile, created when an admin approves the application; onboarding fills it in later. */
export const tutorProfileCreated = z.object({
  tutorId: z.string(),
  userId: z.string(),
  applicationId: z.string(),
  hourlyRate: z.number().nullable(),
  onboardingCompleted: z.boolean(),
  at: z.string(),
});

export const tutorEvents = {
  TutorProfileCreated: eventType(tutorProfileCreated, { describe: () => 'Tutor profile created' }),
};

export type TutorEvent = EventsOf<typeof tutorEvents>;
export interface TutorState {
  exists: boolean;
  userId: string | null;
  hourlyRate: number | null;
  onboardingCompleted: boolean;
}
export const initialTutorState: TutorState = { exists: false, userId: null, hourlyRate: null, onboardingCompleted: false };
export const evolveTutor = (state: TutorState, event: TutorEvent): TutorState => {
  switch (event.type) {
    case 'TutorProfileCreated':
      return {
        exists: true,
        userId: event.data.userId,
        hourlyRate: event.data.hourlyRate,
        onboardingCompleted: event.data.onboardingCompleted,
      };
    default:
      return state;
  }
};

/** The tutor id is the tutor's user id. */
export const tutorStreamId = (tutorId: string) => `tutor-${tutorId}`;
