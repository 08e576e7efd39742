import { describe, expect, it } from 'vitest';
import { userRegistered } from '../../../tests/support/accountEvents.ts';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { UNKNOWN_TIME_ZONE } from '../kit/timeZones.ts';
import { evolveUser, initialUserState, type UserEvent } from './user.ts';
import { ACCOUNT_DEACTIVATED, decideUserActivity, signInRefusal } from './userActivityDecider.ts';
import {
  ALREADY_DEACTIVATED,
  CANNOT_DEACTIVATE_SELF,
  EXPIRED_CODE,
  FIRST_NAME_REQUIRED,
  GOOGLE_ACCOUNT_MISMATCH,
  GOOGLE_EMAIL_UNVERIFIED,
  INVALID_RESET_CODE,
  LAST_NAME_REQUIRED,
  NAME_TOO_LONG,
  NOT_DEACTIVATED,
  STATUS_REASON_REQUIRED,
  STATUS_REASON_TOO_LONG,
  TOO_MANY_ATTEMPTS,
  userDecider,
} from './userDecider.ts';

const now = new Date('2026-11-20T12:00:00.000Z');
const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
const spec = deciderSpec(userDecider);
const userId = 'u1';

const registered = userRegistered(userId, now.toISOString());
const issued: UserEvent = {
  type: 'EmailVerificationCodeIssued',
  data: { userId, codeHash: 'right', code: '123456', issuedAt: now.toISOString(), expiresAt: later(60).toISOString() },
};
const failed: UserEvent = { type: 'EmailVerificationFailed', data: { userId, at: now.toISOString() } };

