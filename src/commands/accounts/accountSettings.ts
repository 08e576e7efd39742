import { secondaryLoginHolder } from '../../domain/accounts/reservation.ts';
import type { TimezoneMode } from '../../domain/accounts/userDecider.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { compensating, stepOf } from '../kit/processStep.ts';
import { type AccountDeps, reservationStreamId } from './accountDeps.ts';
import { USERNAME_TAKEN } from './registerUser.ts';

export function acceptTerms(deps: AccountDeps, userId: string, version: string, ctx: CommandContext) {
  return deps.handlers.users.handle(userId, { type: 'AcceptTerms', data: { userId, version, ip: ctx.ip } }, ctx);
}

export async function chooseRole(deps: AccountDeps, userId: string, role: string, ctx: CommandContext) {
  const result = await deps.handlers.users.handle(userId, { type: 'ChooseRole', data: { userId, role } }, ctx);
  await deps.signIns.updateRole(userId, 'student');
  return result;
}

/** `automatic` is the sign-in sync (a chosen zone outlives it); `chosen` and `device` are the person's own. */
export function changeTimezone(deps: AccountDeps, userId: string, timezone: string, ctx: CommandContext, mode: TimezoneMode = 'automatic') {
  return deps.handlers.users.handle(userId, { type: 'ChangeTimezone', data: { userId, timezone, mode } }, ctx);
}

/** The account holder's own first and last name (trimmed and checked by the decider). */
export function changeName(deps: AccountDeps, userId: string, name: { firstName: string; lastName: string }, ctx: CommandContext) {
  return deps.handlers.users.handle(userId, { type: 'ChangeName', data: { userId, ...name } }, ctx);
}

/** Grade and school year (spec part 2: the student's Account dialog). */
export function updateStudentAccount(
  deps: AccountDeps,
  studentId: string,
  account: { grade: string; schoolYearStartMonth: number },
  ctx: CommandContext,
) {
  return deps.handlers.students.handle(studentId, { type: 'UpdateStudentAccount', data: { studentId, ...account } }, ctx);
}

/**
 * A student's view-only login. Its username shares the namespace of account usernames and is
 * claimed on the same reservation stream, so two concurrent claims of one name give one winner;
 * a renamed login gives its old name back. Sessions of the old login end.
 */
export async function setSecondaryLogin(
  deps: AccountDeps,
  studentId: string,
  secondaryUsername: string,
  /** Absent: rename only, the login keeps its password. */
  password: string | undefined,
  ctx: CommandContext,
) {
  const { students, reservations } = deps.handlers;
  const student = await students.load(studentId);
  if (!student.exists || student.erased) throw new DomainError('Student not found', 'not_found');
  const holderId = secondaryLoginHolder(studentId);
  const step = stepOf(ctx);
  const newName = reservationStreamId('username', secondaryUsername);
  const oldName = student.secondaryUsername ? reservationStreamId('username', student.secondaryUsername) : null;
  const secondaryPasswordHash = password ? await deps.hasher.hash(password) : null;

  await reservations.handle(newName, { type: 'Reserve', data: { holderId, takenMessage: USERNAME_TAKEN } }, step('reserve-username'));
  const result = await compensating(
    () =>
      students.handle(studentId, { type: 'SetSecondaryLogin', data: { studentId, secondaryUsername, secondaryPasswordHash } }, step('set')),
    () =>
      newName === oldName ? Promise.resolve() : reservations.handle(newName, { type: 'Release', data: { holderId } }, step('release-new')),
  );
  if (oldName && oldName !== newName) {
    await reservations.handle(oldName, { type: 'Release', data: { holderId } }, step('release-old'));
  }
  await deps.signIns.endSecondaryFor(studentId);
  return result;
}
