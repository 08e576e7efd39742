import type { z } from 'zod';
import type { AccountRole } from '../../domain/accounts/accountEvents.ts';
import type { registrationPayloadSchema } from '../../domain/accounts/accountForms.ts';
import { CURRENT_TERMS_VERSION } from '../../domain/accounts/accountForms.ts';
import { DEFAULT_TIMEZONE } from '../../domain/accounts/accountPolicy.ts';
import { reservationDecider } from '../../domain/accounts/reservation.ts';
import { studentDecider, studentStreamId } from '../../domain/accounts/studentProfile.ts';
import { userDecider, userStreamId } from '../../domain/accounts/userDecider.ts';
import { type CommandContext, deterministicUuid } from '../kit/commandContext.ts';
import { handleCommand } from '../kit/handleCommand.ts';
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
  termsAccepted: { version: string; ip: string | null } | null;
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
  const userId = deterministicUuid(`user/${ctx.commandId}`);
  const passwordHash = account.password ? await deps.hasher.hash(account.password) : null;
  const usernameStream = reservationStreamId('username', account.username);
  const emailStream = reservationStreamId('email', account.email);
  const step = (name: string) => ({ ...ctx, commandId: deterministicUuid(`${ctx.commandId}/${name}`), causationId: ctx.commandId });

  await handleCommand(
    deps.store,
    reservationDecider,
    usernameStream,
    { type: 'Reserve', userId, takenMessage: USERNAME_TAKEN, now: ctx.now },
    step('reserve-username'),
  );
  try {
    await handleCommand(
      deps.store,
      reservationDecider,
      emailStream,
      { type: 'Reserve', userId, takenMessage: EMAIL_TAKEN, now: ctx.now },
      step('reserve-email'),
    );
  } catch (error) {
    await handleCommand(
      deps.store,
      reservationDecider,
      usernameStream,
      { type: 'Release', userId, now: ctx.now },
      step('release-username'),
    );
    throw error;
  }

  const code = account.emailVerified ? null : newCode();
  const result = await handleCommand(
    deps.store,
    userDecider,
    userStreamId(userId),
    {
      type: 'RegisterUser',
      data: {
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
        termsAcceptedAt: account.termsAccepted ? ctx.now.toISOString() : null,
        termsAcceptedIp: account.termsAccepted?.ip ?? null,
        termsAcceptedVersion: account.termsAccepted?.version ?? null,
        parentId: account.parentId ?? null,
      },
      verification: code ? { code, codeHash: codeHash(userId, code) } : null,
      now: ctx.now,
    },
    step('register'),
    { expectNewStream: true },
  );
  let position = result.position;
  let studentId: string | null = null;
  if (account.student) {
    studentId = deterministicUuid(`student/${ctx.commandId}`);
    const created = await handleCommand(
      deps.store,
      studentDecider,
      studentStreamId(studentId),
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
        now: ctx.now,
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
