import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import type { DataOf } from '../kit/eventDefinition.ts';
import {
  evolveTutorApplication,
  initialTutorApplicationState,
  type TutorApplicationEvent,
  type TutorApplicationState,
  type tutorApplicationEvents,
} from './tutorApplication.ts';

export const TUTOR_APPLICATION_NOT_FOUND = 'Tutor application not found';
export const TUTOR_APPLICATION_ALREADY_APPROVED = 'This tutor application has already been approved';
export const TUTOR_APPLICATION_REJECTED = 'This tutor application was rejected and can no longer be approved';
export const TUTOR_APPLICATION_DENIED = "This tutor application was denied and the applicant's data erased";
export const TUTOR_APPLICATION_ALREADY_REJECTED = 'This tutor application has already been rejected';
export const TUTOR_APPLICATION_APPROVED_CANNOT_CHANGE =
  'This tutor application has been approved: the tutor has an account, which must be deleted instead';

type Submission = Omit<
  DataOf<typeof tutorApplicationEvents, 'TutorApplicationSubmitted'>,
  'at' | 'invitationId' | 'termsAcceptedVersion' | 'termsAcceptedIp'
> & {
  invitationId?: string | null;
  termsAcceptedVersion?: string | null;
  termsAcceptedIp?: string | null;
};
type Review = { userId: string };

export type TutorApplicationCommand =
  | Command<'SubmitTutorApplication', Submission>
  | Command<'ApproveTutorApplication', Review>
  | Command<'RejectTutorApplication', Review>
  | Command<'DenyTutorApplication', Review>;

/** Only a submitted application may be approved; the refusals say why (409 `conflict`). */
function reviewable(state: TutorApplicationState): string {
  switch (state.status) {
    case 'none':
      throw new DomainError(TUTOR_APPLICATION_NOT_FOUND, 'not_found');
    case 'approved':
      throw new DomainError(TUTOR_APPLICATION_ALREADY_APPROVED, 'conflict');
    case 'rejected':
      throw new DomainError(TUTOR_APPLICATION_REJECTED, 'conflict');
    case 'denied':
      throw new DomainError(TUTOR_APPLICATION_DENIED, 'conflict');
    case 'submitted':
      return state.applicationId ?? '';
  }
}

/**
 * submitted → approved | rejected | denied; rejected → denied (erasure stays possible).
 * Approving or rejecting twice, or anything after a denial, is a conflict; denying twice changes
 * nothing (the data is already erased). Signing in again as an applicant does not apply twice,
 * whatever became of the application.
 */
export const decideTutorApplication = decideWith<TutorApplicationCommand, TutorApplicationEvent, TutorApplicationState>({
  SubmitTutorApplication: ({ data, metadata: { now } }, state) =>
    state.status !== 'none'
      ? []
      : [
          {
            type: 'TutorApplicationSubmitted',
            data: {
              ...data,
              invitationId: data.invitationId ?? null,
              termsAcceptedVersion: data.termsAcceptedVersion ?? null,
              termsAcceptedIp: data.termsAcceptedVersion ? (data.termsAcceptedIp ?? null) : null,
              at: now.toISOString(),
            },
          },
        ],
  ApproveTutorApplication: ({ data, metadata: { now, actorId } }, state) => {
    const applicationId = reviewable(state);
    return [
      {
        type: 'TutorApplicationApproved',
        data: { applicationId, userId: data.userId, reviewedBy: actorId ?? null, at: now.toISOString() },
      },
    ];
  },
  RejectTutorApplication: ({ data, metadata: { now, actorId } }, state) => {
    if (state.status === 'rejected') throw new DomainError(TUTOR_APPLICATION_ALREADY_REJECTED, 'conflict');
    if (state.status === 'approved') throw new DomainError(TUTOR_APPLICATION_APPROVED_CANNOT_CHANGE, 'conflict');
    const applicationId = reviewable(state);
    return [
      {
        type: 'TutorApplicationRejected',
        data: { applicationId, userId: data.userId, reviewedBy: actorId ?? null, at: now.toISOString() },
      },
    ];
  },
  DenyTutorApplication: ({ data, metadata: { now, actorId } }, state) => {
    if (state.status === 'denied') return [];
    if (state.status === 'none') throw new DomainError(TUTOR_APPLICATION_NOT_FOUND, 'not_found');
    if (state.status === 'approved') throw new DomainError(TUTOR_APPLICATION_APPROVED_CANNOT_CHANGE, 'conflict');
    return [
      {
        type: 'TutorApplicationDenied',
        data: {
          applicationId: state.applicationId ?? '',
          userId: data.userId,
          invitationId: state.invitationId,
          reviewedBy: actorId ?? null,
          at: now.toISOString(),
        },
      },
    ];
  },
});

export const tutorApplicationDecider: Decider<TutorApplicationCommand, TutorApplicationEvent, TutorApplicationState> = {
  initialState: initialTutorApplicationState,
  evolve: evolveTutorApplication,
  decide: decideTutorApplication,
};