describe('user decider', () => {
  it('verifies the e-mail with the right code', () => {
    spec
      .given([registered, issued])
      .when({ type: 'VerifyEmail', data: { userId, codeHash: 'right' }, metadata: { now: later(5) } })
      .thenEvents([{ type: 'EmailVerified', data: { userId, at: later(5).toISOString() } }]);
  });

  it('records a wrong code as a failed attempt', () => {
    spec
      .given([registered, issued])
      .when({ type: 'VerifyEmail', data: { userId, codeHash: 'wrong' }, metadata: { now: now } })
      .thenEvents([failed]);
  });

  it('refuses an expired code and a code after five wrong attempts', () => {
    spec
      .given([registered, issued])
      .when({ type: 'VerifyEmail', data: { userId, codeHash: 'right' }, metadata: { now: later(61) } })
      .thenThrows(EXPIRED_CODE, 'invalid');
    spec
      .given([registered, issued, failed, failed, failed, failed, failed])
      .when({ type: 'VerifyEmail', data: { userId, codeHash: 'right' }, metadata: { now: now } })
      .thenThrows(TOO_MANY_ATTEMPTS, 'rate_limited');
  });

  it('allows a new code once a minute', () => {
    const again = { type: 'IssueVerificationCode' as const, data: { userId, codeHash: 'new', code: '654321' } };
    spec
      .given([registered, issued])
      .when({ ...again, metadata: { now: later(0.5) } })
      .thenThrows(/Please wait 60 seconds/, 'rate_limited');
    spec
      .given([registered, issued])
      .when({ ...again, metadata: { now: later(2) } })
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
      .when({ type: 'ResetPassword', data: { userId, codeHash: 'r', passwordHash: 'new' }, metadata: { now: now } })
      .thenThrows(INVALID_RESET_CODE, 'invalid');
    spec
      .given([registered, reset])
      .when({ type: 'ResetPassword', data: { userId, codeHash: 'r', passwordHash: 'new' }, metadata: { now: later(16) } })
      .thenThrows(INVALID_RESET_CODE, 'invalid');
    spec
      .given([registered, reset])
      .when({ type: 'ResetPassword', data: { userId, codeHash: 'r', passwordHash: 'new' }, metadata: { now: later(1) } })
      .thenEvents([{ type: 'PasswordReset', data: { userId, passwordHash: 'new', at: later(1).toISOString() } }]);
  });

  it('lets a user choose only the student role', () => {
    spec
      .given([registered])
      .when({ type: 'ChooseRole', data: { userId, role: 'admin' }, metadata: { now: now } })
      .thenThrows('You can only choose the student role', 'forbidden');
    spec
      .given([registered])
      .when({ type: 'ChooseRole', data: { userId, role: 'student' }, metadata: { now: now } })
      .thenNothing();
    const parent: UserEvent = { ...registered, data: { ...registered.data, role: 'parent' } } as UserEvent;
    spec
      .given([parent])
      .when({ type: 'ChooseRole', data: { userId, role: 'student' }, metadata: { now: now } })
      .thenEvents([{ type: 'RoleChanged', data: { userId, from: 'parent', to: 'student', at: now.toISOString() } }]);
    const tutor: UserEvent = { ...registered, data: { ...registered.data, role: 'tutor' } } as UserEvent;
    spec
      .given([tutor])
      .when({ type: 'ChooseRole', data: { userId, role: 'student' }, metadata: { now: now } })
      .thenThrows(/cannot change their own role/, 'forbidden');
  });

  it('records terms once per version', () => {
    spec
      .given([registered])
      .when({ type: 'AcceptTerms', data: { userId, version: '1.0', ip: null }, metadata: { now: now } })
      .thenNothing();
    const noTerms: UserEvent = {
      ...registered,
      data: { ...registered.data, termsAcceptedVersion: null, termsAcceptedAt: null },
    } as UserEvent;
    spec
      .given([noTerms])
      .when({ type: 'AcceptTerms', data: { userId, version: '1.0', ip: '10.0.0.1' }, metadata: { now: now } })
      .thenEvents([{ type: 'TermsAccepted', data: { userId, version: '1.0', ip: '10.0.0.1', at: now.toISOString() } }]);
  });

  const link = (emailVerifiedByProvider: boolean, matchedBy: 'google' | 'email', googleId = 'g') => ({
    type: 'LinkGoogleAccount' as const,
    data: { userId, googleId, accessToken: null, refreshToken: null, tokenExpiry: null, emailVerifiedByProvider, matchedBy },
    metadata: { now },
  });
  const linked = (googleId: string): UserEvent => ({
    type: 'GoogleAccountLinked',
    data: { userId, googleId, accessToken: null, refreshToken: null, tokenExpiry: null, at: now.toISOString() },
  });

  it('verifies an unverified address when Google vouches for it', () => {
    spec
      .given([registered])
      .when(link(true, 'email'))
      .thenEvents([{ type: 'EmailVerified', data: { userId, at: now.toISOString() } }, linked('g')]);
  });

  it('lets only a verified Google address claim an account by e-mail, and never one linked to another Google account', () => {
    spec.given([registered]).when(link(false, 'email')).thenThrows(GOOGLE_EMAIL_UNVERIFIED, 'forbidden');
    spec
      .given([registered, linked('other')])
      .when(link(true, 'email'))
      .thenThrows(GOOGLE_ACCOUNT_MISMATCH, 'conflict');
    spec
      .given([registered, linked('g')])
      .when(link(false, 'google'))
      .thenEvents([linked('g')]);
  });

  it('changes the name, trimmed; an unchanged name records nothing; an empty or overlong part is refused', () => {
    const changeName = (firstName: string, lastName: string) =>
      ({ type: 'ChangeName', data: { userId, firstName, lastName }, metadata: { now } }) as const;
    const renamed: UserEvent = { type: 'NameChanged', data: { userId, firstName: 'Anna', lastName: 'Lee-Park', at: now.toISOString() } };
    spec.given([registered]).when(changeName('  Anna ', ' Lee-Park')).thenEvents([renamed]);
    spec.given([registered]).when(changeName('Ann', 'Lee ')).thenNothing();
    spec.given([registered, renamed]).when(changeName('Anna', 'Lee-Park')).thenNothing();
    spec
      .given([registered, renamed])
      .when(changeName('Ann', 'Lee'))
      .thenEvents([{ ...renamed, data: { ...renamed.data, firstName: 'Ann', lastName: 'Lee' } }]);
    spec.given([registered]).when(changeName('   ', 'Lee')).thenThrows(FIRST_NAME_REQUIRED, 'invalid');
    spec.given([registered]).when(changeName('Ann', '')).thenThrows(LAST_NAME_REQUIRED, 'invalid');
    spec
      .given([registered])
      .when(changeName('A'.repeat(101), 'Lee'))
      .thenThrows(NAME_TOO_LONG, 'invalid');
    spec.given([]).when(changeName('Ann', 'Lee')).thenThrows('Account not found', 'not_found');
  });

  it('refuses everything but re-registration checks once the account is deleted', () => {
    const deleted: UserEvent = { type: 'AccountDeleted', data: { userId, at: now.toISOString() } };
    spec
      .given([registered, deleted])
      .when({ type: 'ChangeTimezone', data: { userId, timezone: 'UTC' }, metadata: { now } })
      .thenThrows('Account not found', 'not_found');
    const { registeredAt: _r, ...registration } = registered.data as Extract<UserEvent, { type: 'UserRegistered' }>['data'];
    spec
      .given([registered])
      .when({ type: 'RegisterUser', data: { registration, verification: null }, metadata: { now } })
      .thenThrows('Account already exists', 'conflict');
  });
});

