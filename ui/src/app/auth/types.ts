import type { CurrentUser } from '@shared/accounts/accountApi.ts';

export type { AccountRole, StudentSummary } from '@shared/accounts/accountApi.ts';

/** The current user as GET /api/user returns it (docs/accounts.md; schema in @shared/accounts/accountApi.ts). */
export type User = CurrentUser;

/** "Ann Lee"; falls back to the username when both names are empty. */
export function fullName(user: Pick<User, 'firstName' | 'lastName' | 'username'>): string {
  const name = `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim();
  return name || user.username;
}

/** "AL" from Ann Lee; the first letter of the username when there are no names. */
export function initialsOf(user: Pick<User, 'firstName' | 'lastName' | 'username'>): string {
  const initials = `${user.firstName?.[0] ?? ''}${user.lastName?.[0] ?? ''}`.toUpperCase();
  return initials || (user.username?.[0] ?? '?').toUpperCase();
}
