import { type Decider, DomainError } from '../decider.ts';
import type { AccountRole, UserEvent } from './accountEvents.ts';
import {
  addMinutes,
  CODE_RESEND_INTERVAL_SECONDS,
  DEFAULT_TIMEZONE,
  MAX_CODE_ATTEMPTS,
  RESET_CODE_TTL_MINUTES,
  VERIFICATION_CODE_TTL_MINUTES,
} from './accountPolicy.ts';

interface PendingCode {
  codeHash: string;
  expiresAt: string;
  issuedAt: string;
  failures: number;
}

export interface UserState {
  exists: boolean;
  deleted: boolean;
  role: AccountRole | null;
  emailVerified: boolean;
  passwordHash: string | null;
  googleId: string | null;
  verification: PendingCode | null;
  reset: PendingCode | null;
  termsAcceptedVersion: string | null;
  timezone: string;
}

export const initialUserState: UserState = {
  exists: false,
  deleted: false,
  role: null,
  emailVerified: false,
  passwordHash: null,
  googleId: null,
  verification: null,
  reset: null,
  termsAcceptedVersion: null,
  timezone: DEFAULT_TIMEZONE,
};

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        ...state,
        exists: true,
        role: event.data.role,
        emailVerified: event.data.emailVerified,
        passwordHash: event.data.passwordHash,
        googleId: event.data.googleId,
        termsAcceptedVersion: event.data.termsAcceptedVersion,
        timezone: event.data.timezone,
      };
    case 'EmailVerificationCodeIssued':
      return {
        ...state,
        verification: { codeHash: event.data.codeHash, expiresAt: event.data.expiresAt, issuedAt: event.data.issuedAt, failures: 0 },
      };
    case 'EmailVerificationFailed':
      return state.verification ? { ...state, verification: { ...state.verification, failures: state.verification.failures + 1 } } : state;
    case 'EmailVerified':
      return { ...state, emailVerified: true, verification: null };
    case 'PasswordResetCodeIssued':
      return {
        ...state,
        reset: { codeHash: event.data.codeHash, expiresAt: event.data.expiresAt, issuedAt: event.data.issuedAt, failures: 0 },
      };
    case 'PasswordResetFailed':
      return state.reset ? { ...state, reset: { ...state.reset, failures: state.reset.failures + 1 } } : state;
    case 'PasswordReset':
      // Receiving the reset code by mail proves the address too.
      return { ...state, passwordHash: event.data.passwordHash, reset: null, emailVerified: true };
    case 'TermsAccepted':
      return { ...state, termsAcceptedVersion: event.data.version };
    case 'RoleChanged':
      return { ...state, role: event.data.to };
    case 'TimezoneChanged':
      return { ...state, timezone: event.data.timezone };
    case 'GoogleAccountLinked':
      return { ...state, googleId: event.data.googleId };
    case 'AccountDeleted':
      return { ...initialUserState, exists: true, deleted: true };
    case 'SignedIn':
    case 'SignInFailed':
    case 'AccountMailSent':
      return state;
  }
}

export type UserCommand =
  | {
      type: 'RegisterUser';
      data: Omit<Extract<UserEvent, { type: 'UserRegistered' }>['data'], 'registeredAt'>;
      /** Absent for accounts that need no verification (Google, seeded). */
      verification: { codeHash: string; code: string } | null;
      now: Date;
    }
  | { type: 'IssueVerificationCode'; userId: string; codeHash: string; code: string; now: Date }
  | { type: 'VerifyEmail'; userId: string; codeHash: string; now: Date }
  | { type: 'RequestPasswordReset'; userId: string; codeHash: string; code: string; now: Date }
  | { type: 'ResetPassword'; userId: string; codeHash: string; passwordHash: string; now: Date }
  | { type: 'AcceptTerms'; userId: string; version: string; ip: string | null; now: Date }
  | { type: 'ChooseRole'; userId: string; role: string; now: Date }
  | { type: 'ChangeTimezone'; userId: string; timezone: string; now: Date }
  | { type: 'RecordSignIn'; userId: string; via: 'password' | 'google' | 'secondary'; now: Date }
  | { type: 'RecordSignInFailure'; userId: string; reason: 'wrong_password' | 'unverified' | 'rate_limited'; now: Date }
  | {
      type: 'LinkGoogleAccount';
      userId: string;
      googleId: string;
      accessToken: string | null;
      refreshToken: string | null;
      tokenExpiry: string | null;
      /** Google vouches for the address: an unverified local account with it becomes verified. */
      emailVerifiedByProvider: boolean;
      now: Date;
    }
  | { type: 'DeleteAccount'; userId: string; now: Date }
  | { type: 'RecordAccountMailSent'; userId: string; mailId: string; kind: 'verification' | 'password_reset'; now: Date };

export const INVALID_CODE = 'Invalid verification code';
export const EXPIRED_CODE = 'Verification code has expired. Please request a new one.';
export const TOO_MANY_ATTEMPTS = 'Too many incorrect attempts. Please request a new code.';
export const INVALID_RESET_CODE = 'Invalid or expired reset code';

function requireLive(state: UserState): void {
  if (!state.exists || state.deleted) throw new DomainError('Account not found', 404);
}

