import { z } from 'zod';
import { defineEvent } from '../eventDefinition.ts';

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
export const timezoneChanged = z.object({ userId, timezone: z.string(), at });
export const signedIn = z.object({ userId, via: z.enum(['password', 'google', 'secondary']), at });
export const signInFailed = z.object({ userId, reason: z.enum(['wrong_password', 'unverified', 'rate_limited']), at });
export const googleAccountLinked = z.object({
  userId,
  googleId: z.string(),
  accessToken: z.string().nullable(),
  refreshToken: z.string().nullable(),
  tokenExpiry: z.string().nullable(),
  at,
});
export const accountDeleted = z.object({ userId, at });
export const accountMailSent = z.object({ userId, mailId: z.string(), kind: z.enum(['verification', 'password_reset']), at });

export type UserEvent =
  | { type: 'UserRegistered'; data: z.infer<typeof userRegistered> }
  | { type: 'EmailVerificationCodeIssued'; data: z.infer<typeof codeIssued> }
  | { type: 'EmailVerificationFailed'; data: z.infer<typeof attemptFailed> }
  | { type: 'EmailVerified'; data: z.infer<typeof emailVerified> }
  | { type: 'PasswordResetCodeIssued'; data: z.infer<typeof codeIssued> }
  | { type: 'PasswordResetFailed'; data: z.infer<typeof attemptFailed> }
  | { type: 'PasswordReset'; data: z.infer<typeof passwordReset> }
  | { type: 'TermsAccepted'; data: z.infer<typeof termsAccepted> }
  | { type: 'RoleChanged'; data: z.infer<typeof roleChanged> }
  | { type: 'TimezoneChanged'; data: z.infer<typeof timezoneChanged> }
  | { type: 'SignedIn'; data: z.infer<typeof signedIn> }
  | { type: 'SignInFailed'; data: z.infer<typeof signInFailed> }
  | { type: 'GoogleAccountLinked'; data: z.infer<typeof googleAccountLinked> }
  | { type: 'AccountDeleted'; data: z.infer<typeof accountDeleted> }
  | { type: 'AccountMailSent'; data: z.infer<typeof accountMailSent> };

/** Every personal field of a user's events is sealed with that user's key. */
const personOf = (d: { userId: string }) => `user-${d.userId}`;

export const userEventCatalog = {
  UserRegistered: defineEvent({
    schema: userRegistered,
    personal: {
      fields: ['username', 'email', 'passwordHash', 'firstName', 'lastName', 'phone', 'googleId', 'termsAcceptedIp'],
      subject: personOf,
    },
    describe: (d: z.infer<typeof userRegistered>) => `Account registered (${d.role}, ${d.authProvider})`,
  }),
  EmailVerificationCodeIssued: defineEvent({
    schema: codeIssued,
    personal: { fields: ['code'], subject: personOf },
    describe: () => 'E-mail verification code sent',
  }),
  EmailVerificationFailed: defineEvent({ schema: attemptFailed, describe: () => 'Wrong e-mail verification code entered' }),
  EmailVerified: defineEvent({ schema: emailVerified, describe: () => 'E-mail address verified' }),
  PasswordResetCodeIssued: defineEvent({
    schema: codeIssued,
    personal: { fields: ['code'], subject: personOf },
    describe: () => 'Password reset code sent',
  }),
  PasswordResetFailed: defineEvent({ schema: attemptFailed, describe: () => 'Wrong password reset code entered' }),
  PasswordReset: defineEvent({
    schema: passwordReset,
    personal: { fields: ['passwordHash'], subject: personOf },
    describe: () => 'Password reset',
  }),
  TermsAccepted: defineEvent({
    schema: termsAccepted,
    personal: { fields: ['ip'], subject: personOf },
    describe: (d: z.infer<typeof termsAccepted>) => `Terms version ${d.version} accepted`,
  }),
  RoleChanged: defineEvent({ schema: roleChanged, describe: (d: z.infer<typeof roleChanged>) => `Role changed from ${d.from} to ${d.to}` }),
  TimezoneChanged: defineEvent({
    schema: timezoneChanged,
    describe: (d: z.infer<typeof timezoneChanged>) => `Time zone set to ${d.timezone}`,
  }),
  SignedIn: defineEvent({ schema: signedIn, describe: (d: z.infer<typeof signedIn>) => `Signed in (${d.via})` }),
  SignInFailed: defineEvent({ schema: signInFailed, describe: (d: z.infer<typeof signInFailed>) => `Sign-in refused (${d.reason})` }),
  GoogleAccountLinked: defineEvent({
    schema: googleAccountLinked,
    personal: { fields: ['googleId', 'accessToken', 'refreshToken'], subject: personOf },
    describe: () => 'Google account linked',
  }),
  AccountDeleted: defineEvent({ schema: accountDeleted, describe: () => 'Account deleted; personal data erased' }),
  AccountMailSent: defineEvent({
    schema: accountMailSent,
    describe: (d: z.infer<typeof accountMailSent>) =>
      d.kind === 'verification' ? 'Verification code e-mailed' : 'Password reset code e-mailed',
  }),
};
