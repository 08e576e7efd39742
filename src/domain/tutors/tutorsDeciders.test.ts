import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { INVITATION_VALIDITY_DAYS, initialTutorInvitationState, invitationKeyName, openInvitation } from './invitation.ts';
import { INVALID_INVITATION_EMAIL, tutorInvitationDecider } from './invitationDecider.ts';
import { tutorDecider } from './tutorDecider.ts';

const now = new Date('2026-11-23T12:00:00.000Z');
const at = now.toISOString();
const metadata = { now, actorId: 'admin-1', actorRole: 'admin' };
const signInUrl = 'https://topmark.test/tutor-login';
const expiresAt = '2026-12-07T12:00:00.000Z';
const invited = {
  type: 'TutorInvited' as const,
  data: { invitationId: 'i1', email: 't@example.com', signInUrl, invitedBy: 'admin-1', expiresAt, at },
};

describe('tutor invitation decider', () => {
  const spec = deciderSpec(tutorInvitationDecider);
  it(`invites a trimmed, lower-cased address for ${INVITATION_VALIDITY_DAYS} days`, () => {
    spec
      .given([])
      .when({ type: 'InviteTutor', data: { invitationId: 'i1', email: '  T@Example.com ', signInUrl }, metadata })
      .thenEvents([invited]);
  });
  it('inviting again renews the invitation', () => {
    spec
      .given([invited])
      .when({ type: 'InviteTutor', data: { invitationId: 'i2', email: 't@example.com', signInUrl }, metadata })
      .thenEvents([{ ...invited, data: { ...invited.data, invitationId: 'i2' } }]);
  });
  it('refuses an invalid address', () => {
    for (const email of ['', 'nobody', 'a@b', 'a b@c.d'])
      spec
        .given([])
        .when({ type: 'InviteTutor', data: { invitationId: 'i', email, signInUrl }, metadata })
        .thenThrows(INVALID_INVITATION_EMAIL, 'invalid');
  });
  it('is open until it expires, keyed by the lower-cased address', () => {
    const state = tutorInvitationDecider.evolve(initialTutorInvitationState, invited);
    expect(openInvitation(state, now)).toBe('i1');
    expect(openInvitation(state, new Date(expiresAt))).toBeNull();
    expect(openInvitation(initialTutorInvitationState, now)).toBeNull();
    expect(invitationKeyName(' T@Example.COM ')).toBe(invitationKeyName('t@example.com'));
  });
});

describe('tutor profile decider', () => {
  const spec = deciderSpec(tutorDecider);
  const data = { tutorId: 'u', userId: 'u', applicationId: 'a' };
  const created = { type: 'TutorProfileCreated' as const, data: { ...data, hourlyRate: null, onboardingCompleted: false, at } };
  it('creates the profile without a rate and with onboarding to do, once', () => {
    spec.given([]).when({ type: 'CreateTutorProfile', data, metadata }).thenEvents([created]);
    spec.given([created]).when({ type: 'CreateTutorProfile', data, metadata }).thenNothing();
  });
});