function resendAllowed(code: PendingCode | null, now: Date): void {
  if (code && now.getTime() - Date.parse(code.issuedAt) < CODE_RESEND_INTERVAL_SECONDS * 1000) {
    throw new DomainError(`Please wait ${CODE_RESEND_INTERVAL_SECONDS} seconds before requesting another code.`, 429);
  }
}

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  const at = command.now.toISOString();
  switch (command.type) {
    case 'RegisterUser': {
      if (state.exists) throw new DomainError('Account already exists', 409);
      const events: UserEvent[] = [{ type: 'UserRegistered', data: { ...command.data, registeredAt: at } }];
      if (command.verification) {
        events.push({
          type: 'EmailVerificationCodeIssued',
          data: {
            userId: command.data.userId,
            ...command.verification,
            issuedAt: at,
            expiresAt: addMinutes(command.now, VERIFICATION_CODE_TTL_MINUTES).toISOString(),
          },
        });
      }
      return events;
    }
    case 'IssueVerificationCode': {
      requireLive(state);
      if (state.emailVerified) throw new DomainError('Email is already verified', 400);
      resendAllowed(state.verification, command.now);
      return [
        {
          type: 'EmailVerificationCodeIssued',
          data: {
            userId: command.userId,
            codeHash: command.codeHash,
            code: command.code,
            issuedAt: at,
            expiresAt: addMinutes(command.now, VERIFICATION_CODE_TTL_MINUTES).toISOString(),
          },
        },
      ];
    }
    case 'VerifyEmail': {
      requireLive(state);
      if (state.emailVerified) throw new DomainError('Email is already verified', 400);
      const v = state.verification;
      if (!v) throw new DomainError(INVALID_CODE, 400);
      if (v.failures >= MAX_CODE_ATTEMPTS) throw new DomainError(TOO_MANY_ATTEMPTS, 429);
      if (Date.parse(v.expiresAt) <= command.now.getTime()) throw new DomainError(EXPIRED_CODE, 400);
      // A wrong code is recorded (it counts towards the limit); the caller reports it as refused.
      if (v.codeHash !== command.codeHash) return [{ type: 'EmailVerificationFailed', data: { userId: command.userId, at } }];
      return [{ type: 'EmailVerified', data: { userId: command.userId, at } }];
    }
    case 'RequestPasswordReset': {
      requireLive(state);
      resendAllowed(state.reset, command.now);
      return [
        {
          type: 'PasswordResetCodeIssued',
          data: {
            userId: command.userId,
            codeHash: command.codeHash,
            code: command.code,
            issuedAt: at,
            expiresAt: addMinutes(command.now, RESET_CODE_TTL_MINUTES).toISOString(),
          },
        },
      ];
    }
    case 'ResetPassword': {
      requireLive(state);
      const r = state.reset;
      if (!r || Date.parse(r.expiresAt) <= command.now.getTime()) throw new DomainError(INVALID_RESET_CODE, 400);
      if (r.failures >= MAX_CODE_ATTEMPTS) throw new DomainError(TOO_MANY_ATTEMPTS, 429);
      if (r.codeHash !== command.codeHash) return [{ type: 'PasswordResetFailed', data: { userId: command.userId, at } }];
      return [{ type: 'PasswordReset', data: { userId: command.userId, passwordHash: command.passwordHash, at } }];
    }
    case 'AcceptTerms': {
      requireLive(state);
      if (state.termsAcceptedVersion === command.version) return [];
      return [{ type: 'TermsAccepted', data: { userId: command.userId, version: command.version, ip: command.ip, at } }];
    }
    case 'ChooseRole': {
      requireLive(state);
      // Self-service role choice: only student (spec part 1 §6); every other role is granted by an admin.
      if (command.role !== 'student') throw new DomainError('You can only choose the student role', 403);
      if (state.role === 'student') return [];
      if (state.role === 'admin' || state.role === 'tutor' || state.role === 'finance') {
        throw new DomainError('Staff and tutor accounts cannot change their own role', 403);
      }
      return [{ type: 'RoleChanged', data: { userId: command.userId, from: state.role ?? 'student', to: 'student', at } }];
    }
    case 'ChangeTimezone': {
      requireLive(state);
      if (state.timezone === command.timezone) return [];
      return [{ type: 'TimezoneChanged', data: { userId: command.userId, timezone: command.timezone, at } }];
    }
    case 'RecordSignIn':
      requireLive(state);
      return [{ type: 'SignedIn', data: { userId: command.userId, via: command.via, at } }];
    case 'RecordSignInFailure':
      requireLive(state);
      return [{ type: 'SignInFailed', data: { userId: command.userId, reason: command.reason, at } }];
    case 'LinkGoogleAccount': {
      requireLive(state);
      const verified: UserEvent[] =
        command.emailVerifiedByProvider && !state.emailVerified ? [{ type: 'EmailVerified', data: { userId: command.userId, at } }] : [];
      return [
        ...verified,
        {
          type: 'GoogleAccountLinked',
          data: {
            userId: command.userId,
            googleId: command.googleId,
            accessToken: command.accessToken,
            refreshToken: command.refreshToken,
            tokenExpiry: command.tokenExpiry,
            at,
          },
        },
      ];
    }
    case 'DeleteAccount':
      requireLive(state);
      return [{ type: 'AccountDeleted', data: { userId: command.userId, at } }];
    case 'RecordAccountMailSent':
      // Also after a deletion: the audit trail keeps that the mail went out.
      return [{ type: 'AccountMailSent', data: { userId: command.userId, mailId: command.mailId, kind: command.kind, at } }];
  }
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: initialUserState,
  evolve: evolveUser,
  decide: decideUser,
};

export const userStreamId = (userId: string) => `user-${userId}`;
