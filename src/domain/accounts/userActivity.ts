import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

/**
 * What happens around an account without changing it: sign-ins, refused sign-ins, mails sent.
 * These facts live on their own stream (`userActivity-<id>`), so the user stream that commands
 * load stays short and a password reset never contends with a sign-in.
 */
const at = z.string();
const userId = z.string();
export const signedIn = z.object({ userId, via: z.enum(['password', 'google', 'secondary']), at });
export const signInFailed = z.object({ userId, reason: z.enum(['wrong_password', 'unverified', 'rate_limited', 'deactivated']), at });
export const accountMailSent = z.object({ userId, mailId: z.string(), kind: z.enum(['verification', 'password_reset']), at });

export const userActivityEvents = {
  SignedIn: eventType(signedIn, { describe: (d) => `Signed in (${d.via})` }),
  SignInFailed: eventType(signInFailed, { describe: (d) => `Sign-in refused (${d.reason})` }),
  AccountMailSent: eventType(accountMailSent, {
    describe: (d) => (d.kind === 'verification' ? 'Verification code e-mailed' : 'Password reset code e-mailed'),
  }),
};

export type UserActivityEvent = EventsOf<typeof userActivityEvents>;

/** Activity changes no state that a decision needs: the stream is append-only facts. */
export type UserActivityState = null;
export const initialUserActivityState: UserActivityState = null;
export const evolveUserActivity = (state: UserActivityState, _event: UserActivityEvent): UserActivityState => state;

export const userActivityStreamId = (userId: string) => `userActivity-${userId}`;