describe('an admin deactivating and reactivating an account', () => {
  const admin = (minutes = 0) => ({ now: later(minutes), actorId: 'admin-1', actorRole: 'admin' });
  const deactivated: UserEvent = { type: 'UserDeactivated', data: { userId, reason: 'Chargeback fraud', at: now.toISOString() } };

  it('deactivates with the trimmed reason; a second deactivation is a conflict', () => {
    spec
      .given([registered])
      .when({ type: 'DeactivateUser', data: { userId, reason: '  Chargeback fraud ' }, metadata: admin() })
      .thenEvents([deactivated]);
    spec
      .given([registered, deactivated])
      .when({ type: 'DeactivateUser', data: { userId, reason: 'again' }, metadata: admin(1) })
      .thenThrows(ALREADY_DEACTIVATED, 'conflict');
  });

  it('refuses a blank or overlong reason, the admin’s own account, and an unknown account', () => {
    spec
      .given([registered])
      .when({ type: 'DeactivateUser', data: { userId, reason: ' \n ' }, metadata: admin() })
      .thenThrows(STATUS_REASON_REQUIRED, 'invalid');
    spec
      .given([registered])
      .when({ type: 'DeactivateUser', data: { userId, reason: 'x'.repeat(501) }, metadata: admin() })
      .thenThrows(STATUS_REASON_TOO_LONG, 'invalid');
    spec
      .given([registered])
      .when({ type: 'DeactivateUser', data: { userId, reason: 'x'.repeat(500) }, metadata: admin() })
      .thenEvents([{ type: 'UserDeactivated', data: { userId, reason: 'x'.repeat(500), at: now.toISOString() } }]);
    spec
      .given([registered])
      .when({ type: 'DeactivateUser', data: { userId, reason: 'me' }, metadata: { now, actorId: userId, actorRole: 'admin' } })
      .thenThrows(CANNOT_DEACTIVATE_SELF, 'forbidden');
    spec
      .given([])
      .when({ type: 'DeactivateUser', data: { userId, reason: 'ghost' }, metadata: admin() })
      .thenThrows(/Account not found/, 'not_found');
  });

  it('reactivates only a deactivated account', () => {
    spec
      .given([registered, deactivated])
      .when({ type: 'ReactivateUser', data: { userId, reason: 'Bank cleared it' }, metadata: admin(5) })
      .thenEvents([{ type: 'UserReactivated', data: { userId, reason: 'Bank cleared it', at: later(5).toISOString() } }]);
    spec
      .given([registered])
      .when({ type: 'ReactivateUser', data: { userId, reason: 'why' }, metadata: admin() })
      .thenThrows(NOT_DEACTIVATED, 'conflict');
  });

  it('refuses sign-in to a deactivated account only once the password is right (a wrong one says nothing more)', () => {
    const state = [registered, { type: 'EmailVerified', data: { userId, at: now.toISOString() } } as UserEvent, deactivated].reduce(
      evolveUser,
      initialUserState,
    );
    const signIn = (via: 'password' | 'google' | 'secondary', passwordMatched: boolean) =>
      decideUserActivity({ type: 'SignIn', data: { userId, via, passwordMatched, throttled: false }, metadata: { now } }, state);
    for (const via of ['password', 'google', 'secondary'] as const) {
      const [event] = signIn(via, true);
      expect(event).toEqual({ type: 'SignInFailed', data: { userId, reason: 'deactivated', at: now.toISOString() } });
      expect(event && signInRefusal(event)).toMatchObject({ message: ACCOUNT_DEACTIVATED, kind: 'forbidden' });
    }
    expect(signIn('password', false)[0]).toMatchObject({ data: { reason: 'wrong_password' } });
    const reactivated = evolveUser(state, { type: 'UserReactivated', data: { userId, reason: 'ok', at: now.toISOString() } });
    expect(
      decideUserActivity(
        { type: 'SignIn', data: { userId, via: 'password', passwordMatched: true, throttled: false }, metadata: { now } },
        reactivated,
      ),
    ).toEqual([{ type: 'SignedIn', data: { userId, via: 'password', at: now.toISOString() } }]);
  });
});

