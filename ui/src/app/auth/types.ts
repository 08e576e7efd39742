/** The current user as GET /api/user returns it (docs/accounts.md). */

export type AccountRole = 'admin' | 'tutor' | 'parent' | 'student' | 'student_secondary' | 'finance';

export interface StudentSummary {
  id: string;
  grade: string | null;
  isUniversityStudent: boolean;
  schoolYearStartMonth: number | null;
  hasSecondaryLogin: boolean;
}

export interface User {
  id: string;
  username: string;
  email: string;
  /** One of AccountRole; kept open so an unknown role from a newer server does not break the UI. */
  role: AccountRole | (string & {});
  firstName: string;
  lastName: string;
  phone: string | null;
  emailVerified: boolean;
  authProvider: string;
  timezone: string;
  termsAcceptedAt: string | null;
  termsAcceptedVersion: string | null;
  createdAt: string;
  student: StudentSummary | null;
  /** True for a student's secondary (view-only) login. */
  viewOnly: boolean;
}

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
