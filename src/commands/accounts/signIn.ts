import { DUMMY_HASH } from '../../adapters/passwords/passwordHasher.ts';
import { RateLimiter } from '../../adapters/rateLimit/rateLimiter.ts';
import { INVALID_LOGIN, signInRefusal, TOO_MANY_SIGN_IN_ATTEMPTS } from '../../domain/accounts/userActivityDecider.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { findSecondaryLogin, findUserByLogin } from '../../projections/accounts/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import type { AccountDeps } from './accountDeps.ts';
import { recordActivity } from './recordActivity.ts';

export { INVALID_LOGIN, UNVERIFIED } from '../../domain/accounts/userActivityDecider.ts';
export const TOO_MANY_ATTEMPTS = TOO_MANY_SIGN_IN_ATTEMPTS;
export const perAccount = { limit: 5, windowSeconds: 15 * 60 };
export const perIp = { limit: 20, windowSeconds: 15 * 60 };

export interface SignedIn {
  userId: string;
  role: string;
  studentId: string | null;
  token: string;
  expiresAt: Date;
}

/**
 * Password sign-in by username, e-mail, or a student's secondary (view-only) username. Failures
 * count against the account and the IP address; the answer never says which part was wrong.
 * The handler computes the facts (does the password match, is a limit reached); the rules that
 * follow from them are the activity decider's.
 */
export async function signIn(deps: AccountDeps, login: string, password: string, ctx: CommandContext): Promise<SignedIn> {
  const accountKey = RateLimiter.key('login-account', login);
  const ipKey = RateLimiter.key('login-ip', ctx.ip ?? 'unknown');
  const user = await findUserByLogin(deps.sql, login);
  const [accountFailures, ipFailures] = await Promise.all([
    deps.rateLimiter.count(accountKey, perAccount),
    deps.rateLimiter.count(ipKey, perIp),
  ]);
  const throttled = accountFailures >= perAccount.limit || ipFailures >= perIp.limit;
  const countFailure = () => Promise.all([deps.rateLimiter.hit(accountKey, perAccount), deps.rateLimiter.hit(ipKey, perIp)]);

  if (!user) {
    if (throttled) throw new DomainError(TOO_MANY_SIGN_IN_ATTEMPTS, 'rate_limited');
    const secondary = await signInSecondary(deps, login, password, ctx);
    if (secondary) return secondary;
    await deps.hasher.verify(DUMMY_HASH, password);
    await countFailure();
    throw new DomainError(INVALID_LOGIN, 'unauthenticated');
  }
  const state = await deps.handlers.users.load(user.id);
  const passwordMatched = !throttled && state.passwordHash !== null && (await deps.hasher.verify(state.passwordHash, password));
  if (!throttled && !state.passwordHash) await deps.hasher.verify(DUMMY_HASH, password);
  if (!state.exists || state.deleted) {
    await countFailure();
    throw new DomainError(INVALID_LOGIN, 'unauthenticated');
  }
  const { events } = await recordActivity(
    deps.store,
    state,
    { type: 'SignIn', data: { userId: user.id, via: 'password', passwordMatched, throttled } },
    ctx,
  );
  const refusal = events[0] ? signInRefusal(events[0]) : null;
  if (refusal) {
    if (refusal.kind === 'unauthenticated') await countFailure();
    throw refusal;
  }
  await deps.rateLimiter.clear(accountKey);
  const role = state.role ?? user.role;
  const session = await deps.sessions.create(user.id, role);
  return { userId: user.id, role, studentId: null, ...session };
}

async function signInSecondary(deps: AccountDeps, login: string, password: string, ctx: CommandContext): Promise<SignedIn | null> {
  const found = await findSecondaryLogin(deps.sql, login);
  if (!found) return null;
  const student = { id: found.studentId, user_id: found.userId };
  const profile = await deps.handlers.students.load(student.id);
  if (profile.erased || !profile.secondaryPasswordHash || !(await deps.hasher.verify(profile.secondaryPasswordHash, password))) {
    return null;
  }
  const user = await deps.handlers.users.load(student.user_id);
  await recordActivity(
    deps.store,
    user,
    { type: 'SignIn', data: { userId: student.user_id, via: 'secondary', passwordMatched: true, throttled: false } },
    ctx,
  );
  const session = await deps.sessions.create(student.user_id, 'student_secondary', student.id);
  return { userId: student.user_id, role: 'student_secondary', studentId: student.id, ...session };
}
