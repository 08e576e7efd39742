import { describe, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import type { UserEvent } from './accountEvents.ts';
import { EXPIRED_CODE, INVALID_RESET_CODE, TOO_MANY_ATTEMPTS, userDecider } from './userDecider.ts';

const now = new Date('2026-11-20T12:00:00.000Z');
const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
const spec = deciderSpec(userDecider);
const userId = 'u1';

const registered: UserEvent = {
  type: 'UserRegistered',
  data: {
    userId,
    username: 'ann',
    email: 'ann@example.com',
    passwordHash: 'h',
    role: 'student',
    firstName: 'Ann',
    lastName: 'Lee',
    phone: null,
    authProvider: 'local',
    googleId: null,
    timezone: 'America/New_York',
    emailVerified: false,
    termsAcceptedAt: now.toISOString(),
    termsAcceptedIp: null,
    termsAcceptedVersion: '1.0',
    parentId: null,
    registeredAt: now.toISOString(),
  },
};
const issued: UserEvent = {
  type: 'EmailVerificationCodeIssued',
  data: { userId, codeHash: 'right', code: '123456', issuedAt: now.toISOString(), expiresAt: later(60).toISOString() },
};
const failed: UserEvent = { type: 'EmailVerificationFailed', data: { userId, at: now.toISOString() } };

describe('user decider', () => {
  it('verifies the e-mail with the right code', () => {
    spec
      .given([registered, issued])
      .when({ type: 'VerifyEmail', userId, codeHash: 'right', now: later(5) })
      .thenEvents([{ type: 'EmailVerified', data: { userId, at: later(5).toISOString() } }]);
  });

  it('records a wrong code as a failed attempt', () => {
    spec.given([registered, issued]).when({ type: 'VerifyEmail', userId, codeHash: 'wrong', now }).thenEvents([failed]);
  });

  it('refuses an expired code and a code after five wrong attempts', () => {
    spec
      .given([registered, issued])
      .when({ type: 'VerifyEmail', userId, codeHash: 'right', now: later(61) })
      .thenThrows(EXPIRED_CODE, 400);
    spec
      .given([registered, issued, failed, failed, failed, failed, failed])
      .when({ type: 'VerifyEmail', userId, codeHash: 'right', now })
      .thenThrows(TOO_MANY_ATTEMPTS, 429);
  });

  it('allows a new code once a minute', () => {
    const again = { type: 'IssueVerificationCode' as const, userId, codeHash: 'new', code: '654321' };
    spec
      .given([registered, issued])
      .when({ ...again, now: later(0.5) })
      .thenThrows(/Please wait 60 seconds/, 429);
    spec
      .given([registered, issued])
      .when({ ...again, now: later(2) })
      .thenEvents([
        {
          type: 'EmailVerificationCodeIssued',
          data: { userId, codeHash: 'new', code: '654321', issuedAt: later(2).toISOString(), expiresAt: later(62).toISOString() },
        },
      ]);
  });

  it('resets the password only with a live reset code', () => {
    const reset: UserEvent = {
      type: 'PasswordResetCodeIssued',
      data: { userId, codeHash: 'r', code: '111111', issuedAt: now.toISOString(), expiresAt: later(15).toISOString() },
    };
    spec
      .given([registered])
      .when({ type: 'ResetPassword', userId, codeHash: 'r', passwordHash: 'new', now })
      .thenThrows(INVALID_RESET_CODE, 400);
    spec
      .given([registered, reset])
      .when({ type: 'ResetPassword', userId, codeHash: 'r', passwordHash: 'new', now: later(16) })
      .thenThrows(INVALID_RESET_CODE, 400);
    spec
      .given([registered, reset])
      .when({ type: 'ResetPassword', userId, codeHash: 'r', passwordHash: 'new', now: later(1) })
      .thenEvents([{ type: 'PasswordReset', data: { userId, passwordHash: 'new', at: later(1).toISOString() } }]);
  });

  it('lets a user choose only the student role', () => {
    spec
      .given([registered])
      .when({ type: 'ChooseRole', userId, role: 'admin', now })
      .thenThrows('You can only choose the student role', 403);
    spec.given([registered]).when({ type: 'ChooseRole', userId, role: 'student', now }).thenNothing();
    const parent: UserEvent = { ...registered, data: { ...registered.data, role: 'parent' } } as UserEvent;
    spec
      .given([parent])
      .when({ type: 'ChooseRole', userId, role: 'student', now })
      .thenEvents([{ type: 'RoleChanged', data: { userId, from: 'parent', to: 'student', at: now.toISOString() } }]);
    const tutor: UserEvent = { ...registered, data: { ...registered.data, role: 'tutor' } } as UserEvent;
    spec
      .given([tutor])
      .when({ type: 'ChooseRole', userId, role: 'student', now })
      .thenThrows(/cannot change their own role/, 403);
  });

  it('records terms once per version', () => {
    spec.given([registered]).when({ type: 'AcceptTerms', userId, version: '1.0', ip: null, now }).thenNothing();
    const noTerms: UserEvent = {
      ...registered,
      data: { ...registered.data, termsAcceptedVersion: null, termsAcceptedAt: null },
    } as UserEvent;
    spec
      .given([noTerms])
      .when({ type: 'AcceptTerms', userId, version: '1.0', ip: '10.0.0.1', now })
      .thenEvents([{ type: 'TermsAccepted', data: { userId, version: '1.0', ip: '10.0.0.1', at: now.toISOString() } }]);
  });

  it('verifies an unverified address when Google vouches for it', () => {
    spec
      .given([registered])
      .when({
        type: 'LinkGoogleAccount',
        userId,
        googleId: 'g',
        accessToken: null,
        refreshToken: null,
        tokenExpiry: null,
        emailVerifiedByProvider: true,
        now,
      })
      .thenEvents([
        { type: 'EmailVerified', data: { userId, at: now.toISOString() } },
        {
          type: 'GoogleAccountLinked',
          data: { userId, googleId: 'g', accessToken: null, refreshToken: null, tokenExpiry: null, at: now.toISOString() },
        },
      ]);
  });

  it('refuses everything but re-registration checks once the account is deleted', () => {
    const deleted: UserEvent = { type: 'AccountDeleted', data: { userId, at: now.toISOString() } };
    spec.given([registered, deleted]).when({ type: 'RecordSignIn', userId, via: 'password', now }).thenThrows('Account not found', 404);
    spec
      .given([registered])
      .when({ type: 'RegisterUser', data: registered.data, verification: null, now })
      .thenThrows('Account already exists', 409);
  });
});
