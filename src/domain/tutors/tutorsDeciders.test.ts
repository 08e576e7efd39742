import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { INVITATION_VALIDITY_DAYS, initialTutorInvitationState, invitationKeyName, openInvitation } from './invitation.ts';
import {
  INVALID_INVITATION_EMAIL,
  INVITATION_NOT_FOUND,
  INVITATION_NOT_OUTSTANDING,
  INVITATION_OUTSTANDING,
  INVITATION_RESENT_RECENTLY,
  INVITATION_REVOKED,
  tutorInvitationDecider,
} from './invitationDecider.ts';
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

const revoked = { type: 'TutorInvitationRevoked' as const, data: { invitationId: 'i1', revokedBy: 'admin-1', at } };
const accepted = { type: 'TutorInvitationAccepted' as const, data: { invitationId: 'i1', applicationId: 'app-1', at } };

describe('tutor invitation decider', () => {
  const spec = deciderSpec(tutorInvitationDecider);
  it(`invites a trimmed, lower-cased address for ${INVITATION_VALIDITY_DAYS} days`, () => {
    spec
      .given([])
      .when({ type: 'InviteTutor', data: { invitationId: 'i1', email: '  T@Example.com ', signInUrl }, metadata })
      .thenEvents([invited]);
  });
  it('refuses to invite an address whose invitation is outstanding: no second mail', () => {
    spec
      .given([invited])
      .when({ type: 'InviteTutor', data: { invitationId: 'i2', email: 't@example.com', signInUrl }, metadata })
      .thenThrows(INVITATION_OUTSTANDING, 'conflict');
  });
  it('invites again once the invitation expired, was revoked or was accepted', () => {
    const later = new Date(Date.parse(expiresAt) + 1000);
    const again = (at: Date) => ({
      ...invited,
      data: {
        ...invited.data,
        invitationId: 'i2',
        at: at.toISOString(),
        expiresAt: new Date(at.getTime() + INVITATION_VALIDITY_DAYS * 86_400_000).toISOString(),
      },
    });
    const command = (at: Date) => ({
      type: 'InviteTutor' as const,
      data: { invitationId: 'i2', email: 't@example.com', signInUrl },
      metadata: { ...metadata, now: at },
    });
    spec
      .given([invited])
      .when(command(later))
      .thenEvents([again(later)]);
    spec
      .given([invited, revoked])
      .when(command(now))
      .thenEvents([again(now)]);
    spec
      .given([invited, accepted])
      .when(command(now))
      .thenEvents([again(now)]);
  });
  it('resends an outstanding invitation, at most once a minute counted from the last mail', () => {
    const resend = (at: Date, invitationId = 'i1') => ({
      type: 'ResendTutorInvitation' as const,
      data: { invitationId },
      metadata: { ...metadata, now: at },
    });
    const inAMinute = new Date(now.getTime() + 60_000);
    spec
      .given([invited])
      .when(resend(new Date(now.getTime() + 59_999)))
      .thenThrows(INVITATION_RESENT_RECENTLY, 'rate_limited');
    spec
      .given([invited])
      .when(resend(inAMinute))
      .thenEvents([{ type: 'TutorInvitationResent', data: { invitationId: 'i1', resentBy: 'admin-1', at: inAMinute.toISOString() } }]);
    const resent = {
      type: 'TutorInvitationResent' as const,
      data: { invitationId: 'i1', resentBy: 'admin-1', at: inAMinute.toISOString() },
    };
    spec
      .given([invited, resent])
      .when(resend(new Date(inAMinute.getTime() + 30_000)))
      .thenThrows(INVITATION_RESENT_RECENTLY, 'rate_limited');
    spec.given([invited]).when(resend(inAMinute, 'other')).thenThrows(INVITATION_NOT_FOUND, 'not_found');
    spec.given([]).when(resend(inAMinute)).thenThrows(INVITATION_NOT_FOUND, 'not_found');
    spec.given([invited, revoked]).when(resend(inAMinute)).thenThrows(INVITATION_NOT_OUTSTANDING, 'conflict');
    spec.given([invited, accepted]).when(resend(inAMinute)).thenThrows(INVITATION_NOT_OUTSTANDING, 'conflict');
    spec
      .given([invited])
      .when(resend(new Date(expiresAt)))
      .thenThrows(INVITATION_NOT_OUTSTANDING, 'conflict');
  });
  it('revokes an outstanding invitation once, naming the admin', () => {
    const revoke = { type: 'RevokeTutorInvitation' as const, data: { invitationId: 'i1' }, metadata };
    spec.given([invited]).when(revoke).thenEvents([revoked]);
    spec.given([invited, revoked]).when(revoke).thenThrows(INVITATION_NOT_OUTSTANDING, 'conflict');
    spec.given([invited, accepted]).when(revoke).thenThrows(INVITATION_NOT_OUTSTANDING, 'conflict');
    spec
      .given([invited])
      .when({ ...revoke, data: { invitationId: 'nope' } })
      .thenThrows(INVITATION_NOT_FOUND, 'not_found');
  });
  it('an applicant accepts the open invitation once; a revoked one refuses the sign-in', () => {
    const accept = { type: 'AcceptTutorInvitation' as const, data: { applicationId: 'app-1' }, metadata };
    spec.given([invited]).when(accept).thenEvents([accepted]);
    spec.given([invited, accepted]).when(accept).thenNothing();
    spec.given([]).when(accept).thenNothing();
    spec
      .given([invited])
      .when({ ...accept, metadata: { ...metadata, now: new Date(expiresAt) } })
      .thenNothing();
    spec.given([invited, revoked]).when(accept).thenThrows(INVITATION_REVOKED, 'forbidden');
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
    expect(openInvitation(tutorInvitationDecider.evolve(state, revoked), now)).toBeNull();
    expect(openInvitation(tutorInvitationDecider.evolve(state, accepted), now)).toBeNull();
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
