import { studentDecider, studentStreamId } from '../../domain/accounts/studentProfile.ts';
import { userDecider, userStreamId } from '../../domain/accounts/userDecider.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { handleCommand } from '../kit/handleCommand.ts';
import type { AccountDeps } from './accountDeps.ts';

export function acceptTerms(deps: AccountDeps, userId: string, version: string, ctx: CommandContext) {
  return handleCommand(
    deps.store,
    userDecider,
    userStreamId(userId),
    { type: 'AcceptTerms', userId, version, ip: ctx.ip, now: ctx.now },
    ctx,
  );
}

export async function chooseRole(deps: AccountDeps, userId: string, role: string, ctx: CommandContext) {
  const result = await handleCommand(
    deps.store,
    userDecider,
    userStreamId(userId),
    { type: 'ChooseRole', userId, role, now: ctx.now },
    ctx,
  );
  await deps.sessions.updateRole(userId, 'student');
  return result;
}

export function changeTimezone(deps: AccountDeps, userId: string, timezone: string, ctx: CommandContext) {
  return handleCommand(deps.store, userDecider, userStreamId(userId), { type: 'ChangeTimezone', userId, timezone, now: ctx.now }, ctx);
}

export async function setSecondaryLogin(
  deps: AccountDeps,
  studentId: string,
  secondaryUsername: string,
  password: string,
  ctx: CommandContext,
) {
  const secondaryPasswordHash = await deps.hasher.hash(password);
  return handleCommand(
    deps.store,
    studentDecider,
    studentStreamId(studentId),
    { type: 'SetSecondaryLogin', studentId, secondaryUsername, secondaryPasswordHash, now: ctx.now },
    ctx,
  );
}
