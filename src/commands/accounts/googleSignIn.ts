import { randomInt } from 'node:crypto';
import type { Position } from '../../adapters/eventstore/eventStore.ts';
import type { ExternalIdentity, SignInUserType } from '../../adapters/identity/identityProvider.ts';
import type { UserState } from '../../domain/accounts/user.ts';
import { ACCOUNT_DEACTIVATED, signInRefusal } from '../../domain/accounts/userActivityDecider.ts';
import { GOOGLE_EMAIL_UNVERIFIED } from '../../domain/accounts/userDecider.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { invitationKeyName, tutorInvitationStreamId } from '../../domain/tutors/invitation.ts';
import { acceptedInvitation, tutorInvitationDecider } from '../../domain/tutors/invitationDecider.ts';
import { findUserByEmail, findUserIdByGoogleId, isUsernameTaken } from '../../projections/accounts/queries.ts';
import { type CommandContext, deterministicUuid } from '../kit/commandContext.ts';
import { commandHandler } from '../kit/handleCommand.ts';
import { stepOf } from '../kit/processStep.ts';
import { type AccountDeps, reservationStreamId } from './accountDeps.ts';
import { recordActivity } from './recordActivity.ts';
import { EMAIL_TAKEN, registerAccount, USERNAME_TAKEN } from './registerUser.ts';
import type { SignedIn } from './signIn.ts';

export { GOOGLE_ACCOUNT_MISMATCH, GOOGLE_EMAIL_UNVERIFIED } from '../../domain/accounts/userDecider.ts';

export interface GoogleSignInResult {
  outcome: 'signed_in' | 'registered' | 'applied';
  /** Absent for a tutor applicant: no account until an admin approves the application. */
  signIn?: SignedIn;
  /** A tutor applicant's application as it stands: an applicant signing in again learns a rejection or denial. */
  application?: 'submitted' | 'rejected' | 'denied';
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
    const state = await deps.handlers.users.load(userId);
    return state.exists && !state.deleted ? { userId, state, matchedBy } : null;
  };
  const byGoogle = await findUserIdByGoogleId(deps.sql, identity.subject);
  const linked = byGoogle ? await load(byGoogle, 'google') : null;
  if (linked) return linked;
  // The read model first; the e-mail reservation (written before the user) covers projection lag.
  const byEmail = (await findUserByEmail(deps.sql, identity.email))?.id ?? (await emailHolder(deps, identity.email));
  return byEmail ? load(byEmail, 'email') : null;
}

async function emailHolder(deps: AccountDeps, email: string): Promise<string | null> {
  const holder = (await deps.handlers.reservations.load(reservationStreamId('email', email))).heldBy;
  return holder?.startsWith('user-') ? holder.slice('user-'.length) : null;
}

/** Link the tokens, record the sign-in, open a sign-in session: the same for a found and a new account. */
async function completeSignIn(
  deps: AccountDeps,
  found: Pick<FoundAccount, 'userId' | 'matchedBy'>,
  identity: ExternalIdentity,
  step: Step,
): Promise<{ signIn: SignedIn; position: Position | null; role: string }> {
  const { userId } = found;
  // A deactivated account is refused before Google's tokens are stored on it.
  if ((await deps.handlers.users.load(userId)).deactivated) throw new DomainError(ACCOUNT_DEACTIVATED, 'forbidden');
  // The decider refuses an unverified address claiming an account by e-mail, or another Google account's.
  await deps.handlers.users.handle(
    userId,
    {
      type: 'LinkGoogleAccount',
      data: {
        userId,
        googleId: identity.subject,
        accessToken: identity.accessToken,
        refreshToken: identity.refreshToken,
        tokenExpiry: identity.expiresAt?.toISOString() ?? null,
        emailVerifiedByProvider: identity.emailVerified,
        matchedBy: found.matchedBy,
      },
    },
    step('link-google'),
  );
  const user = await deps.handlers.users.load(userId);
  const signedIn = await recordActivity(
    deps.store,
    user,
    { type: 'SignIn', data: { userId, via: 'google', passwordMatched: true, throttled: false } },
    step('sign-in'),
  );
  const refusal = signedIn.events[0] ? signInRefusal(signedIn.events[0]) : null;
  if (refusal) throw refusal;
  const role = user.role ?? 'student';
  const opened = await deps.signIns.create(userId, role);
  return { signIn: { userId, role, studentId: null, ...opened }, position: signedIn.position, role };
}

async function signInExisting(deps: AccountDeps, found: FoundAccount, identity: ExternalIdentity, step: Step): Promise<GoogleSignInResult> {
  const { signIn, position } = await completeSignIn(deps, found, identity, step);
  return { outcome: 'signed_in', signIn, position };
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
    // A hint only: the claim on the username's reservation stream decides, and a lost claim retries.
    if (!(await isUsernameTaken(deps.sql, candidate))) return candidate;
  }
  throw new DomainError(USERNAME_TAKEN, 'conflict');
}

