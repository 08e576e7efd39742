import { describe, expect, it } from 'vitest';
import type { TutorApplicationEvent } from '../accounts/tutorApplication.ts';
import { stepsAfter } from '../kit/workflow.ts';
import { tutorReviewWorkflow } from './tutorReview.ts';

const at = '2026-11-23T12:00:00.000Z';
const review = { applicationId: 'a', userId: 'u', reviewedBy: 'admin', at };

describe('tutor review workflow', () => {
  it("an approval registers the tutor (account and profile), then shreds the applicant's copy", () => {
    const approved: TutorApplicationEvent = { type: 'TutorApplicationApproved', data: review };
    expect(stepsAfter(tutorReviewWorkflow, [], approved)).toEqual([
      { step: 'register-tutor', target: 'tutorAccount', applicantId: 'u', applicationId: 'a' },
      { step: 'shred-applicant', target: 'personalData', subject: 'user-u' },
    ]);
    expect(tutorReviewWorkflow.isFinished(tutorReviewWorkflow.evolve(tutorReviewWorkflow.initialState, approved))).toBe(true);
  });

  it("a denial queues the decision mail, then shreds the invitation's key, then the applicant's", () => {
    const mail = { step: 'mail-decision', target: 'decisionMail', applicantId: 'u', applicationId: 'a' };
    expect(stepsAfter(tutorReviewWorkflow, [], { type: 'TutorApplicationDenied', data: { ...review, invitationId: 'i' } })).toEqual([
      mail,
      { step: 'shred-invitation', target: 'personalData', subject: 'tutorInvitation-i' },
      { step: 'shred-applicant', target: 'personalData', subject: 'user-u' },
    ]);
    expect(stepsAfter(tutorReviewWorkflow, [], { type: 'TutorApplicationDenied', data: { ...review, invitationId: null } })).toEqual([
      mail,
      { step: 'shred-applicant', target: 'personalData', subject: 'user-u' },
    ]);
  });

  it('a rejection takes no step', () => {
    expect(stepsAfter(tutorReviewWorkflow, [], { type: 'TutorApplicationRejected', data: review })).toEqual([]);
  });
});
