import { randomInt } from 'node:crypto';
import type { Position } from '../../adapters/eventstore/eventStore.ts';
import type { ExternalIdentity, SignInUserType } from '../../adapters/identity/identityProvider.ts';
import { landingOf } from '../../domain/accounts/accountForms.ts';
import { reservationDecider } from '../../domain/accounts/reservation.ts';
import { tutorApplicationDecider, tutorApplicationStreamId } from '../../domain/accounts/tutorApplication.ts';
import { type UserState, userDecider, userStreamId } from '../../domain/accounts/userDecider.ts';
import { DomainError } from '../../domain/decider.ts';
import { type CommandContext, deterministicUuid } from '../kit/commandContext.ts';
import { handleCommand, loadState } from '../kit/handleCommand.ts';
import { type AccountDeps, findUserByEmail, reservationStreamId } from './accountDeps.ts';
import { EMAIL_TAKEN, registerAccount, USERNAME_TAKEN } from './registerUser.ts';
import type { SignedIn } from './signIn.ts';

export const GOOGLE_EMAIL_UNVERIFIED = 'Your Google e-mail address is not verified';
export const GOOGLE_ACCOUNT_MISMATCH = 'This e-mail address is linked to a different Google account';
export const TUTOR_APPLICATION_SUBMITTED = '/tutor-login?status=submitted';

export interface GoogleSignInResult {
  outcome: 'signed_in' | 'registered' | 'applied';
  /** Where the browser goes next: the role's landing page, or the tutor application page. */
  redirectTo: string;
  /** Absent for a tutor applicant: no account until an admin approves the application. */
  session?: SignedIn;
  /** Position of the last event written (for read-your-writes waits). */
  position: Position | null;
}

interface FoundAccount {
  userId: string;
  state: UserState;
  matchedBy: 'google' | 'email';
}

type Step = (name: string) => CommandContext;

/** The live account of the Google identity: by linked Google id first, then by e-mail address. */
async function findAccount(deps: AccountDeps, identity: ExternalIdentity): Promise<FoundAccount | null> {
  const load = async (userId: string, matchedBy: FoundAccount['matchedBy']): Promise<FoundAccount | null> => {
    const state = await loadState(deps.store, userDecider, userStreamId(userId));
    return state.exists && !state.deleted ? { userId, state, matchedBy } : null;
  };
  const [byGoogle] = await deps.sql<{ id: string }[]>`SELECT id FROM users WHERE google_id = ${identity.subject} LIMIT 1`;
  const linked = byGoogle ? await load(byGoogle.id, 'google') : null;
  if (linked) return linked;
  // The read model first; the e-mail reservation (written before the user) covers projection lag.
  const byEmail = (await findUserByEmail(deps.sql, identity.email))?.id ?? (await emailHolder(deps, identity.email));
  return byEmail ? load(byEmail, 'email') : null;
}

async function emailHolder(deps: AccountDeps, email: string): Promise<string | null> {
  return (await loadState(deps.store, reservationDecider, reservationStreamId('email', email))).heldBy;
}

/** Link the tokens, record the sign-in, open a session: the same for a found and a new account. */
async function completeSignIn(
  deps: AccountDeps,
  userId: string,
  role: string,
  identity: ExternalIdentity,
  step: Step,
  now: Date,
): Promise<{ session: SignedIn; position: Position | null }> {
  await handleCommand(
    deps.store,
    userDecider,
    userStreamId(userId),
    {
      type: 'LinkGoogleAccount',
      userId,
      googleId: identity.subject,
      accessToken: identity.accessToken,
      refreshToken: identity.refreshToken,
      tokenExpiry: identity.expiresAt?.toISOString() ?? null,
      emailVerifiedByProvider: identity.emailVerified,
      now,
    },
    step('link-google'),
  );
  const signedIn = await handleCommand(
    deps.store,
    userDecider,
    userStreamId(userId),
    { type: 'RecordSignIn', userId, via: 'google', now },
    step('sign-in'),
  );
  const session = await deps.sessions.create(userId, role);
  return { session: { userId, role, studentId: null, ...session }, position: signedIn.position };
}

async function signInExisting(
  deps: AccountDeps,
  found: FoundAccount,
  identity: ExternalIdentity,
  step: Step,
  now: Date,
): Promise<GoogleSignInResult> {
  if (found.matchedBy === 'email') {
    // Only a verified address may claim an account by e-mail, and never one linked to another Google account.
    if (!identity.emailVerified) throw new DomainError(GOOGLE_EMAIL_UNVERIFIED, 403);
    if (found.state.googleId && found.state.googleId !== identity.subject) throw new DomainError(GOOGLE_ACCOUNT_MISMATCH, 409);
  }
  const role = found.state.role ?? 'student';
  const { session, position } = await completeSignIn(deps, found.userId, role, identity, step, now);
  return { outcome: 'signed_in', redirectTo: landingOf(role), session, position };
}

