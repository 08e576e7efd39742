import { type Command, type Decider, decideWith } from '../kit/decider.ts';
import type { DataOf } from '../kit/eventDefinition.ts';
import {
  evolveTutorApplication,
  initialTutorApplicationState,
  type TutorApplicationEvent,
  type TutorApplicationState,
  type tutorApplicationEvents,
} from './tutorApplication.ts';

export type TutorApplicationCommand = Command<
  'SubmitTutorApplication',
  Omit<DataOf<typeof tutorApplicationEvents, 'TutorApplicationSubmitted'>, 'at'>
>;

export const decideTutorApplication = decideWith<TutorApplicationCommand, TutorApplicationEvent, TutorApplicationState>({
  // Signing in again as an applicant does not apply twice.
  SubmitTutorApplication: ({ data, metadata: { now } }, state) =>
    state.submitted ? [] : [{ type: 'TutorApplicationSubmitted', data: { ...data, at: now.toISOString() } }],
});

export const tutorApplicationDecider: Decider<TutorApplicationCommand, TutorApplicationEvent, TutorApplicationState> = {
  initialState: initialTutorApplicationState,
  evolve: evolveTutorApplication,
  decide: decideTutorApplication,
};
