import { describe, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import type { TutorApplicationEvent } from './tutorApplication.ts';
import {
  TUTOR_APPLICATION_ALREADY_APPROVED,
  TUTOR_APPLICATION_ALREADY_REJECTED,
  TUTOR_APPLICATION_APPROVED_CANNOT_CHANGE,
  TUTOR_APPLICATION_DENIED,
  TUTOR_APPLICATION_NOT_FOUND,
  TUTOR_APPLICATION_REJECTED,
  type TutorApplicationCommand,
  tutorApplicationDecider,
} from './tutorApplicationDecider.ts';

const now = new Date('2026-11-23T12:00:00.000Z');
const at = now.toISOString();
const metadata = { now, actorId: 'admin-1', actorRole: 'admin' };
const spec = deciderSpec(tutorApplicationDecider);
const submission = { applicationId: 'a', userId: 'u', email: 't@example.com', firstName: 'Tia', lastName: 'Moss', googleId: 'g' };
const submitted: TutorApplicationEvent = {
  type: 'TutorApplicationSubmitted',
  data: { ...submission, invitationId: 'inv', termsAcceptedVersion: null, termsAcceptedIp: null, at },
};
const review = { applicationId: 'a', userId: 'u', reviewedBy: 'admin-1', at };
const approved: TutorApplicationEvent = { type: 'TutorApplicationApproved', data: review };
const rejected: TutorApplicationEvent = { type: 'TutorApplicationRejected', data: review };
const denied: TutorApplicationEvent = { type: 'TutorApplicationDenied', data: { ...review, invitationId: 'inv' } };
const approve: TutorApplicationCommand = { type: 'ApproveTutorApplication', data: { userId: 'u' }, metadata };
const reject: TutorApplicationCommand = { type: 'RejectTutorApplication', data: { userId: 'u' }, metadata };
const deny: TutorApplicationCommand = { type: 'DenyTutorApplication', data: { userId: 'u' }, metadata };

describe('tutor application decider', () => {
  it('submits once, linked to the invitation; signing in again applies no second time, whatever became of it', () => {
    spec
      .given([])
      .when({ type: 'SubmitTutorApplication', data: { ...submission, invitationId: 'inv' }, metadata })
      .thenEvents([submitted]);
    spec
      .given([])
      .when({ type: 'SubmitTutorApplication', data: submission, metadata })
      .thenEvents([
        {
          type: 'TutorApplicationSubmitted',
          data: { ...submission, invitationId: null, termsAcceptedVersion: null, termsAcceptedIp: null, at },
        },
      ]);
    // The agreement accepted on /tutor-signup is recorded with the address it was accepted from.
    spec
      .given([])
      .when({
        type: 'SubmitTutorApplication',
        data: { ...submission, termsAcceptedVersion: '1.0', termsAcceptedIp: '203.0.113.9' },
        metadata,
      })
      .thenEvents([
        {
          type: 'TutorApplicationSubmitted',
          data: { ...submission, invitationId: null, termsAcceptedVersion: '1.0', termsAcceptedIp: '203.0.113.9', at },
        },
      ]);
    for (const given of [[submitted], [submitted, approved], [submitted, rejected], [submitted, denied]]) {
      spec.given(given).when({ type: 'SubmitTutorApplication', data: submission, metadata }).thenNothing();
    }
  });

  it('submitted → approved, recording who reviewed', () => {
    spec.given([submitted]).when(approve).thenEvents([approved]);
  });

  it('submitted → rejected', () => {
    spec.given([submitted]).when(reject).thenEvents([rejected]);
  });

  it('submitted → denied and rejected → denied, naming the invitation whose key is shredded too', () => {
    spec.given([submitted]).when(deny).thenEvents([denied]);
    spec.given([submitted, rejected]).when(deny).thenEvents([denied]);
  });

  it('refuses to approve twice, or a rejected or denied application (409)', () => {
    spec.given([submitted, approved]).when(approve).thenThrows(TUTOR_APPLICATION_ALREADY_APPROVED, 'conflict');
    spec.given([submitted, rejected]).when(approve).thenThrows(TUTOR_APPLICATION_REJECTED, 'conflict');
    spec.given([submitted, denied]).when(approve).thenThrows(TUTOR_APPLICATION_DENIED, 'conflict');
    spec.given([submitted, rejected, denied]).when(approve).thenThrows(TUTOR_APPLICATION_DENIED, 'conflict');
  });

  it('refuses to reject twice, an approved or a denied application (409)', () => {
    spec.given([submitted, rejected]).when(reject).thenThrows(TUTOR_APPLICATION_ALREADY_REJECTED, 'conflict');
    spec.given([submitted, approved]).when(reject).thenThrows(TUTOR_APPLICATION_APPROVED_CANNOT_CHANGE, 'conflict');
    spec.given([submitted, denied]).when(reject).thenThrows(TUTOR_APPLICATION_DENIED, 'conflict');
  });

  it('refuses to deny an approved application (409); denying twice changes nothing', () => {
    spec.given([submitted, approved]).when(deny).thenThrows(TUTOR_APPLICATION_APPROVED_CANNOT_CHANGE, 'conflict');
    spec.given([submitted, denied]).when(deny).thenNothing();
  });

  it('knows no review of an application never submitted (404)', () => {
    for (const command of [approve, reject, deny]) spec.given([]).when(command).thenThrows(TUTOR_APPLICATION_NOT_FOUND, 'not_found');
  });
});
