import type { z } from 'zod';
import type { registrationPayloadSchema } from '../../domain/accounts/accountForms.ts';
import { CURRENT_TERMS_VERSION } from '../../domain/accounts/accountForms.ts';
import { DEFAULT_TIMEZONE } from '../../domain/accounts/accountPolicy.ts';
import { accountHolder } from '../../domain/accounts/reservation.ts';
import type { AccountRole } from '../../domain/accounts/user.ts';
import { type CommandContext, deterministicUuid } from '../kit/commandContext.ts';
import { compensating, stepOf } from '../kit/processStep.ts';
import { type AccountDeps, codeHash, newCode, reservationStreamId } from './accountDeps.ts';

export interface NewAccount {
  username: string;
  email: string;
  /** Plain password; null for accounts that sign in only with Google. */
  password: string | null;
  role: AccountRole;
  firstName: string;
  lastName: string;
  phone: string | null;
  authProvider: 'local' | 'google';
  googleId: string | null;
  /** Google-verified and seeded accounts need no code. */
  emailVerified: boolean;
  /** `at`: when it was accepted, if before the registration (a tutor's application). */
  termsAccepted: { version: string; ip: string | null; at?: string } | null;
  timezone?: string;
  parentId?: string | null;
  student?: { grade: string; isUniversityStudent: boolean; schoolYearStartMonth?: number | null } | null;
}

export const USERNAME_TAKEN = 'Username already exists';
export const EMAIL_TAKEN = 'Email already registered';

/**
 * Registration spans streams: claim the username, claim the e-mail, then write the user (and the
 * student profile). A claim lost to a concurrent registration releases what was already claimed.
 * Ids derive from the command id, so a retried registration lands on the same streams.
 */
export async function registerAccount(deps: AccountDeps, account: NewAccount, ctx: CommandContext) {
  const { users, students, reservations } = deps.handlers;
  const userId = deterministicUuid(`user/${ctx.commandId}`);
  const holderId = accountHolder(userId);
  const passwordHash = account.password ? await deps.hasher.hash(account.password) : null;
  const usernameStream = reservationStreamId('username', account.username);
  const emailStream = reservationStreamId('email', account.email);
  const step = stepOf(ctx);
  const release = (stream: string, name: string) => () => reservations.handle(stream, { type: 'Release', data: { holderId } }, step(name));

  await reservations.handle(
    usernameStream,
    { type: 'Reserve', data: { holderId, takenMessage: USERNAME_TAKEN } },
    step('reserve-username'),
  );
  await compensating(
    () => reservations.handle(emailStream, { type: 'Reserve', data: { holderId, takenMessage: EMAIL_TAKEN } }, step('reserve-email')),
    release(usernameStream, 'release-username'),
  );

  const code = account.emailVerified ? null : newCode();
  const registration = {
    userId,
    username: account.username.trim(),
    email: account.email.trim().toLowerCase(),
    passwordHash,
    role: account.role,
    firstName: account.firstName.trim(),
    lastName: account.lastName.trim(),
    phone: account.phone?.trim() || null,
    authProvider: account.authProvider,
    googleId: account.googleId,
    timezone: account.timezone ?? DEFAULT_TIMEZONE,
    emailVerified: account.emailVerified,
    termsAcceptedAt: account.termsAccepted ? (account.termsAccepted.at ?? ctx.now.toISOString()) : null,
    termsAcceptedIp: account.termsAccepted?.ip ?? null,
    termsAcceptedVersion: account.termsAccepted?.version ?? null,
    parentId: account.parentId ?? null,
  };
  // A user that cannot be written (refused input) gives both claims back.
  const result = await compensating(
    () =>
      users.handle(
        userId,
        { type: 'RegisterUser', data: { registration, verification: code ? { code, codeHash: codeHash(userId, code) } : null } },
        step('register'),
        { expectNewStream: true },
      ),
    async () => {
      await release(emailStream, 'release-email')();
      await release(usernameStream, 'release-username')();
    },
  );
  let position = result.position;
  let studentId: string | null = null;
  if (account.student) {
    studentId = deterministicUuid(`student/${ctx.commandId}`);
    const created = await students.handle(
      studentId,
      {
        type: 'CreateStudentProfile',
        data: {
          studentId,
          userId,
          parentId: account.parentId ?? null,
          firstName: account.firstName.trim(),
          lastName: account.lastName.trim(),
          grade: account.student.grade,
          isUniversityStudent: account.student.isUniversityStudent,
          schoolYearStartMonth: account.student.schoolYearStartMonth ?? null,
        },
      },
      step('student-profile'),
      { expectNewStream: true },
    );
    position = created.position ?? position;
  }
  return { userId, studentId, position };
}

/** Self-registration (spec part 1 §5): students only, terms accepted, a code mailed. */
export function registerStudent(deps: AccountDeps, input: z.infer<typeof registrationPayloadSchema>, ctx: CommandContext) {
  return registerAccount(
    deps,
    {
      username: input.username,
      email: input.email,
      password: input.password,
      role: 'student',
      firstName: input.firstName,
      lastName: input.lastName,
      phone: input.phone ?? null,
      authProvider: 'local',
      googleId: null,
      emailVerified: false,
      termsAccepted: { version: input.termsAcceptedVersion ?? CURRENT_TERMS_VERSION, ip: ctx.ip },
      student: { grade: input.grade ?? 'University/College', isUniversityStudent: input.isUniversityStudent ?? false },
    },
    ctx,
  );
}
