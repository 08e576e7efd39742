import type { TutorApplicationEvent } from '../accounts/tutorApplication.ts';
import type { Workflow } from '../kit/workflow.ts';

/**
 * What a reviewed application sets off, per applicant: an approval registers the tutor's account
 * (Google sign-in, verified, no password) and creates the tutor profile, then shreds the
 * applicant's key (the account holds the data now, so deleting it erases everything); a denial shreds the
 * applicant's key (and the invitation's: it holds the address), after queueing the decision mail
 * with the address under a key of its own (`decisionMailSubject`). The state holds no personal
 * data: the runner reads the application's (sealed) fields from its stream when it registers.
 */
export interface TutorReviewState {
  done: boolean;
}

export type TutorReviewStep =
  | { step: 'register-tutor'; target: 'tutorAccount'; applicantId: string; applicationId: string }
  /** The decision mail to a denied applicant, queued with their address before the shredding takes it. */
  | { step: 'mail-decision'; target: 'decisionMail'; applicantId: string; applicationId: string }
  | { step: string; target: 'personalData'; subject: string };

/**
 * The key that keeps a denied applicant's address (and first name) only until their decision
 * mail is sent: the mail worker shreds it once the mail is out (or its last attempt failed).
 */
export const decisionMailSubject = (applicationId: string) => `tutorDecision-${applicationId}`;

export const tutorReviewWorkflow: Workflow<TutorApplicationEvent, TutorReviewState, TutorReviewStep> = {
  name: 'tutor_review',
  handles: ['TutorApplicationApproved', 'TutorApplicationDenied'],
  instanceOf: (event) => (event.type === 'TutorApplicationApproved' || event.type === 'TutorApplicationDenied' ? event.data.userId : null),
  initialState: { done: false },
  evolve: (state, event) => (event.type === 'TutorApplicationApproved' || event.type === 'TutorApplicationDenied' ? { done: true } : state),
  isFinished: (state) => state.done,
  react(_state, event) {
    // Once registered, the tutor's data lives in the account (sealed with its key, erased with it): the applicant's copy is shredded.
    if (event.type === 'TutorApplicationApproved')
      return [
        { step: 'register-tutor', target: 'tutorAccount', applicantId: event.data.userId, applicationId: event.data.applicationId },
        { step: 'shred-applicant', target: 'personalData', subject: `user-${event.data.userId}` },
      ];
    if (event.type !== 'TutorApplicationDenied') return [];
    // The decision mail is queued first: the shredding below takes the address it is sent to.
    const steps: TutorReviewStep[] = [
      { step: 'mail-decision', target: 'decisionMail', applicantId: event.data.userId, applicationId: event.data.applicationId },
    ];
    if (event.data.invitationId)
      steps.push({ step: 'shred-invitation', target: 'personalData', subject: `tutorInvitation-${event.data.invitationId}` });
    steps.push({ step: 'shred-applicant', target: 'personalData', subject: `user-${event.data.userId}` });
    return steps;
  },
};
