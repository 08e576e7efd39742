import { type Command, DomainError, decideWith } from '../kit/decider.ts';
import type { UserState } from './user.ts';
import type { UserActivityEvent } from './userActivity.ts';

/**
 * Sign-in decides on the account's state (the user stream) and records on the activity stream.
 * The handler checks the password against the stored hash and passes the fact in; the rules
 * that follow from it live here.
 */
export type UserActivityCommand =
  | Command<
      'SignIn',
      { userId: string; via: 'password' | 'google' | 'secondary'; passwordMatched: boolean /** over a sign-in limit */; throttled: boolean }
    >
  | Command<'RecordAccountMailSent', { userId: string; mailId: string; kind: 'verification' | 'password_reset' }>;

export const INVALID_LOGIN = 'Invalid username or password';
export const UNVERIFIED = 'Please verify your email before logging in';
/** Said only to someone who proved the account is theirs (the right password, Google, the view-only login). */
export const ACCOUNT_DEACTIVATED = 'This account has been deactivated. Please contact support.';
export const TOO_MANY_SIGN_IN_ATTEMPTS = 'Too many failed sign-in attempts. Please try again in 15 minutes.';

export const decideUserActivity = decideWith<UserActivityCommand, UserActivityEvent, UserState>({
  SignIn({ data, metadata: { now } }, user) {
    const at = now.toISOString();
    const { userId } = data;
    if (!user.exists || user.deleted) throw new DomainError(INVALID_LOGIN, 'unauthenticated');
    if (data.throttled) return [{ type: 'SignInFailed', data: { userId, reason: 'rate_limited', at } }];
    if (!data.passwordMatched) return [{ type: 'SignInFailed', data: { userId, reason: 'wrong_password', at } }];
    // A suspended holder's view-only logins (their students') are refused with the account.
    if (user.deactivated) return [{ type: 'SignInFailed', data: { userId, reason: 'deactivated', at } }];
    // The secondary login belongs to the student profile: the account's own verification does not gate it.
    if (data.via === 'password' && !user.emailVerified) return [{ type: 'SignInFailed', data: { userId, reason: 'unverified', at } }];
    return [{ type: 'SignedIn', data: { userId, via: data.via, at } }];
  },
  // Also after a deletion: the audit trail keeps that the mail went out.
  RecordAccountMailSent: ({ data, metadata: { now } }) => [{ type: 'AccountMailSent', data: { ...data, at: now.toISOString() } }],
});

/** The refusal a recorded sign-in failure answers with. */
export function signInRefusal(event: UserActivityEvent): DomainError | null {
  if (event.type !== 'SignInFailed') return null;
  if (event.data.reason === 'unverified') return new DomainError(UNVERIFIED, 'forbidden');
  if (event.data.reason === 'deactivated') return new DomainError(ACCOUNT_DEACTIVATED, 'forbidden');
  if (event.data.reason === 'rate_limited') return new DomainError(TOO_MANY_SIGN_IN_ATTEMPTS, 'rate_limited');
  return new DomainError(INVALID_LOGIN, 'unauthenticated');
}