async function registerStudentFromGoogle(deps: AccountDeps, identity: ExternalIdentity, step: Step): Promise<GoogleSignInResult> {
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
          // The grade is unknown here: the profile exists with none, and the dashboard asks for it.
          student: { grade: '', isUniversityStudent: false },
        },
        step(`register-${attempt}`),
      );
      const { signIn, position } = await completeSignIn(deps, { userId, matchedBy: 'google' }, identity, step);
      return { outcome: 'registered', signIn, position };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.message === USERNAME_TAKEN && attempt < 5) continue;
      if (error.message === EMAIL_TAKEN) {
        // A concurrent sign-in with the same address created the account first: sign into it.
        const found = await findAccount(deps, identity);
        if (found) return signInExisting(deps, found, identity, step);
      }
      throw error;
    }
  }
}

/**
 * The invitation a new application links: the open invitation of the address (its stream is keyed
 * by a hash of the lower-cased address) is accepted on that stream, so a revocation and the
 * acceptance cannot both win; a revoked one refuses the sign-in (`INVITATION_REVOKED`). An
 * applicant who already applied links nothing new. A retry after the acceptance but before the
 * application finds the invitation accepted by this application and links it still.
 */
async function acceptInvitation(
  deps: AccountDeps,
  email: string,
  applicantId: string,
  applicationId: string,
  ctx: CommandContext,
): Promise<string | null> {
  if ((await deps.handlers.tutorApplications.load(applicantId)).status !== 'none') return null;
  const invitations = commandHandler(deps.store, tutorInvitationDecider, tutorInvitationStreamId);
  const key = deterministicUuid(invitationKeyName(email));
  const result = await invitations.handle(key, { type: 'AcceptTutorInvitation', data: { applicationId } }, ctx);
  const accepted = result.events.find((e) => e.type === 'TutorInvitationAccepted');
  if (accepted) return accepted.data.invitationId;
  return acceptedInvitation(await invitations.load(key), applicationId);
}

/**
 * A tutor who is not yet a user applies (spec part 1 §1: tutors get an account only once
 * selected). No user and no sign-in session are created, so an applicant has no tutor powers; the
 * application (personal fields sealed) waits for an admin. The application is keyed by the
 * Google subject, so signing in again does not apply twice. Calendar tokens are not kept for an
 * applicant: a selected tutor grants them again at the first sign-in (prompt=consent).
 */
async function submitTutorApplication(
  deps: AccountDeps,
  identity: ExternalIdentity,
  termsAcceptedVersion: string | null,
  step: Step,
): Promise<GoogleSignInResult> {
  const applicantId = deterministicUuid(`tutor-applicant/${identity.subject}`);
  const applicationId = deterministicUuid(`tutor-application/${identity.subject}`);
  const invitationId = await acceptInvitation(deps, identity.email, applicantId, applicationId, step('tutor-invitation'));
  const result = await deps.handlers.tutorApplications.handle(
    applicantId,
    {
      type: 'SubmitTutorApplication',
      data: {
        applicationId,
        userId: applicantId,
        email: identity.email,
        firstName: identity.firstName,
        lastName: identity.lastName,
        googleId: identity.subject,
        invitationId,
        termsAcceptedVersion,
        termsAcceptedIp: step('tutor-application').ip,
      },
    },
    step('tutor-application'),
  );
  // Signing in again applies nothing new: a rejected or denied applicant is told the decision.
  const { status } = await deps.handlers.tutorApplications.load(applicantId);
  const application = status === 'rejected' || status === 'denied' ? status : 'submitted';
  return { outcome: 'applied', application, position: result.position };
}

/**
 * Sign-in with a verified Google (or dev) identity:
 * - an account linked to the Google id, or holding its verified e-mail address, is signed into
 *   (whatever the button: its role decides the landing page), and the tokens are linked;
 * - otherwise a student button creates a verified, password-less student account;
 * - otherwise a tutor button submits a tutor application, without an account or a sign-in session,
 *   recording the agreement the applicant accepted on /tutor-signup (`termsAcceptedVersion`), so
 *   the approved tutor is not asked to accept the Student/Parent Agreement.
 */
export async function signInWithGoogle(
  deps: AccountDeps,
  identity: ExternalIdentity,
  userType: SignInUserType,
  ctx: CommandContext,
  termsAcceptedVersion: string | null = null,
): Promise<GoogleSignInResult> {
  const step: Step = stepOf(ctx);
  const found = await findAccount(deps, identity);
  if (found) return signInExisting(deps, found, identity, step);
  if (!identity.emailVerified) throw new DomainError(GOOGLE_EMAIL_UNVERIFIED, 'forbidden');
  if (userType === 'tutor') return submitTutorApplication(deps, identity, termsAcceptedVersion, step);
  return registerStudentFromGoogle(deps, identity, step);
}
