import type { z } from 'zod';
import type { ExternalIdentity, SignInUserType } from '../../adapters/identity/identityProvider.ts';
import type { registrationPayloadSchema } from '../../domain/accounts/accountForms.ts';
import type { AdminUserListFilter } from '../../domain/accounts/adminUserApi.ts';
import type { TimezoneMode } from '../../domain/accounts/userDecider.ts';
import {
  currentUser,
  findAdminUser,
  findOwnStudent,
  findStudent,
  listUsersForAdmin,
  studentAccount,
  studentsOfParent,
} from '../../projections/accounts/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import type { AccountDeps } from './accountDeps.ts';
import { acceptTerms, changeName, changeTimezone, chooseRole, setSecondaryLogin, updateStudentAccount } from './accountSettings.ts';
import { deleteAccount } from './deleteAccount.ts';
import { resendVerification, verifyEmail } from './emailVerification.ts';
import { signInWithGoogle } from './googleSignIn.ts';
import { requestPasswordReset, resetPassword } from './passwordReset.ts';
import { registerStudent } from './registerUser.ts';
import { clearSignInFailures, type SignInLimits, signIn } from './signIn.ts';
import { deactivateUser, reactivateUser } from './userStatus.ts';

/**
 * What the accounts feature needs, given by system.ts: the account dependencies every account
 * command takes (store, read models, hasher, sign-in store, rate limiter, vault), and the tutors
 * feature's one fact a Google sign-in's landing needs.
 */
export interface AccountsModuleDeps extends AccountDeps {
  /** Whether the approved tutor with this account has not finished onboarding (from the tutor's stream: the read model may lag). */
  tutorOnboardingPending(userId: string): Promise<boolean>;
}

type Signed = { userId: string; role: string; studentId: string | null };

/**
 * The accounts feature's use cases and queries (spec part 1 §2–§5), built once by system.ts:
 * registration, verification, password and Google sign-in, password reset, the account's own
 * settings, a student's account and view-only login, deletion, and the console's deactivation.
 * It is also the `AccountDeps` the account commands take, so seeds, the CLI and tests call those
 * commands with `system.accounts` directly. Who may do what is the routes' part (role config, the
 * holder checks over what `student` and `ownStudent` load); every write answers the position its
 * wait needs.
 */
export function accountsModule(deps: AccountsModuleDeps) {
  const { tutorOnboardingPending, ...accountDeps } = deps;
  const { sql } = accountDeps;
  return {
    ...accountDeps,

    /** Which projections the account answers read. */
    projections: ['users', 'students'] as const,

    /** The user as the UI reads it (a view-only login reads its student's account); null when the read model has no row. */
    currentUser: (principal: Signed) => currentUser(sql, principal),

    /** The student profile (with its holders); null when unknown. */
    student: (studentId: string) => findStudent(sql, studentId),

    /** The student `userId` holds or is the parent of: `studentId` when theirs, else their first; null when none. */
    ownStudent: (userId: string, studentId: string | null) => findOwnStudent(sql, userId, studentId),

    /** A student's grade and school year, as the account form shows them. */
    studentAccount: (studentId: string) => studentAccount(sql, studentId),

    /** A parent's students, by name. */
    studentsOfParent: (parentId: string) => studentsOfParent(sql, parentId),

    /** Self-registration (students only); mails a verification code. */
    register: (input: z.infer<typeof registrationPayloadSchema>, ctx: CommandContext) => registerStudent(accountDeps, input, ctx),

    /** A verified, deleted or unknown address answers as a wrong code (no enumeration). */
    verifyEmail: (email: string, code: string, ctx: CommandContext) => verifyEmail(accountDeps, email, code, ctx),

    /** A verified, deleted or unknown address answers as a sent code (no enumeration). */
    resendVerification: (email: string, ctx: CommandContext) => resendVerification(accountDeps, email, ctx),

    /** Password sign-in by username, e-mail or view-only username; opens a sign-in session. */
    signIn: (login: string, password: string, ctx: CommandContext, limits: SignInLimits) =>
      signIn(accountDeps, login, password, ctx, limits),

    /** Ends one sign-in session (sign-out, or the token a new sign-in replaces). */
    endSignIn: (token: string) => accountDeps.signIns.end(token),

    /** Mails a reset code if the address has an account; answers the same either way. */
    requestPasswordReset: (email: string, ctx: CommandContext) => requestPasswordReset(accountDeps, email, ctx),

    /**
     * Sets the new password with the mailed code; every session ends, and the failed sign-ins (an
     * attacker's lock) no longer hold the account: the owner proved it.
     */
    async resetPassword(email: string, code: string, newPassword: string, ctx: CommandContext) {
      const result = await resetPassword(accountDeps, email, code, newPassword, ctx);
      await clearSignInFailures(accountDeps, result.userId);
      return result;
    },

    acceptTerms: (userId: string, version: string, ctx: CommandContext) => acceptTerms(accountDeps, userId, version, ctx),

    chooseRole: (userId: string, role: string, ctx: CommandContext) => chooseRole(accountDeps, userId, role, ctx),

    changeTimezone: (userId: string, timezone: string, ctx: CommandContext, mode?: TimezoneMode) =>
      changeTimezone(accountDeps, userId, timezone, ctx, mode),

    changeName: (userId: string, name: { firstName: string; lastName: string }, ctx: CommandContext) =>
      changeName(accountDeps, userId, name, ctx),

    /** The student's grade and school year (the route checked the caller holds the student). */
    updateStudentAccount: (studentId: string, account: { grade: string; schoolYearStartMonth: number }, ctx: CommandContext) =>
      updateStudentAccount(accountDeps, studentId, account, ctx),

    /** The student's view-only login (the route checked the caller holds the student); the username is claimed on its reservation stream. */
    setSecondaryLogin: (studentId: string, username: string, password: string | undefined, ctx: CommandContext) =>
      setSecondaryLogin(accountDeps, studentId, username, password, ctx),

    /** Deletion by crypto-shredding: the deletion workflow follows from the position answered. */
    deleteAccount: (userId: string, ctx: CommandContext) => deleteAccount(accountDeps, userId, ctx),

    /**
     * Google (or dev) sign-in with the identity the provider vouched for: signs the person in,
     * registers a student, or records a tutor's application (src/commands/accounts/googleSignIn.ts);
     * `onboardingPending` for an approved tutor who has not finished onboarding.
     */
    async signInWithGoogle(person: ExternalIdentity, userType: SignInUserType, termsAcceptedVersion: string | null, ctx: CommandContext) {
      const result = await signInWithGoogle(accountDeps, person, userType, ctx, termsAcceptedVersion);
      const onboardingPending = result.signIn?.role === 'tutor' ? await tutorOnboardingPending(result.signIn.userId) : false;
      return { ...result, onboardingPending };
    },

    /** The console's Users tab: one page of accounts, searched, filtered and sorted. */
    adminUsers: (query: AdminUserListFilter) => listUsersForAdmin(sql, query),

    /** One account as the console lists it; null when unknown. */
    adminUser: (userId: string) => findAdminUser(sql, userId),

    /** An admin deactivates (sign-in refused, sessions end) or reactivates an account, with a reason. */
    setStatus: (action: 'deactivate' | 'reactivate', input: { userId: string; reason: string }, ctx: CommandContext) =>
      action === 'deactivate' ? deactivateUser(accountDeps, input, ctx) : reactivateUser(accountDeps, input, ctx),
  };
}

export type AccountsModule = ReturnType<typeof accountsModule>;
