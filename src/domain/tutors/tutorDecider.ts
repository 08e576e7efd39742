import { type Command, type Decider, decideWith } from '../kit/decider.ts';
import { evolveTutor, initialTutorState, type TutorEvent, type TutorState } from './tutor.ts';

export type TutorCommand = Command<'CreateTutorProfile', { tutorId: string; userId: string; applicationId: string }>;

/** A new tutor starts without an hourly rate and with onboarding to do; creating again changes nothing. */
export const decideTutor = decideWith<TutorCommand, TutorEvent, TutorState>({
  CreateTutorProfile: ({ data, metadata: { now } }, state) =>
    state.exists
      ? []
      : [{ type: 'TutorProfileCreated', data: { ...data, hourlyRate: null, onboardingCompleted: false, at: now.toISOString() } }],
});

export const tutorDecider: Decider<TutorCommand, TutorEvent, TutorState> = {
  initialState: initialTutorState,
  evolve: evolveTutor,
  decide: decideTutor,
};