describe('the time zone: synced from the browser unless the person chose one (issue 24)', () => {
  const at = now.toISOString();
  const change = (timezone: string, mode?: 'automatic' | 'chosen' | 'device') =>
    ({ type: 'ChangeTimezone', data: { userId, timezone, ...(mode ? { mode } : {}) }, metadata: { now } }) as const;
  const chosenParis: UserEvent = { type: 'TimezoneChanged', data: { userId, timezone: 'Europe/Paris', chosen: true, at } };

  it('follows the browser automatically while nothing is chosen', () => {
    spec
      .given([registered])
      .when(change('Europe/Paris'))
      .thenEvents([{ type: 'TimezoneChanged', data: { userId, timezone: 'Europe/Paris', at } }]);
    spec.given([registered]).when(change('America/New_York')).thenEvents([]);
  });

  it('records a chosen zone, and the automatic sync leaves it alone afterwards', () => {
    spec
      .given([registered])
      .when(change('Europe/Paris', 'chosen'))
      .thenEvents([{ type: 'TimezoneChanged', data: { userId, timezone: 'Europe/Paris', chosen: true, at } }]);
    spec.given([registered, chosenParis]).when(change('Asia/Tokyo', 'automatic')).thenEvents([]);
    spec.given([registered, chosenParis]).when(change('Asia/Tokyo')).thenEvents([]);
  });

  it('choosing the zone already in force marks it chosen; choosing it again records nothing', () => {
    spec
      .given([registered])
      .when(change('America/New_York', 'chosen'))
      .thenEvents([{ type: 'TimezoneChanged', data: { userId, timezone: 'America/New_York', chosen: true, at } }]);
    spec.given([registered, chosenParis]).when(change('Europe/Paris', 'chosen')).thenEvents([]);
    spec
      .given([registered, chosenParis])
      .when(change('Asia/Tokyo', 'chosen'))
      .thenEvents([{ type: 'TimezoneChanged', data: { userId, timezone: 'Asia/Tokyo', chosen: true, at } }]);
  });

  it('following the device again takes its zone and lets the automatic sync work again', () => {
    const followsDevice: UserEvent = { type: 'TimezoneChanged', data: { userId, timezone: 'Asia/Tokyo', chosen: false, at } };
    spec.given([registered, chosenParis]).when(change('Asia/Tokyo', 'device')).thenEvents([followsDevice]);
    spec
      .given([registered, chosenParis])
      .when(change('Europe/Paris', 'device'))
      .thenEvents([{ type: 'TimezoneChanged', data: { userId, timezone: 'Europe/Paris', chosen: false, at } }]);
    spec.given([registered]).when(change('America/New_York', 'device')).thenEvents([]);
    spec
      .given([registered, chosenParis, followsDevice])
      .when(change('America/Toronto'))
      .thenEvents([{ type: 'TimezoneChanged', data: { userId, timezone: 'America/Toronto', at } }]);
  });

  it('refuses a zone that does not exist, in every mode', () => {
    for (const mode of ['automatic', 'chosen', 'device'] as const) {
      spec.given([registered, chosenParis]).when(change('Mars/Olympus', mode)).thenThrows(UNKNOWN_TIME_ZONE, 'invalid');
    }
  });
});