/** A username from the e-mail's local part: letters, digits, `.`, `_`, `-`; a random suffix when taken. */
async function freeUsername(deps: AccountDeps, email: string, attempt: number): Promise<string> {
  const local = (email.split('@')[0] ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '')
    .slice(0, 30);
  const base = local.length >= 3 ? local : `user${local}`;
  for (let i = attempt; i < attempt + 20; i++) {
    const candidate = i === 0 ? base : `${base}${randomInt(1000, 10_000)}`;
    const [clash] = await deps.sql`
      SELECT 1 FROM users WHERE lower(username) = ${candidate}
      UNION ALL SELECT 1 FROM students WHERE lower(secondary_username) = ${candidate} LIMIT 1`;
    if (!clash) return candidate;
  }
  throw new DomainError(USERNAME_TAKEN, 409);
}

async function registerStudentFromGoogle(
  deps: AccountDeps,
  identity: ExternalIdentity,
  step: Step,
  now: Date,
): Promise<GoogleSignInResult> {
  for (let attempt = 0; ; attempt++) {
    const username = await freeUsername(deps, identity.email, attempt);
    try {
      const { userId } = await registerAccount(
        deps,
        {
          username,
          email: identity.email,
          password: null,
          role: 'student',
          firstName: identity.firstName,
          lastName: identity.lastName,
          phone: null,
          authProvider: 'google',
          googleId: identity.subject,
          emailVerified: true,
          // The terms gate (/accept-terms) asks for them at the first visit.
          termsAccepted: null,
          // The grade is unknown here: the student profile is created when the student gives it.
          student: null,
        },
        step(`register-${attempt}`),
      );
      const { session, position } = await completeSignIn(deps, userId, 'student', identity, step, now);
      return { outcome: 'registered', redirectTo: landingOf('student'), session, position };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.message === USERNAME_TAKEN && attempt < 5) continue;
      if (error.message === EMAIL_TAKEN) {
        // A concurrent sign-in with the same address created the account first: sign into it.
        const found = await findAccount(deps, identity);
        if (found) return signInExisting(deps, found, identity, step, now);
      }
      throw error;
    }
  }
}

/**
 * A tutor who is not yet a user applies (spec part 1 §1: tutors get an account only once
 * selected). No user and no session are created, so an applicant has no tutor powers; the
 * application (personal fields sealed) waits for an admin. The application is keyed by the
 * Google subject, so signing in again does not apply twice. Calendar tokens are not kept for an
 * applicant: a selected tutor grants them again at the first sign-in (prompt=consent).
 */
async function submitTutorApplication(deps: AccountDeps, identity: ExternalIdentity, step: Step, now: Date): Promise<GoogleSignInResult> {
  const applicantId = deterministicUuid(`tutor-applicant/${identity.subject}`);
  const result = await handleCommand(
    deps.store,
    tutorApplicationDecider,
    tutorApplicationStreamId(applicantId),
    {
      type: 'SubmitTutorApplication',
      data: {
        applicationId: deterministicUuid(`tutor-application/${identity.subject}`),
        userId: applicantId,
        email: identity.email,
        firstName: identity.firstName,
        lastName: identity.lastName,
        googleId: identity.subject,
      },
      now,
    },
    step('tutor-application'),
  );
  return { outcome: 'applied', redirectTo: TUTOR_APPLICATION_SUBMITTED, position: result.position };
}

/**
 * Sign-in with a verified Google (or dev) identity:
 * - an account linked to the Google id, or holding its verified e-mail address, is signed into
 *   (whatever the button: its role decides the landing page), and the tokens are linked;
 * - otherwise a student button creates a verified, password-less student account;
 * - otherwise a tutor button submits a tutor application, without an account or a session.
 */
export async function signInWithGoogle(
  deps: AccountDeps,
  identity: ExternalIdentity,
  userType: SignInUserType,
  ctx: CommandContext,
): Promise<GoogleSignInResult> {
  const step: Step = (name) => ({ ...ctx, commandId: deterministicUuid(`${ctx.commandId}/${name}`), causationId: ctx.commandId });
  const found = await findAccount(deps, identity);
  if (found) return signInExisting(deps, found, identity, step, ctx.now);
  if (!identity.emailVerified) throw new DomainError(GOOGLE_EMAIL_UNVERIFIED, 403);
  if (userType === 'tutor') return submitTutorApplication(deps, identity, step, ctx.now);
  return registerStudentFromGoogle(deps, identity, step, ctx.now);
}
