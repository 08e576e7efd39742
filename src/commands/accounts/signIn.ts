import { DUMMY_HASH } from '../../adapters/passwords/passwordHasher.ts';
import { RateLimiter } from '../../adapters/rateLimit/rateLimiter.ts';
import { studentDecider, studentStreamId } from '../../domain/accounts/studentProfile.ts';
import { userDecider, userStreamId } from '../../domain/accounts/userDecider.ts';
import { DomainError } from '../../domain/decider.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { handleCommand, loadState } from '../kit/handleCommand.ts';
import { type AccountDeps, findUserByLogin } from './accountDeps.ts';

export const INVALID_LOGIN = 'Invalid username or password';
export const UNVERIFIED = 'Please verify your email before logging in';
export const TOO_MANY_ATTEMPTS = 'Too many failed sign-in attempts. Please try again in 15 minutes.';
export const perAccount = { limit: 5, windowSeconds: 15 * 60 };
export const perIp = { limit: 20, windowSeconds: 15 * 60 };

export interface SignedIn {
  userId: string;
  role: string;
  studentId: string | null;
  token: string;
  expiresAt: Date;
}

async function recordFailure(
  deps: AccountDeps,
  userId: string,
  reason: 'wrong_password' | 'unverified' | 'rate_limited',
  ctx: CommandContext,
) {
  await handleCommand(deps.store, userDecider, userStreamId(userId), { type: 'RecordSignInFailure', userId, reason, now: ctx.now }, ctx);
}

/**
 * Password sign-in by username, e-mail, or a student's secondary (view-only) username. Failures
 * count against the account and the IP address; the answer never says which part was wrong.
 */
export async function signIn(deps: AccountDeps, login: string, password: string, ctx: CommandContext): Promise<SignedIn> {
  const accountKey = RateLimiter.key('login-account', login);
  const ipKey = RateLimiter.key('login-ip', ctx.ip ?? 'unknown');
  const user = await findUserByLogin(deps.sql, login);
  const [accountFailures, ipFailures] = await Promise.all([
    deps.rateLimiter.count(accountKey, perAccount),
    deps.rateLimiter.count(ipKey, perIp),
  ]);
  if (accountFailures >= perAccount.limit || ipFailures >= perIp.limit) {
    if (user) await recordFailure(deps, user.id, 'rate_limited', ctx);
    throw new DomainError(TOO_MANY_ATTEMPTS, 429);
  }
  const fail = async (userId: string | null) => {
    await Promise.all([deps.rateLimiter.hit(accountKey, perAccount), deps.rateLimiter.hit(ipKey, perIp)]);
    if (userId) await recordFailure(deps, userId, 'wrong_password', ctx);
    return new DomainError(INVALID_LOGIN, 401);
  };

  if (!user) {
    const secondary = await signInSecondary(deps, login, password, ctx);
    if (secondary) return secondary;
    await deps.hasher.verify(DUMMY_HASH, password);
    throw await fail(null);
  }
  const state = await loadState(deps.store, userDecider, userStreamId(user.id));
  if (state.deleted || !state.passwordHash || !(await deps.hasher.verify(state.passwordHash, password))) {
    if (!state.passwordHash) await deps.hasher.verify(DUMMY_HASH, password);
    throw await fail(user.id);
  }
  if (!state.emailVerified) {
    await recordFailure(deps, user.id, 'unverified', ctx);
    throw new DomainError(UNVERIFIED, 403);
  }
  await deps.rateLimiter.clear(accountKey);
  await handleCommand(
    deps.store,
    userDecider,
    userStreamId(user.id),
    { type: 'RecordSignIn', userId: user.id, via: 'password', now: ctx.now },
    ctx,
  );
  const session = await deps.sessions.create(user.id, state.role ?? user.role);
  return { userId: user.id, role: state.role ?? user.role, studentId: null, ...session };
}

async function signInSecondary(deps: AccountDeps, login: string, password: string, ctx: CommandContext): Promise<SignedIn | null> {
  const [student] = await deps.sql<{ id: string; user_id: string }[]>`
    SELECT id, user_id FROM students WHERE lower(secondary_username) = lower(${login}) AND has_secondary_login LIMIT 1`;
  if (!student) return null;
  const state = await loadState(deps.store, studentDecider, studentStreamId(student.id));
  if (state.erased || !state.secondaryPasswordHash || !(await deps.hasher.verify(state.secondaryPasswordHash, password))) {
    return null;
  }
  await handleCommand(
    deps.store,
    userDecider,
    userStreamId(student.user_id),
    { type: 'RecordSignIn', userId: student.user_id, via: 'secondary', now: ctx.now },
    ctx,
  );
  const session = await deps.sessions.create(student.user_id, 'student_secondary', student.id);
  return { userId: student.user_id, role: 'student_secondary', studentId: student.id, ...session };
}
