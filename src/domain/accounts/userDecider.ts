import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import type { DataOf } from '../kit/eventDefinition.ts';
import { requireCleanName } from '../kit/nameText.ts';
import { knownTimeZoneOf } from '../kit/timeZones.ts';
import {
  addMinutes,
  CODE_RESEND_INTERVAL_SECONDS,
  MAX_CODE_ATTEMPTS,
  RESET_CODE_TTL_MINUTES,
  VERIFICATION_CODE_TTL_MINUTES,
} from './accountPolicy.ts';
import { evolveUser, initialUserState, type PendingCode, type UserEvent, type UserState, type userEvents } from './user.ts';

/**
 * How a zone change came about (issue 24): `automatic` is the sign-in sync of the browser's zone,
 * `chosen` the person's own pick (kept against later syncs), `device` "follow this device again".
 */
export const timezoneModes = ['automatic', 'chosen', 'device'] as const;
export type TimezoneMode = (typeof timezoneModes)[number];

type Registration = Omit<DataOf<typeof userEvents, 'UserRegistered'>, 'registeredAt'>;

export type UserCommand =
  /** `verification` is absent for accounts that need none (Google, seeded). */
  | Command<'RegisterUser', { registration: Registration; verification: { codeHash: string; code: string } | null }>
  | Command<'IssueVerificationCode', { userId: string; codeHash: string; code: string }>
  | Command<'VerifyEmail', { userId: string; codeHash: string }>
  | Command<'RequestPasswordReset', { userId: string; codeHash: string; code: string }>
  | Command<'ResetPassword', { userId: string; codeHash: string; passwordHash: string }>
  | Command<'AcceptTerms', { userId: string; version: string; ip: string | null }>
  | Command<'ChooseRole', { userId: string; role: string }>
  | Command<'ChangeTimezone', { userId: string; timezone: string; mode?: TimezoneMode }>
  | Command<'ChangeName', { userId: string; firstName: string; lastName: string }>
  | Command<
      'LinkGoogleAccount',
      {
        userId: string;
        googleId: string;
        accessToken: string | null;
        refreshToken: string | null;
        tokenExpiry: string | null;
        /** Google vouches for the address: an unverified local account with it becomes verified. */
        emailVerifiedByProvider: boolean;
        /** How the account was found: by e-mail, only a verified address may claim it. */
        matchedBy: 'google' | 'email';
      }
    >
  /** The calendar adapter refreshed the Google tokens (a fact): kept so the next call starts from them. */
  | Command<
      'RecordGoogleTokensRefreshed',
      { userId: string; accessToken: string | null; refreshToken: string | null; tokenExpiry: string | null }
    >
  | Command<'DeleteAccount', { userId: string; contactIds: string[]; sessionIds?: string[] }>
  /** An admin suspends the account (issue 12 §2): the reason is required; nobody suspends their own. */
  | Command<'DeactivateUser', { userId: string; reason: string }>
  | Command<'ReactivateUser', { userId: string; reason: string }>;

export const INVALID_CODE = 'Invalid verification code';
export const EXPIRED_CODE = 'Verification code has expired. Please request a new one.';
export const TOO_MANY_ATTEMPTS = 'Too many incorrect attempts. Please request a new code.';
export const INVALID_RESET_CODE = 'Invalid or expired reset code';
export const ACCOUNT_NOT_FOUND = 'Account not found';
export const ALREADY_VERIFIED = 'Email is already verified';
export const GOOGLE_EMAIL_UNVERIFIED = 'Your Google e-mail address is not verified';
export const FIRST_NAME_REQUIRED = 'First name is required';
export const LAST_NAME_REQUIRED = 'Last name is required';
export const NAME_MAX_LENGTH = 100;
export const NAME_TOO_LONG = `A name must be at most ${NAME_MAX_LENGTH} characters`;
export const STATUS_REASON_MAX = 500;
export const STATUS_REASON_REQUIRED = 'Please give a reason';
export const STATUS_REASON_TOO_LONG = `A reason must be at most ${STATUS_REASON_MAX} characters`;
export const CANNOT_DEACTIVATE_SELF = 'You cannot deactivate your own account';
export const ALREADY_DEACTIVATED = 'This account is already deactivated';
export const NOT_DEACTIVATED = 'This account is not deactivated';
export const GOOGLE_ACCOUNT_MISMATCH = 'This e-mail address is linked to a different Google account';

