import { DUMMY_HASH } from '../../adapters/passwords/passwordHasher.ts';
import { type Claim, RateLimiter, type RateLimitRule, waitText } from '../../adapters/rateLimit/rateLimiter.ts';
import { INVALID_LOGIN, signInRefusal } from '../../domain/accounts/userActivityDecider.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { isStorableText } from '../../domain/kit/storableText.ts';
import { findSecondaryLogin, findUserByLogin, type UserLookup } from '../../projections/accounts/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import type { AccountDeps } from './accountDeps.ts';
import { recordActivity } from './recordActivity.ts';

export { INVALID_LOGIN, UNVERIFIED } from '../../domain/accounts/userActivityDecider.ts';

/** "Too many failed sign-in attempts. Please try again in 15 minutes." for the limit's window. */
export function tooManyAttempts(windowSeconds: number): string {
  return `Too many failed sign-in attempts. Please try again in ${waitText(windowSeconds)}.`;
}

export interface SignInLimits {
  /** Failed sign-ins per account, whichever login names it. Always on. */
  perAccount: RateLimitRule;
  /** Failed sign-ins per client address, across accounts; null turns it off (RATE_LIMITS=off). */
  perIp: RateLimitRule | null;
}

/** The defaults of SIGN_IN_ACCOUNT_LIMIT and SIGN_IN_IP_LIMIT (src/adapters/config/config.ts). */
export const defaultSignInLimits: SignInLimits = {
  perAccount: { limit: 5, windowSeconds: 15 * 60 },
  perIp: { limit: 20, windowSeconds: 15 * 60 },
};
export const TOO_MANY_ATTEMPTS = tooManyAttempts(defaultSignInLimits.perAccount.windowSeconds);

export interface SignedIn {
  userId: string;
  role: string;
  studentId: string | null;
  token: string;
  expiresAt: Date;
}

/** Who a login names: an account (by username or e-mail), a student's secondary login, or nobody. */
type Target = { kind: 'user'; user: UserLookup } | { kind: 'secondary'; studentId: string; userId: string } | { kind: 'unknown' };

async function resolve(deps: AccountDeps, login: string): Promise<Target> {
  // Text PostgreSQL cannot hold names nobody: no look-up can match it.
  if (!isStorableText(login)) return { kind: 'unknown' };
  const user = await findUserByLogin(deps.sql, login);
  if (user) return { kind: 'user', user };
  const secondary = await findSecondaryLogin(deps.sql, login);
  if (secondary) return { kind: 'secondary', ...secondary };
  return { kind: 'unknown' };
}

const userAccountKey = (userId: string) => RateLimiter.key('login-account', `user:${userId}`);

/** The per-account key: the account itself, not the text typed (its username and e-mail share it). */
function accountKey(target: Target, login: string): string {
  if (target.kind === 'user') return userAccountKey(target.user.id);
  if (target.kind === 'secondary') return RateLimiter.key('login-account', `secondary:${target.studentId}`);
  return RateLimiter.key('login-account', `login:${login.trim().toLowerCase()}`);
}

/**
 * Forgets the account's failed sign-ins: a completed password reset proves the caller owns the
 * account, so a lock an attacker caused ends with it.
 */
export async function clearSignInFailures(deps: AccountDeps, userId: string): Promise<void> {
  await deps.rateLimiter.clear(userAccountKey(userId));
}

/**
 * Password sign-in by username, e-mail, or a student's secondary (view-only) username. The
 * answer never says which part was wrong.
 *
 * Each attempt first claims a slot against the client address, then against the account (one
 * atomic upsert each, so concurrent attempts cannot slip past a limit: a count-then-check let a
 * burst of 30 through); over either limit it is refused without checking the password. A wrong
 * password keeps its slots; the right one gives the address's slot back and clears the account's
 * count. The handler computes the facts (does the password match); the rules that follow from
 * them are the activity decider's.
 */
