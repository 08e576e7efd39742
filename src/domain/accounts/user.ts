import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';
import { DEFAULT_TIMEZONE } from './accountPolicy.ts';

export const roles = ['admin', 'tutor', 'parent', 'student', 'student_secondary', 'finance'] as const;
export type Role = (typeof roles)[number];
export const accountRoles = ['admin', 'tutor', 'parent', 'student', 'finance'] as const;
export type AccountRole = (typeof accountRoles)[number];

const at = z.string();
const userId = z.string();

export const userRegistered = z.object({
  userId,
  username: z.string(),
  email: z.string(),
  passwordHash: z.string().nullable(),
  role: z.enum(accountRoles),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  authProvider: z.enum(['local', 'google']),
  googleId: z.string().nullable(),
  timezone: z.string(),
  emailVerified: z.boolean(),
  termsAcceptedAt: z.string().nullable(),
  termsAcceptedIp: z.string().nullable(),
  termsAcceptedVersion: z.string().nullable(),
  parentId: z.string().nullable(),
  registeredAt: at,
});
export const codeIssued = z.object({ userId, codeHash: z.string(), code: z.string(), expiresAt: at, issuedAt: at });
export const attemptFailed = z.object({ userId, at });
export const emailVerified = z.object({ userId, at });
export const passwordReset = z.object({ userId, passwordHash: z.string(), at });
export const termsAccepted = z.object({ userId, version: z.string(), ip: z.string().nullable(), at });
export const roleChanged = z.object({ userId, from: z.enum(accountRoles), to: z.enum(accountRoles), at });
/**
 * `chosen`: the person picked the zone themselves (issue 24), so the sign-in sync of the browser's
 * zone leaves it alone; absent (older events) or false when it follows the device.
 */
export const timezoneChanged = z.object({ userId, timezone: z.string(), chosen: z.boolean().optional(), at });
/** The account holder's own name, trimmed (spec part 2 §5: neither part empty). */
export const nameChanged = z.object({ userId, firstName: z.string(), lastName: z.string(), at });
export const googleAccountLinked = z.object({
  userId,
  googleId: z.string(),
  accessToken: z.string().nullable(),
  refreshToken: z.string().nullable(),
  tokenExpiry: z.string().nullable(),
  at,
});
/** The calendar adapter refreshed the tutor's Google tokens: the newest ones, sealed like the linked ones. */
export const googleTokensRefreshed = z.object({
  userId,
  accessToken: z.string().nullable(),
  refreshToken: z.string().nullable(),
  tokenExpiry: z.string().nullable(),
  at,
});
export const accountDeleted = z.object({
  userId,
  at,
  /** Contact messages sent from the account's address while signed out: erased with it. */
  contactIds: z.array(z.string()).optional(),
  /** The sessions of the account's students as the read model knew them (booked before the workflow followed bookings): erased with it. */
  sessionIds: z.array(z.string()).optional(),
});

/** An admin suspended the account (sign-in refused, open sessions ended) or lifted it; the reason is the admin's. */
export const userDeactivated = z.object({ userId, reason: z.string(), at });
export const userReactivated = z.object({ userId, reason: z.string(), at });

/** Every personal field of a user's events is sealed with that user's key. */
const personOf = (d: { userId: string }) => `user-${d.userId}`;

