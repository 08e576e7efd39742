import type { Sql } from '../../adapters/db/db.ts';

export interface CurrentUser {
  id: string;
  username: string;
  email: string;
  role: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  emailVerified: boolean;
  authProvider: string;
  timezone: string;
  termsAcceptedAt: string | null;
  termsAcceptedVersion: string | null;
  googleTokenExpiry: string | null;
  createdAt: string;
  student: {
    id: string;
    grade: string;
    isUniversityStudent: boolean;
    schoolYearStartMonth: number | null;
    hasSecondaryLogin: boolean;
  } | null;
  viewOnly: boolean;
}

/** The user as the UI reads it; a secondary login reads its student's account, view-only. */
export async function currentUser(
  sql: Sql,
  principal: { userId: string; role: string; studentId: string | null },
): Promise<CurrentUser | null> {
  const [u] = await sql<
    {
      id: string;
      username: string;
      email: string;
      role: string;
      first_name: string;
      last_name: string;
      phone: string | null;
      email_verified: boolean;
      auth_provider: string;
      timezone: string;
      terms_accepted_at: Date | null;
      terms_accepted_version: string | null;
      google_token_expiry: Date | null;
      created_at: Date;
    }[]
  >`SELECT * FROM users WHERE id = ${principal.userId}`;
  if (!u) return null;
  // A secondary login opens its own student; an account holder sees their first student profile.
  const [s] = await sql<
    { id: string; grade: string; is_university_student: boolean; school_year_start_month: number | null; has_secondary_login: boolean }[]
  >`SELECT * FROM students
    WHERE CASE WHEN ${principal.studentId}::text IS NULL THEN user_id = ${principal.userId} ELSE id = ${principal.studentId} END
    ORDER BY created_at LIMIT 1`;
  const viewOnly = principal.role === 'student_secondary';
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    role: viewOnly ? 'student_secondary' : u.role,
    firstName: u.first_name,
    lastName: u.last_name,
    phone: u.phone,
    emailVerified: u.email_verified,
    authProvider: u.auth_provider,
    timezone: u.timezone,
    termsAcceptedAt: u.terms_accepted_at?.toISOString() ?? null,
    termsAcceptedVersion: u.terms_accepted_version,
    googleTokenExpiry: u.google_token_expiry?.toISOString() ?? null,
    createdAt: u.created_at.toISOString(),
    student: s
      ? {
          id: s.id,
          grade: s.grade,
          isUniversityStudent: s.is_university_student,
          schoolYearStartMonth: s.school_year_start_month,
          hasSecondaryLogin: s.has_secondary_login,
        }
      : null,
    viewOnly,
  };
}
