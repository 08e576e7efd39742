import { describe, expect, it } from 'vitest';
import { userRegistered } from '../../../tests/support/accountEvents.ts';
import type { UserEvent, UserState } from './user.ts';
import { evolveUser, initialUserState } from './user.ts';
import { decideUserActivity, INVALID_LOGIN, signInRefusal, UNVERIFIED } from './userActivityDecider.ts';

const now = new Date('2026-11-20T12:00:00.000Z');
const at = now.toISOString();
const userId = 'u1';
const registered = userRegistered(userId, at);
const given = (...events: UserEvent[]): UserState => events.reduce(evolveUser, initialUserState);
const signIn = (passwordMatched: boolean, throttled = false, via: 'password' | 'secondary' = 'password') =>
  decideUserActivity({ type: 'SignIn', data: { userId, via, passwordMatched, throttled }, metadata: { now } }, given(registered, verified));
const verified: UserEvent = { type: 'EmailVerified', data: { userId, at } };

describe('sign-in decisions', () => {
  it('signs in a verified account whose password matched', () => {
    expect(signIn(true)).toEqual([{ type: 'SignedIn', data: { userId, via: 'password', at } }]);
  });

  it('records a wrong password, a throttled attempt and an unverified account as refusals with their answers', () => {
    const [wrong] = signIn(false);
    expect(wrong).toEqual({ type: 'SignInFailed', data: { userId, reason: 'wrong_password', at } });
    expect(signInRefusal(wrong as never)?.message).toBe(INVALID_LOGIN);
    // Over the limit even the right password is refused: the limit must not reveal a correct guess.
    expect(signIn(true, true)[0]).toEqual({ type: 'SignInFailed', data: { userId, reason: 'rate_limited', at } });
    const unverified = decideUserActivity(
      { type: 'SignIn', data: { userId, via: 'password', passwordMatched: true, throttled: false }, metadata: { now } },
      given(registered),
    );
    expect(signInRefusal(unverified[0] as never)).toMatchObject({ message: UNVERIFIED, kind: 'forbidden' });
  });

  it('refuses a deleted account as it refuses a wrong password', () => {
    const deleted = given(registered, verified, { type: 'AccountDeleted', data: { userId, at } });
    expect(() =>
      decideUserActivity(
        { type: 'SignIn', data: { userId, via: 'password', passwordMatched: true, throttled: false }, metadata: { now } },
        deleted,
      ),
    ).toThrow(INVALID_LOGIN);
  });
});