export const userEvents = {
  UserRegistered: eventType(userRegistered, {
    personal: {
      fields: ['username', 'email', 'passwordHash', 'firstName', 'lastName', 'phone', 'googleId', 'termsAcceptedIp'],
      subject: personOf,
    },
    describe: (d) => `Account registered (${d.role}, ${d.authProvider})`,
  }),
  EmailVerificationCodeIssued: eventType(codeIssued, {
    personal: { fields: ['code'], subject: personOf },
    describe: () => 'E-mail verification code sent',
  }),
  EmailVerificationFailed: eventType(attemptFailed, { describe: () => 'Wrong e-mail verification code entered' }),
  EmailVerified: eventType(emailVerified, { describe: () => 'E-mail address verified' }),
  PasswordResetCodeIssued: eventType(codeIssued, {
    personal: { fields: ['code'], subject: personOf },
    describe: () => 'Password reset code sent',
  }),
  PasswordResetFailed: eventType(attemptFailed, { describe: () => 'Wrong password reset code entered' }),
  PasswordReset: eventType(passwordReset, {
    personal: { fields: ['passwordHash'], subject: personOf },
    describe: () => 'Password reset',
  }),
  TermsAccepted: eventType(termsAccepted, {
    personal: { fields: ['ip'], subject: personOf },
    describe: (d) => `Terms version ${d.version} accepted`,
  }),
  RoleChanged: eventType(roleChanged, { describe: (d) => `Role changed from ${d.from} to ${d.to}` }),
  TimezoneChanged: eventType(timezoneChanged, {
    describe: (d) => (d.chosen ? `Time zone chosen: ${d.timezone}` : `Time zone set to ${d.timezone}`),
  }),
  NameChanged: eventType(nameChanged, {
    personal: { fields: ['firstName', 'lastName'], subject: personOf },
    describe: () => 'Name changed',
  }),
  GoogleAccountLinked: eventType(googleAccountLinked, {
    personal: { fields: ['googleId', 'accessToken', 'refreshToken'], subject: personOf },
    describe: () => 'Google account linked',
  }),
  GoogleTokensRefreshed: eventType(googleTokensRefreshed, {
    personal: { fields: ['accessToken', 'refreshToken'], subject: personOf },
    describe: () => 'Google tokens refreshed',
  }),
  AccountDeleted: eventType(accountDeleted, { describe: () => 'Account deleted; personal data erased' }),
  UserDeactivated: eventType(userDeactivated, { describe: (d) => `Account deactivated by an admin: ${d.reason}` }),
  UserReactivated: eventType(userReactivated, { describe: (d) => `Account reactivated by an admin: ${d.reason}` }),
};

export type UserEvent = EventsOf<typeof userEvents>;

export interface PendingCode {
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
  /** The person chose the zone: the automatic sign-in sync no longer changes it. */
  timezoneChosen: boolean;
  /** The current name (personal: decrypted in memory only), so an unchanged name records nothing. */
  name: { firstName: string; lastName: string } | null;
  /** Suspended by an admin: sign-in is refused until an admin reactivates it. */
  deactivated: boolean;
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
  timezoneChosen: false,
  name: null,
  deactivated: false,
};

const pending = (d: { codeHash: string; expiresAt: string; issuedAt: string }): PendingCode => ({
  codeHash: d.codeHash,
  expiresAt: d.expiresAt,
  issuedAt: d.issuedAt,
  failures: 0,
});
const failedOnce = (code: PendingCode | null) => (code ? { ...code, failures: code.failures + 1 } : code);

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
        name: { firstName: event.data.firstName, lastName: event.data.lastName },
      };
    case 'EmailVerificationCodeIssued':
      return { ...state, verification: pending(event.data) };
    case 'EmailVerificationFailed':
      return { ...state, verification: failedOnce(state.verification) };
    case 'EmailVerified':
      return { ...state, emailVerified: true, verification: null };
    case 'PasswordResetCodeIssued':
      return { ...state, reset: pending(event.data) };
    case 'PasswordResetFailed':
      return { ...state, reset: failedOnce(state.reset) };
    case 'PasswordReset':
      // Receiving the reset code by mail proves the address too.
      return { ...state, passwordHash: event.data.passwordHash, reset: null, emailVerified: true };
    case 'TermsAccepted':
      return { ...state, termsAcceptedVersion: event.data.version };
    case 'RoleChanged':
      return { ...state, role: event.data.to };
    case 'TimezoneChanged':
      return { ...state, timezone: event.data.timezone, timezoneChosen: event.data.chosen === true };
    case 'NameChanged':
      return { ...state, name: { firstName: event.data.firstName, lastName: event.data.lastName } };
    case 'GoogleAccountLinked':
      return { ...state, googleId: event.data.googleId };
    case 'GoogleTokensRefreshed':
      return state;
    case 'AccountDeleted':
      return { ...initialUserState, exists: true, deleted: true };
    case 'UserDeactivated':
      return { ...state, deactivated: true };
    case 'UserReactivated':
      return { ...state, deactivated: false };
  }
}

export const userStreamId = (userId: string) => `user-${userId}`;
