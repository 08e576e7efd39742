import type { AccountRole } from '../../domain/accounts/user.ts';
import { boolean, int, type RowOf, table, text, timestamptz } from '../kit/table.ts';

/** Who can sign in, with what role, and their profile. */
export const users = table(
  'users',
  {
    id: text().primaryKey(),
    username: text(),
    email: text(),
    role: text<AccountRole>().default('student'),
    first_name: text(),
    last_name: text(),
    phone: text().nullable(),
    email_verified: boolean().default(false),
    auth_provider: text<'local' | 'google'>().default('local'),
    google_id: text().nullable(),
    google_token_expiry: timestamptz().nullable(),
    timezone: text().default('America/New_York'),
    /**
     * The person chose the zone (issue 24). Nullable with a default so the table's setup adds it to a
     * live table in place (existing rows false: nobody had chosen one before), without a rebuild.
     */
    timezone_chosen: boolean().nullable().default(false),
    terms_accepted_at: timestamptz().nullable(),
    terms_accepted_ip: text().nullable(),
    terms_accepted_version: text().nullable(),
    parent_id: text().nullable(),
    created_at: timestamptz(),
    last_sign_in_at: timestamptz().nullable(),
    /** Set while an admin has the account deactivated (issue 12 §2), with the admin's reason. */
    deactivated_at: timestamptz().nullable(),
    deactivation_reason: text().nullable(),
  },
  {
    indexes: [
      { name: 'users_username', on: ['lower(username)'], unique: true },
      // The console's Users tab sorts by these.
      { name: 'users_created_at', on: ['created_at', 'id'] },
      { name: 'users_last_sign_in_at', on: ['last_sign_in_at', 'id'] },
      { name: 'users_name', on: ['lower(last_name)', 'lower(first_name)', 'id'] },
      { name: 'users_deactivated', on: ['deactivated_at'], where: 'deactivated_at IS NOT NULL' },
      { name: 'users_email', on: ['lower(email)'], unique: true },
      { name: 'users_role', on: ['role'] },
      { name: 'users_google_id', on: ['google_id'], where: 'google_id IS NOT NULL' },
    ],
  },
);
export type UserRow = RowOf<typeof users>;

/** Student profiles: of an account holder (a student) or of a parent's child; grade '' is not set yet. */
export const students = table(
  'students',
  {
    id: text().primaryKey(),
    user_id: text(),
    parent_id: text().nullable(),
    first_name: text(),
    last_name: text(),
    grade: text(),
    school_year_start_month: int().nullable(),
    is_university_student: boolean().default(false),
    notes: text().nullable(),
    /** The view-only login's current username; a later SecondaryLoginSet replaces it. */
    secondary_username: text().nullable(),
    has_secondary_login: boolean().default(false),
    created_at: timestamptz(),
  },
  {
    indexes: [
      { name: 'students_user', on: ['user_id'] },
      { name: 'students_parent', on: ['parent_id'] },
      { name: 'students_secondary_username', on: ['lower(secondary_username)'], unique: true },
    ],
  },
);
export type StudentRow = RowOf<typeof students>;

/** Tutors who applied and await review (the admin side comes with the tutors feature). */
export const pendingTutorApplications = table(
  'pending_tutor_applications',
  {
    id: text().primaryKey(),
    user_id: text(),
    email: text(),
    first_name: text().nullable(),
    last_name: text().nullable(),
    google_id: text().nullable(),
    invitation_id: text().nullable(),
    status: text().default('pending'),
    applied_at: timestamptz(),
    reviewed_at: timestamptz().nullable(),
    reviewed_by: text().nullable(),
  },
  { indexes: [{ name: 'pending_tutor_applications_user', on: ['user_id'] }] },
);
export type PendingTutorApplicationRow = RowOf<typeof pendingTutorApplications>;