function requireLive(state: UserState): void {
  if (!state.exists || state.deleted) throw new DomainError(ACCOUNT_NOT_FOUND, 'not_found');
}

function statusReason(reason: string): string {
  const trimmed = reason.trim();
  if (!trimmed) throw new DomainError(STATUS_REASON_REQUIRED, 'invalid');
  if (trimmed.length > STATUS_REASON_MAX) throw new DomainError(STATUS_REASON_TOO_LONG, 'invalid');
  return trimmed;
}

function requireResendAllowed(code: PendingCode | null, now: Date): void {
  if (code && now.getTime() - Date.parse(code.issuedAt) < CODE_RESEND_INTERVAL_SECONDS * 1000) {
    throw new DomainError(`Please wait ${CODE_RESEND_INTERVAL_SECONDS} seconds before requesting another code.`, 'rate_limited');
  }
}

function codeIssued(userId: string, code: { codeHash: string; code: string }, now: Date, ttlMinutes: number) {
  return { userId, ...code, issuedAt: now.toISOString(), expiresAt: addMinutes(now, ttlMinutes).toISOString() };
}

export const decideUser = decideWith<UserCommand, UserEvent, UserState>({
  RegisterUser({ data, metadata: { now } }, state) {
    if (state.exists) throw new DomainError('Account already exists', 'conflict');
    const events: UserEvent[] = [{ type: 'UserRegistered', data: { ...data.registration, registeredAt: now.toISOString() } }];
    if (data.verification) {
      events.push({
        type: 'EmailVerificationCodeIssued',
        data: codeIssued(data.registration.userId, data.verification, now, VERIFICATION_CODE_TTL_MINUTES),
      });
    }
    return events;
  },
  IssueVerificationCode({ data, metadata: { now } }, state) {
    requireLive(state);
    if (state.emailVerified) throw new DomainError(ALREADY_VERIFIED, 'invalid');
    requireResendAllowed(state.verification, now);
    return [{ type: 'EmailVerificationCodeIssued', data: codeIssued(data.userId, data, now, VERIFICATION_CODE_TTL_MINUTES) }];
  },
  VerifyEmail({ data, metadata: { now } }, state) {
    requireLive(state);
    if (state.emailVerified) throw new DomainError(ALREADY_VERIFIED, 'invalid');
    const v = state.verification;
    if (!v) throw new DomainError(INVALID_CODE, 'invalid');
    if (v.failures >= MAX_CODE_ATTEMPTS) throw new DomainError(TOO_MANY_ATTEMPTS, 'rate_limited');
    if (Date.parse(v.expiresAt) <= now.getTime()) throw new DomainError(EXPIRED_CODE, 'invalid');
    const at = now.toISOString();
    // A wrong code is recorded (it counts towards the limit); the caller reports it as refused.
    if (v.codeHash !== data.codeHash) return [{ type: 'EmailVerificationFailed', data: { userId: data.userId, at } }];
    return [{ type: 'EmailVerified', data: { userId: data.userId, at } }];
  },
  RequestPasswordReset({ data, metadata: { now } }, state) {
    requireLive(state);
    requireResendAllowed(state.reset, now);
    return [{ type: 'PasswordResetCodeIssued', data: codeIssued(data.userId, data, now, RESET_CODE_TTL_MINUTES) }];
  },
  ResetPassword({ data, metadata: { now } }, state) {
    requireLive(state);
    const r = state.reset;
    if (!r || Date.parse(r.expiresAt) <= now.getTime()) throw new DomainError(INVALID_RESET_CODE, 'invalid');
    if (r.failures >= MAX_CODE_ATTEMPTS) throw new DomainError(TOO_MANY_ATTEMPTS, 'rate_limited');
    const at = now.toISOString();
    if (r.codeHash !== data.codeHash) return [{ type: 'PasswordResetFailed', data: { userId: data.userId, at } }];
    return [{ type: 'PasswordReset', data: { userId: data.userId, passwordHash: data.passwordHash, at } }];
  },
  AcceptTerms({ data, metadata: { now } }, state) {
    requireLive(state);
    if (state.termsAcceptedVersion === data.version) return [];
    return [{ type: 'TermsAccepted', data: { ...data, at: now.toISOString() } }];
  },
  ChooseRole({ data, metadata: { now } }, state) {
    requireLive(state);
    // Self-service role choice: only student (spec part 1 §6); every other role is granted by an admin.
    if (data.role !== 'student') throw new DomainError('You can only choose the student role', 'forbidden');
    if (state.role === 'student') return [];
    if (state.role === 'admin' || state.role === 'tutor' || state.role === 'finance') {
      throw new DomainError('Staff and tutor accounts cannot change their own role', 'forbidden');
    }
    return [{ type: 'RoleChanged', data: { userId: data.userId, from: state.role ?? 'student', to: 'student', at: now.toISOString() } }];
  },
  ChangeTimezone({ data, metadata: { now } }, state) {
    requireLive(state);
    const timezone = knownTimeZoneOf(data.timezone, 'timezone');
    const mode = data.mode ?? 'automatic';
    // A zone the person chose outlives the browser's zone at every later sign-in.
    if (mode === 'automatic' && state.timezoneChosen) return [];
    const chosen = mode === 'chosen';
    if (state.timezone === timezone && state.timezoneChosen === chosen) return [];
    const changed = { userId: data.userId, timezone, at: now.toISOString() };
    // The automatic sync records no `chosen` flag, as before; a person's own choice (or undoing it) does.
    return [{ type: 'TimezoneChanged', data: mode === 'automatic' ? changed : { ...changed, chosen } }];
  },
  ChangeName({ data, metadata: { now } }, state) {
    requireLive(state);
    // Spec part 2 §5: first and last names non-empty after trim.
    const firstName = data.firstName.trim();
    const lastName = data.lastName.trim();
    if (!firstName) throw new DomainError(FIRST_NAME_REQUIRED, 'invalid');
    if (!lastName) throw new DomainError(LAST_NAME_REQUIRED, 'invalid');
    if (firstName.length > NAME_MAX_LENGTH || lastName.length > NAME_MAX_LENGTH) throw new DomainError(NAME_TOO_LONG, 'invalid');
    requireCleanName(firstName, 'First name', 'firstName');
    requireCleanName(lastName, 'Last name', 'lastName');
    if (state.name?.firstName === firstName && state.name.lastName === lastName) return [];
    return [{ type: 'NameChanged', data: { userId: data.userId, firstName, lastName, at: now.toISOString() } }];
  },
  LinkGoogleAccount({ data, metadata: { now } }, state) {
    requireLive(state);
    if (data.matchedBy === 'email') {
      // Only a verified address may claim an account by e-mail, and never one linked to another Google account.
      if (!data.emailVerifiedByProvider) throw new DomainError(GOOGLE_EMAIL_UNVERIFIED, 'forbidden');
      if (state.googleId && state.googleId !== data.googleId) throw new DomainError(GOOGLE_ACCOUNT_MISMATCH, 'conflict');
    }
    const at = now.toISOString();
    const verified: UserEvent[] =
      data.emailVerifiedByProvider && !state.emailVerified ? [{ type: 'EmailVerified', data: { userId: data.userId, at } }] : [];
    const { userId, googleId, accessToken, refreshToken, tokenExpiry } = data;
    return [...verified, { type: 'GoogleAccountLinked', data: { userId, googleId, accessToken, refreshToken, tokenExpiry, at } }];
  },
  RecordGoogleTokensRefreshed({ data, metadata: { now } }, state) {
    requireLive(state);
    return [{ type: 'GoogleTokensRefreshed', data: { ...data, at: now.toISOString() } }];
  },
  DeleteAccount({ data, metadata: { now } }, state) {
    requireLive(state);
    const sessions = data.sessionIds?.length ? { sessionIds: data.sessionIds } : {};
    return [{ type: 'AccountDeleted', data: { userId: data.userId, contactIds: data.contactIds, ...sessions, at: now.toISOString() } }];
  },
  DeactivateUser({ data, metadata: { now, actorId } }, state) {
    requireLive(state);
    const reason = statusReason(data.reason);
    // An admin locking themselves out would leave nobody to undo it.
    if (actorId === data.userId) throw new DomainError(CANNOT_DEACTIVATE_SELF, 'forbidden');
    if (state.deactivated) throw new DomainError(ALREADY_DEACTIVATED, 'conflict');
    return [{ type: 'UserDeactivated', data: { userId: data.userId, reason, at: now.toISOString() } }];
  },
  ReactivateUser({ data, metadata: { now } }, state) {
    requireLive(state);
    const reason = statusReason(data.reason);
    if (!state.deactivated) throw new DomainError(NOT_DEACTIVATED, 'conflict');
    return [{ type: 'UserReactivated', data: { userId: data.userId, reason, at: now.toISOString() } }];
  },
});

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: initialUserState,
  evolve: evolveUser,
  decide: decideUser,
};
