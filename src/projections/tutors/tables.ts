import type { GradeLevel } from '../../domain/subjects/gradeLevels.ts';
import { boolean, int, type RowOf, table, text, timestamptz } from '../kit/table.ts';

/**
 * Tutors' profiles (spec part 1 §3 `tutors`); `hourly_rate_cents` is the profile's rate at creation, in cents (no
 * decimal column type in the kit); every rate after it is in the payouts read model (`payout_rates`), which owns rates.
 * `id` is the tutor id every tutor path uses; it equals `user_id` (one profile per account).
 * `profile_image_path` is the picture's storage key, served at `/api/tutors/{id}/picture`.
 * A deleted account leaves the row inactive with its personal fields (bio, picture) cleared.
 */
export const tutors = table(
  'tutors',
  {
    id: text().primaryKey(),
    user_id: text(),
    application_id: text().nullable(),
    hourly_rate_cents: int().nullable(),
    is_active: boolean().default(true),
    onboarding_completed: boolean().default(false),
    created_at: timestamptz(),
    bio: text().nullable(),
    experience: int().nullable(),
    profile_image_path: text().nullable(),
    profile_image_type: text().nullable(),
  },
  { indexes: [{ name: 'tutors_user', on: ['user_id'], unique: true }] },
);
export type TutorRow = RowOf<typeof tutors>;

/**
 * What each tutor teaches (spec part 1 §3 `tutor_subjects`) and up to which level: the saved set,
 * the qualification policy's implied subjects included. One row per (tutor, subject); `id` joins
 * the two (the kit's tables have a single-column key).
 */
export const tutorSubjects = table(
  'tutor_subjects',
  {
    id: text().primaryKey(),
    tutor_id: text(),
    subject_id: text(),
    max_grade_level: text<GradeLevel>().default('grade_10_under'),
    created_at: timestamptz(),
  },
  {
    indexes: [
      { name: 'tutor_subjects_tutor', on: ['tutor_id'] },
      { name: 'tutor_subjects_subject', on: ['subject_id'] },
    ],
  },
);
export type TutorSubjectRow = RowOf<typeof tutorSubjects>;

/**
 * Invitations (spec part 1 §3 `tutor_invitations`, without a token: the invitee signs in with
 * Google): sent (and maybe sent again), then accepted by the application that links it, or revoked
 * by an admin; a denial erases the address. The columns after `created_at` came with the console's
 * invitations list (issue 24): nullable so the table's setup adds them to a live table in place
 * (`sent_count` defaults to 1, the one mail every older invitation had; `last_sent_at` and
 * `stream_id` read as `created_at` and the address's stream until a rebuild fills them).
 */
export const tutorInvitations = table(
  'tutor_invitations',
  {
    id: text().primaryKey(),
    email: text(),
    invited_by: text().nullable(),
    status: text<'sent' | 'accepted' | 'revoked'>().default('sent'),
    expires_at: timestamptz(),
    accepted_at: timestamptz().nullable(),
    created_at: timestamptz(),
    /** The invitation's stream (keyed by a hash of the address): resend and revoke decide there. */
    stream_id: text().nullable(),
    last_sent_at: timestamptz().nullable(),
    sent_count: int().nullable().default(1),
    revoked_at: timestamptz().nullable(),
    revoked_by: text().nullable(),
  },
  { indexes: [{ name: 'tutor_invitations_email', on: ['lower(email)'] }] },
);
export type TutorInvitationRow = RowOf<typeof tutorInvitations>;