export async function signIn(
  deps: AccountDeps,
  login: string,
  password: string,
  ctx: CommandContext,
  limits: SignInLimits = defaultSignInLimits,
): Promise<SignedIn> {
  const target = await resolve(deps, login);

  let ipClaim: Claim | null = null;
  if (limits.perIp) {
    ipClaim = await deps.rateLimiter.claim(RateLimiter.clientKey('login-ip', ctx.ip), limits.perIp);
    if (!ipClaim.allowed) throw new DomainError(tooManyAttempts(limits.perIp.windowSeconds), 'rate_limited');
  }
  const account = await deps.rateLimiter.claim(accountKey(target, login), limits.perAccount);
  if (!account.allowed) {
    // The account's activity records the lock once per window, not every refused attempt: a
    // flood of refusals must not become a flood of writes.
    if (target.kind === 'user' && account.count === limits.perAccount.limit + 1) {
      const state = await deps.handlers.users.load(target.user.id);
      if (state.exists && !state.deleted) {
        await recordActivity(
          deps.store,
          state,
          { type: 'SignIn', data: { userId: target.user.id, via: 'password', passwordMatched: false, throttled: true } },
          ctx,
        );
      }
    }
    throw new DomainError(tooManyAttempts(limits.perAccount.windowSeconds), 'rate_limited');
  }

  /** The password was right: this attempt is no failure. */
  const giveBack = async (clearAccount: boolean) => {
    await Promise.all([
      ipClaim ? deps.rateLimiter.release(ipClaim) : null,
      clearAccount ? deps.rateLimiter.clear(account.key) : deps.rateLimiter.release(account),
    ]);
  };

  if (target.kind === 'unknown') {
    await deps.hasher.verify(DUMMY_HASH, password);
    throw new DomainError(INVALID_LOGIN, 'unauthenticated');
  }
  if (target.kind === 'secondary') {
    const signedIn = await signInSecondary(deps, target, password, ctx);
    if (!signedIn) throw new DomainError(INVALID_LOGIN, 'unauthenticated');
    await giveBack(true);
    return signedIn;
  }

  const { user } = target;
  const state = await deps.handlers.users.load(user.id);
  const passwordMatched = state.passwordHash !== null && (await deps.hasher.verify(state.passwordHash, password));
  if (!state.passwordHash) await deps.hasher.verify(DUMMY_HASH, password);
  if (!state.exists || state.deleted) throw new DomainError(INVALID_LOGIN, 'unauthenticated');
  const { events } = await recordActivity(
    deps.store,
    state,
    { type: 'SignIn', data: { userId: user.id, via: 'password', passwordMatched, throttled: false } },
    ctx,
  );
  const refusal = events[0] ? signInRefusal(events[0]) : null;
  if (refusal) {
    // Unverified: the password was right, so the attempt is not a failure.
    if (passwordMatched) await giveBack(false);
    throw refusal;
  }
  await giveBack(true);
  const role = state.role ?? user.role;
  const opened = await deps.signIns.create(user.id, role);
  return { userId: user.id, role, studentId: null, ...opened };
}

async function signInSecondary(
  deps: AccountDeps,
  target: { studentId: string; userId: string },
  password: string,
  ctx: CommandContext,
): Promise<SignedIn | null> {
  const profile = await deps.handlers.students.load(target.studentId);
  if (profile.erased || !profile.secondaryPasswordHash) {
    await deps.hasher.verify(DUMMY_HASH, password);
    return null;
  }
  if (!(await deps.hasher.verify(profile.secondaryPasswordHash, password))) return null;
  const user = await deps.handlers.users.load(target.userId);
  const { events } = await recordActivity(
    deps.store,
    user,
    { type: 'SignIn', data: { userId: target.userId, via: 'secondary', passwordMatched: true, throttled: false } },
    ctx,
  );
  // The view-only login opens the holder's account: a deactivated holder's students are refused too.
  const refusal = events[0] ? signInRefusal(events[0]) : null;
  if (refusal) throw refusal;
  const opened = await deps.signIns.create(target.userId, 'student_secondary', target.studentId);
  return { userId: target.userId, role: 'student_secondary', studentId: target.studentId, ...opened };
}
